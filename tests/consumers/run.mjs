// Real consumers of the packed tarball, in more than one engine, and the
// package's hygiene. The tarball is installed once into a fresh ESM project
// and once into a CommonJS one (scripts/pack-into-project.sh) and used the
// ways people use it:
//   Node ESM `import`; a CommonJS project with dynamic import(); the baseline
//   flavour forced on gives the SIMD flavour's numbers;
//   tsc --noEmit of a usage file against the shipped .d.ts under module /
//   moduleResolution node16, nodenext and bundler;
//   production builds with Vite, webpack 5, esbuild and Rollup (each built
//   once), served on 127.0.0.1 under a strict CSP and opened in headless
//   Chromium: both flavours load their own .wasm (byte-identical to the
//   package's) and compute rows that match the float64 reference
//   (tests/js/reference.mjs); the Vite app also runs a module Web Worker;
//   engines: the same four apps in Debian's Firefox ESR, driven by
//   puppeteer-core over WebDriver BiDi;
//   Deno, Bun and onnxruntime-web (clients.mjs) on the same project;
//   pnpm with hoist: false (pnpm.mjs) on the same tarball;
//   package hygiene (hygiene.mjs) on the same tarball.
// Prints one line per check and appends the counts to $SINPE_SUMMARY (or the
// file after --summary). No network: every tool is a repository devDependency.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, launchFirefox } from '../browser/helpers.mjs';
import { buildVite, buildWebpack, buildEsbuild, buildRollup } from './bundlers.mjs';
import { serve } from './serve.mjs';
import { verify, verifyVite } from './verify.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const here = join(root, 'tests/consumers');
const summaryIdx = process.argv.indexOf('--summary');
const SUMMARY = summaryIdx < 0 ? process.env.SINPE_SUMMARY || null : process.argv[summaryIdx + 1];

const results = [];
/** One check: `kind` groups it in the summary; fn returns a detail line or throws. */
async function check(kind, name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    results.push({ kind, name, ok: true });
    console.log(`  ok    ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}`);
  } catch (e) {
    results.push({ kind, name, ok: false });
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
for (const dir of [esm, cjs]) for (const f of ['reference.mjs', 'errors-helper.mjs']) cpSync(join(root, 'tests/js', f), join(dir, f));
for (const f of ['esm.mjs', 'parity.mjs', 'usage.ts', 'tsconfig.json', 'app']) cpSync(join(here, f), join(esm, f), { recursive: true });
cpSync(join(here, 'cjs.cjs'), join(cjs, 'cjs.cjs'));
const installedDir = join(esm, 'node_modules/sinpe.wasm');
const installed = JSON.parse(readFileSync(join(installedDir, 'package.json'), 'utf8'));
console.log(`installed sinpe.wasm ${installed.version} from its tarball into ${esm} and ${cjs}`);

// --- Node
await check('consumer', 'Node ESM import', () => run('node', ['esm.mjs'], esm));
await check('consumer', 'CommonJS project, dynamic import()', () => run('node', ['cjs.cjs'], cjs));
await check('consumer', 'baseline flavour (simd: false) = SIMD flavour', () => run('node', ['parity.mjs'], esm));

// --- TypeScript: the same usage file under each module resolution a project may use.
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const TS_MODES = [
  ['node16', 'node16'],
  ['nodenext', 'nodenext'],
  ['esnext', 'bundler'], // moduleResolution bundler requires module esnext or preserve
];
for (const [module, moduleResolution] of TS_MODES) {
  await check('consumer', `tsc --noEmit, moduleResolution ${moduleResolution}`, () => {
    const config = `tsconfig.${moduleResolution}.json`;
    writeFileSync(join(esm, config), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module, moduleResolution } }));
    const listed = run('node', [tsc, '-p', config, '--listFiles'], esm);
    // The types must come from the installed tarball, through package.json "exports"/"types".
    const dts = join(installedDir, 'js/sinpe.d.ts');
    if (!listed.split('\n').includes(dts)) throw new Error(`tsc did not read ${dts}:\n${listed}`);
    if (moduleResolution !== 'nodenext') return `usage.ts type-checks under strict against node_modules/sinpe.wasm/js/sinpe.d.ts (module ${module})`;
    // ...and the @ts-expect-error lines really are errors: without them tsc must fail.
    const usage = readFileSync(join(esm, 'usage.ts'), 'utf8');
    const expected = usage.match(/^\/\/ @ts-expect-error/gm).length;
    try {
      writeFileSync(join(esm, 'usage.ts'), usage.replace(/^\/\/ @ts-expect-error.*$/gm, ''));
      const r = spawnSync('node', [tsc, '-p', config], { cwd: esm, encoding: 'utf8' });
      const errors = (r.stdout.match(/error TS\d+/g) || []).length;
      if (r.status === 0 || errors !== expected) throw new Error(`expected ${expected} type errors without @ts-expect-error, got ${errors}:\n${r.stdout}`);
    } finally {
      writeFileSync(join(esm, 'usage.ts'), usage);
    }
    return `usage.ts type-checks under strict; ${expected} misuses rejected (${run('node', [tsc, '--version'], esm)})`;
  });
}

