// Real consumers (issue 5, part 5): the packed tarball installed in fresh
// temporary projects (scripts/pack-into-project.sh) and used the ways people
// use it. Each consumer is one check; the run prints "consumers: x/y passed".
//   1. Node ESM `import` (project "type": "module")
//   2. CommonJS project loading it with dynamic import()
//   3. the baseline flavour forced on gives the SIMD flavour's numbers
//   4. TypeScript: tsc --noEmit of a usage file against the shipped .d.ts
//   5. a Vite production build served on 127.0.0.1 (strict CSP), opened in headless Chromium
//   6. a module Web Worker in that app computing rows and transferring them to the page
// No network: vite and tsc are the repository's own binaries.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, rmSync, existsSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { referenceRow, TOLERANCE } from '../js/reference.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const here = join(root, 'tests/consumers');
const summaryIdx = process.argv.indexOf('--summary');
const SUMMARY = summaryIdx < 0 ? process.env.SINPE_SUMMARY || null : process.argv[summaryIdx + 1];

const results = [];
async function consumer(name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    console.log(`  ok    ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`  FAIL  ${name}: ${e && e.stack ? e.stack : e}`);
  }
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return (r.stdout + r.stderr).trim();
}

const pack = (type) => execFileSync('bash', [join(root, 'scripts/pack-into-project.sh'), type], { encoding: 'utf8' }).trim().split('\n').pop();

const esm = pack('module');
const cjs = pack('commonjs');
process.on('exit', () => {
  rmSync(esm, { recursive: true, force: true });
  rmSync(cjs, { recursive: true, force: true });
});
for (const dir of [esm, cjs]) cpSync(join(root, 'tests/js/reference.mjs'), join(dir, 'reference.mjs'));
for (const f of ['esm.mjs', 'parity.mjs', 'usage.ts', 'tsconfig.json', 'vite.config.mjs', 'app']) cpSync(join(here, f), join(esm, f), { recursive: true });
cpSync(join(here, 'cjs.cjs'), join(cjs, 'cjs.cjs'));
const installed = JSON.parse(readFileSync(join(esm, 'node_modules/sinpe.wasm/package.json'), 'utf8'));
console.log(`installed sinpe.wasm ${installed.version} from its tarball into ${esm} and ${cjs}`);

await consumer('Node ESM import', () => run('node', ['esm.mjs'], esm));
await consumer('CommonJS project, dynamic import()', () => run('node', ['cjs.cjs'], cjs));
await consumer('baseline flavour (simd: false) = SIMD flavour', () => run('node', ['parity.mjs'], esm));
await consumer('TypeScript tsc --noEmit against the shipped .d.ts', () => {
  const tsc = join(root, 'node_modules/.bin/tsc');
  run(tsc, ['-p', 'tsconfig.json'], esm);
  // ...and the @ts-expect-error lines really are errors: without them tsc must fail.
  const usage = readFileSync(join(esm, 'usage.ts'), 'utf8');
  const expected = usage.match(/^\/\/ @ts-expect-error/gm).length;
  const stripped = usage.replace(/^\/\/ @ts-expect-error.*$/gm, '');
  cpSync(join(esm, 'usage.ts'), join(esm, 'usage.ts.orig'));
  execFileSync('bash', ['-c', 'cat > usage.ts'], { cwd: esm, input: stripped });
  const r = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: esm, encoding: 'utf8' });
  cpSync(join(esm, 'usage.ts.orig'), join(esm, 'usage.ts'));
  const errors = (r.stdout.match(/error TS\d+/g) || []).length;
  if (r.status === 0 || errors !== expected) throw new Error(`expected ${expected} type errors without @ts-expect-error, got ${errors}:\n${r.stdout}`);
  return `usage type-checks under strict; ${expected} misuses rejected (${run(tsc, ['--version'], esm)})`;
});

// Vite production build, served on loopback, opened in headless Chromium.
let browserResult = null;
const browserErrors = [];
await consumer('Vite production build in headless Chromium', async () => {
  // The project has no vite of its own: link the repository's (no network install).
  const link = join(esm, 'node_modules/vite');
  if (!existsSync(link)) symlinkSync(join(root, 'node_modules/vite'), link, 'dir');
  run(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'vite.config.mjs'], esm);
  const out = join(esm, 'app-dist');
  const assets = run('ls', ['-R', out], esm);
  if (!/\.wasm/.test(assets)) throw new Error(`no .wasm emitted by the build:\n${assets}`);
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
  const requested = [];
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(out, path.endsWith('/') ? `${path}index.html` : path);
    requested.push(path);
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (!file.startsWith(out) || !existsSync(file)) {
      browserErrors.push(`404: ${path}`);
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      // A strict policy, as a careful app would ship: wasm needs 'wasm-unsafe-eval', nothing needs 'unsafe-eval'.
      'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'",
    });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => browserErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && browserErrors.push(`console: ${m.text()}`));
    page.on('requestfailed', (r) => browserErrors.push(`request failed: ${r.url()}`));
    await page.goto(url);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
    browserResult = await page.evaluate(() => window.__result);
  } finally {
    await browser.close();
    server.close();
  }
  if (browserResult.error) throw new Error(browserResult.error);
  if (browserErrors.length) throw new Error(browserErrors.join('\n'));
  if (!browserResult.simd || browserResult.baselineSimd) throw new Error(`flavours: ${JSON.stringify([browserResult.simd, browserResult.baselineSimd])}`);
  const check = (values, o, what) => {
    for (let r = 0; r < 3; r++) {
      const want = referenceRow(1000 + r, 16, o);
      for (let c = 0; c < 16; c++)
        if (!(Math.abs(values[r * 16 + c] - want[c]) <= TOLERANCE)) throw new Error(`${what} row ${r} col ${c}: ${values[r * 16 + c]} vs ${want[c]}`);
    }
  };
  check(browserResult.main, {}, 'main thread (SIMD)');
  check(browserResult.baseline, { preset: 'whisper' }, 'main thread (baseline)');
  const wasm = requested.filter((p) => p.endsWith('.wasm'));
  return `served on 127.0.0.1 under a strict CSP; SIMD + baseline correct; fetched ${wasm.join(', ')}`;
});
await consumer('Web Worker rows transferred to the page', () => {
  if (!browserResult || browserResult.error) throw new Error('the Vite app did not run');
  const w = browserResult.worker;
  if (!w.isFloat32 || w.values.length !== 48) throw new Error(`received ${w.values.length} values`);
  if (!w.detachedThere) throw new Error('the buffer was copied, not transferred');
  if (!w.simd) throw new Error('the worker did not use SIMD');
  for (let i = 0; i < 48; i++) if (w.values[i] !== browserResult.main[i]) throw new Error(`worker value ${i} differs from the main thread's`);
  return '3×16 rows computed in a module worker (SIMD), buffer transferred (detached in the worker), equal to the page\'s';
});

await consumer('package hygiene', () => run('node', [join(here, 'hygiene.mjs'), ...(SUMMARY ? ['--summary', SUMMARY] : [])], root));

const passed = results.filter((r) => r.ok).length;
console.log(`consumers: ${passed}/${results.length} passed`);
if (SUMMARY) appendFileSync(SUMMARY, `consumers: ${passed}/${results.length} passed (${results.map((r) => `${r.ok ? '' : 'FAILED '}${r.name}`).join('; ')})\n`);
process.exitCode = passed === results.length ? 0 : 1;
