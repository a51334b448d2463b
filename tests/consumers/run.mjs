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
//   package hygiene (hygiene.mjs) on the same tarball.
// Prints one line per check and appends the counts to $SINPE_SUMMARY (or the
// file after --summary). No network: every tool is a repository devDependency.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceRow, TOLERANCE } from '../js/reference.mjs';
import { ropeCache, ropeRotate, pairMagnitudes } from '../js/rope-reference.mjs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, launchFirefox } from '../browser/helpers.mjs';
import { buildVite, buildWebpack, buildEsbuild, buildRollup } from './bundlers.mjs';
import { serve } from './serve.mjs';

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

/** Checks what one app computed in one engine against the reference; returns a detail line. */
function verify(app, result, requests, problems) {
  if (result.error) throw new Error(`the page threw: ${result.error}`);
  if (problems.length) throw new Error(problems.join('\n'));
  const { simd, baseline } = result.flavours;
  if (simd.simd !== true || baseline.simd !== false) throw new Error(`flavours: simd ${simd.simd}, baseline ${baseline.simd}`);
  if (result.presets.length === 0) throw new Error('no presets');
  let worst = 0;
  let values = 0;
  for (const [flavour, got] of Object.entries(result.flavours)) {
    if (got.version !== installed.version) throw new Error(`${flavour}: version ${got.version}, installed ${installed.version}`);
    result.presets.forEach((preset, k) => {
      result.positions.forEach((p, r) => {
        const want = referenceRow(p, result.dModel, { preset });
        for (let c = 0; c < result.dModel; c++) {
          const v = got.encode[k][r * result.dModel + c];
          const err = Math.abs(v - want[c]);
          if (!(err <= TOLERANCE)) throw new Error(`${flavour} ${preset} position ${p} column ${c}: ${v}, reference ${want[c]}`);
          worst = Math.max(worst, err);
          values++;
        }
      });
    });
    for (let r = 0; r < 3; r++) {
      const want = referenceRow(1000 + r, 16);
      for (let c = 0; c < 16; c++)
        if (!(Math.abs(got.rows[r * 16 + c] - want[c]) <= TOLERANCE)) throw new Error(`${flavour} rows(1000, 3, 16) row ${r} col ${c}: ${got.rows[r * 16 + c]} vs ${want[c]}`);
    }
  }
  const prepared = Object.entries(result.flavours).map(([flavour, got]) => verifyPrepared(flavour, got.prepared, result));
  const rope = Object.entries(result.flavours).map(([flavour, got]) => verifyRope(flavour, got.rope, result));
  // The page fetched each flavour's .wasm from the app's own server, as a file the bundler copied unchanged.
  const wasm = requests.filter((q) => q.status === 200 && q.path.endsWith('.wasm'));
  const served = new Set(wasm.map((q) => readFileSync(q.file)).map((b) => (b.equals(wasmBytes.simd) ? 'simd' : b.equals(wasmBytes.baseline) ? 'baseline' : 'other')));
  if (!served.has('simd') || !served.has('baseline') || served.has('other'))
    throw new Error(`served .wasm files: ${wasm.map((q) => q.path).join(', ')} (${[...served].join(', ')}); want the package's simd and baseline files`);
  if (app.bundler === 'Vite') verifyVite(result);
  const names = [...new Set(wasm.map((q) => q.path))].join(', ');
  return `SIMD + baseline: ${result.presets.length} presets × ${result.positions.length} positions × d ${result.dModel} within ${worst.toExponential(2)} (${values} values); ${prepared[0]}; ${rope[0]}; fetched ${names}`;
}

/** prepare(): consecutive zero-copy chunks covering the rows asked for, each view unusable after its callback. */
function verifyPrepared(flavour, got, result) {
  const { start, count } = result.chunked;
  const d = result.dModel;
  const near = (values, p, what) => {
    const want = referenceRow(p, d);
    for (let c = 0; c < d; c++) if (!(Math.abs(values[c] - want[c]) <= TOLERANCE)) throw new Error(`${flavour} prepared ${what}, row ${p} column ${c}: ${values[c]} vs ${want[c]}`);
  };
  let next = start;
  for (const chunk of got.chunks) {
    if (chunk.firstRow !== next || !(chunk.rows >= 1)) throw new Error(`${flavour} prepared chunks: got rows ${chunk.firstRow} + ${chunk.rows}, expected to start at ${next}`);
    near(chunk.first, chunk.firstRow, 'chunk');
    near(chunk.last, chunk.firstRow + chunk.rows - 1, 'chunk');
    next += chunk.rows;
  }
  if (next !== start + count) throw new Error(`${flavour} prepared chunks ended at row ${next}, expected ${start + count}`);
  if (got.lengthsAfter.some((n) => n !== 0)) throw new Error(`${flavour} prepared chunks: views still readable after their callback (lengths ${got.lengthsAfter})`);
  for (let r = 0; r < 3; r++) near(got.rows.slice(r * d, (r + 1) * d), start + r, 'rows');
  return `prepare(): ${count} rows in ${got.chunks.length} zero-copy chunks, views detached after each callback`;
}