// --- Bundlers: each app is built once, then opened in every engine.
const wasmBytes = {
  simd: readFileSync(join(installedDir, 'dist/sinpe-simd.wasm')),
  baseline: readFileSync(join(installedDir, 'dist/sinpe-baseline.wasm')),
};
const BUNDLERS = [
  ['Vite', buildVite],
  ['webpack 5', buildWebpack],
  ['esbuild', buildEsbuild],
  ['Rollup', buildRollup],
];
const apps = [];
for (const [bundler, build] of BUNDLERS) {
  const out = join(esm, `dist-${bundler.split(' ')[0].toLowerCase()}`);
  const t0 = performance.now();
  try {
    const { files, warnings } = await build(esm, out);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    const emitted = files.filter((f) => f.endsWith('.wasm'));
    apps.push({ bundler, out, server: await serve(out), detail: `built in ${seconds} s (${files.length} files, ${emitted.length} .wasm${warnings.length ? `, ${warnings.length} warnings: ${warnings.join(' | ')}` : ''})` });
  } catch (e) {
    apps.push({ bundler, out, buildError: e });
  }
}

// Reports CSP violations as console errors, which both engines' listeners collect.
function reportCspViolations() {
  document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
}

/** Opens an app in a page of either engine; returns { result, requests, problems }. */
async function openApp(engine, app) {
  const page = await engine.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  const first = app.server.requests.length;
  try {
    await engine.beforeLoad(page, reportCspViolations);
    await page.goto(app.server.url);
    await engine.waitForResult(page);
    const result = await page.evaluate(() => window.__result);
    const requests = app.server.requests.slice(first);
    for (const q of requests) if (q.status !== 200) problems.push(`${q.status}: ${q.path}`);
    return { result, requests, problems };
  } finally {
    await page.close();
  }
}