/** RoPE caches against the float64 reference (2.5e-7·max(1, att)), and one rotation (5e-7·max(1, att)·(|x_a| + |x_b|)). */
function verifyRope(flavour, got, result) {
  let worst = 0;
  result.ropeCases.forEach(({ rotaryDim, options }, k) => {
    const want = ropeCache(result.positions, rotaryDim, options);
    const have = got.caches[k];
    const type = options.ropeType ?? 'default';
    if (!(Math.abs(have.attentionFactor - want.attentionFactor) <= 1e-12 * want.attentionFactor))
      throw new Error(`${flavour} ropeCache ${type}: attentionFactor ${have.attentionFactor}, reference ${want.attentionFactor}`);
    const bound = 2.5e-7 * Math.max(1, want.attentionFactor);
    for (const part of ['cos', 'sin'])
      want[part].forEach((w, i) => {
        const err = Math.abs(have[part][i] - w);
        if (!(err <= bound)) throw new Error(`${flavour} ropeCache ${type} (r = ${rotaryDim}) ${part}[${i}]: ${have[part][i]}, reference ${w}`);
        worst = Math.max(worst, err);
      });
  });
  const { headDim, options } = result.rotation;
  const { input, output } = got.rotation;
  const want = ropeRotate(input, result.positions, headDim, options);
  const scale = pairMagnitudes(input, headDim, options.rotaryDim, options.layout);
  want.forEach((w, i) => {
    if (!(Math.abs(output[i] - w) <= 5e-7 * scale[i])) throw new Error(`${flavour} applyRope value ${i}: ${output[i]}, reference ${w} (pass-through dimensions must stay exactly as given)`);
  });
  return `RoPE: ${result.ropeCases.map((c) => c.options.ropeType ?? 'default').join(', ')} caches within ${worst.toExponential(2)}, applyRope (${options.layout}, rotaryDim ${options.rotaryDim} of ${headDim}) within contract`;
}

/** The Vite app's own checks: rows on the main thread (SIMD, baseline whisper) and from its module worker. */
function verifyVite(result) {
  if (!result.simd || result.baselineSimd) throw new Error(`flavours: ${JSON.stringify([result.simd, result.baselineSimd])}`);
  const rows = (values, o, what) => {
    for (let r = 0; r < 3; r++) {
      const want = referenceRow(1000 + r, 16, o);
      for (let c = 0; c < 16; c++)
        if (!(Math.abs(values[r * 16 + c] - want[c]) <= TOLERANCE)) throw new Error(`${what} row ${r} col ${c}: ${values[r * 16 + c]} vs ${want[c]}`);
    }
  };
  rows(result.main, {}, 'main thread (SIMD)');
  rows(result.baseline, { preset: 'whisper' }, 'main thread (baseline)');
  const w = result.worker;
  if (!w.isFloat32 || w.values.length !== 48) throw new Error(`worker: received ${w.values.length} values`);
  if (!w.detachedThere) throw new Error('worker: the buffer was copied, not transferred');
  if (!w.simd) throw new Error('worker: did not use SIMD');
  for (let i = 0; i < 48; i++) if (w.values[i] !== result.main[i]) throw new Error(`worker value ${i} differs from the main thread's`);
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
      const detail = verify(app, result, requests, problems);
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
  `consumers: ${count('consumer')} passed (Node ESM, CJS, baseline = SIMD, tsc node16/nodenext/bundler, Vite + worker, webpack, esbuild, Rollup); ` +
  `engines: ${engineLine}; hygiene: ${count('hygiene')}${failed.length ? `; FAILED: ${failed.join('; ')}` : ''}`;
console.log(line);
if (SUMMARY) appendFileSync(SUMMARY, `${line}\n`);
process.exitCode = failed.length === 0 ? 0 : 1;