// Predicates are functions, not strings: a string would be eval()ed in the page, which the CSP forbids.
const TIMEOUT = 30000;
const engines = [];
try {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  engines.push({
    name: 'Chromium',
    version: browser.version(),
    newPage: () => browser.newPage(),
    beforeLoad: (page, fn) => page.addInitScript(fn),
    waitForResult: (page) => page.waitForFunction(() => window.__result !== undefined, undefined, { timeout: TIMEOUT }),
    close: () => browser.close(),
  });
} catch (e) {
  console.log(`  FAIL  launching Chromium: ${e.stack}`);
  results.push({ kind: 'engine', name: 'Chromium', ok: false });
}
try {
  const firefox = await launchFirefox();
  engines.push({
    name: 'Firefox ESR',
    version: firefox.version.replace(/^firefox\//, ''),
    newPage: () => firefox.browser.newPage(),
    beforeLoad: (page, fn) => page.evaluateOnNewDocument(fn),
    waitForResult: (page) => page.waitForFunction(() => window.__result !== undefined, { timeout: TIMEOUT }),
    close: firefox.close,
  });
} catch (e) {
  console.log(`  FAIL  launching Firefox ESR: ${e.stack}`);
  results.push({ kind: 'engine', name: 'Firefox ESR', ok: false });
}

let viteInChromium = null;
for (const engine of engines) {
  for (const app of apps) {
    // Chromium is where each bundler's build counts as a consumer; other engines run the same apps.
    const kind = engine.name === 'Chromium' ? 'consumer' : 'engine';
    const name = kind === 'consumer' ? `${app.bundler} production build in headless Chromium` : `${engine.name} ${engine.version}: the ${app.bundler} app`;
    await check(kind, name, async () => {
      if (app.buildError) throw app.buildError;
      const { result, requests, problems } = await openApp(engine, app);
      if (app.bundler === 'Vite' && engine.name === 'Chromium') viteInChromium = result;
      const detail = verify(app, result, requests, problems, { version: installed.version, wasmBytes });
      return kind === 'consumer' ? `${app.detail}; served on 127.0.0.1 under a strict CSP; ${detail}` : detail;
    });
  }
  if (engine.name === 'Chromium')
    await check('consumer', 'Web Worker rows transferred to the page (Vite app)', () => {
      if (!viteInChromium || viteInChromium.error || !viteInChromium.worker) throw new Error('the Vite app did not run');
      verifyVite(viteInChromium); // throws on a worker problem
      return "3×16 rows computed in a module worker (SIMD), buffer transferred (detached in the worker), equal to the page's";
    });
  await engine.close();
}
for (const app of apps) await app.server?.close();

// --- Other clients of the same project: Deno, Bun, onnxruntime-web in headless Chromium.
await check('consumer', 'Deno, Bun and onnxruntime-web (clients.mjs)', () =>
  run('node', [join(here, 'clients.mjs'), '--project', esm, ...(SUMMARY ? ['--summary', SUMMARY] : [])], root),
);

// --- The same tarball installed by pnpm, strictly (hoist: false), offline.
await check('consumer', 'pnpm, hoist: false (pnpm.mjs)', () => run('node', [join(here, 'pnpm.mjs'), '--project', esm, ...(SUMMARY ? ['--summary', SUMMARY] : [])], root));

// --- Hygiene of the same tarball.
await check('hygiene', 'package hygiene', () => run('node', [join(here, 'hygiene.mjs'), '--project', esm, ...(SUMMARY ? ['--summary', SUMMARY] : [])], root));

const count = (kind) => {
  const of = results.filter((r) => r.kind === kind);
  return `${of.filter((r) => r.ok).length}/${of.length}`;
};
const failed = results.filter((r) => !r.ok).map((r) => r.name);
const engineLine = engines
  .map((e) => {
    const mine = results.filter((r) => (e.name === 'Chromium' ? r.kind === 'consumer' && r.name.endsWith('in headless Chromium') : r.name.startsWith(`${e.name} `)));
    return `${e.name} ${e.version} ${mine.filter((r) => r.ok).length}/${mine.length} apps`;
  })
  .join(', ');
const line =
  `consumers: ${count('consumer')} passed (Node ESM, CJS, baseline = SIMD, tsc node16/nodenext/bundler, Vite + worker, webpack, esbuild, Rollup, Deno + Bun + onnxruntime-web, pnpm strict); ` +
  `engines: ${engineLine}; hygiene: ${count('hygiene')}${failed.length ? `; FAILED: ${failed.join('; ')}` : ''}`;
console.log(line);
if (SUMMARY) appendFileSync(SUMMARY, `${line}\n`);
process.exitCode = failed.length === 0 ? 0 : 1;
