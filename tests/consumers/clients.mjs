// Real clients of the packed tarball beyond Node:
//   Deno and Bun (both installed from their npm platform packages, which ship
//   the binaries) run the consumer checks of runtimes.mjs in a fresh project
//   that installed the tarball; Node runs the same file as the control;
//   onnxruntime-web (wasm backend, one thread) in headless Chromium runs a
//   com.microsoft RotaryEmbedding model built here with onnx-proto (the page
//   served by serve.mjs under its strict CSP), fed by
//   pe.ropeCacheRows in the page (float32), and a float16 model fed by caches
//   rounded here from the float64 reference; outputs are compared with a
//   float64 rotation computed here (tests/js/rope-reference.mjs), not by sinpe.
// A missing runtime or browser is a failure, not a skip (scripts/setup.sh
// installs them). Prints one line per check and appends the counts to
// $SINPE_SUMMARY (or the file after --summary).
// Usage: node tests/consumers/clients.mjs [--project DIR] [--summary FILE]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../browser/helpers.mjs';
import { makeRotaryModel } from '../js/fixtures/make-rotary-model.mjs';
import { ropeCache, ropeRotate, pairMagnitudes, pairIndices } from '../js/rope-reference.mjs';
import { serve } from './serve.mjs';
import { rotaryInput } from '../js/fixtures/random.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const here = join(root, 'tests/consumers');
const require = createRequire(import.meta.url);
const summaryIdx = process.argv.indexOf('--summary');
const SUMMARY = summaryIdx < 0 ? process.env.SINPE_SUMMARY || null : process.argv[summaryIdx + 1];

const results = [];
async function check(name, fn) {
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

function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env } });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout.trim();
}

// The project that installed the tarball: the one given after --project (run.mjs
// passes its own), or a new one.
const projectIdx = process.argv.indexOf('--project');
const packStart = performance.now();
const project =
  projectIdx < 0
    ? execFileSync('bash', [join(root, 'scripts/pack-into-project.sh'), 'module'], { encoding: 'utf8' }).trim().split('\n').pop()
    : resolve(process.argv[projectIdx + 1]);
const scratch = mkdtempSync(join(tmpdir(), 'sinpe-clients-'));
process.on('exit', () => {
  if (projectIdx < 0) rmSync(project, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});
if (projectIdx < 0) console.log(`installed sinpe.wasm from its tarball into ${project} (${((performance.now() - packStart) / 1000).toFixed(1)} s)`);
for (const f of ['js/reference.mjs', 'js/rope-reference.mjs', 'consumers/runtimes.mjs']) cpSync(join(root, 'tests', f), join(project, f.split('/').pop()));

// --- Deno and Bun, from the binaries their npm platform packages ship.
const ARCH = { x64: 'x64', arm64: 'aarch64' };
function platformBinary(pkg, file) {
  let dir;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch (e) {
    throw new Error(`${pkg} is not installed (bash scripts/setup.sh installs it): ${e.message}`, { cause: e });
  }
  return join(dir, file);
}
const denoPackage = `@deno/${process.platform}-${process.arch}${process.platform === 'linux' ? '-glibc' : ''}`;
const bunPackage = `@oven/bun-${process.platform}-${ARCH[process.arch] ?? process.arch}`;
const RUNTIMES = [
  ['Node', () => [process.execPath, ['runtimes.mjs'], {}]],
  [
    'Deno',
    () => [
      platformBinary(denoPackage, 'deno'),
      // The project's own node_modules (npm installed the tarball there); read access only.
      ['run', '--node-modules-dir=manual', '--no-remote', '--no-lock', '--allow-read', 'runtimes.mjs'],
      { DENO_DIR: join(scratch, 'deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    ],
  ],
  ['Bun', () => [platformBinary(bunPackage, 'bin/bun'), ['--no-install', 'runtimes.mjs'], { BUN_INSTALL_CACHE_DIR: join(scratch, 'bun'), NO_COLOR: '1' }]],
];
const runtimeLines = [];
for (const [name, command] of RUNTIMES)
  await check(`${name}: table, rows, encode, ropeCache(Rows) against the float64 references, SIMD + baseline, errors`, () => {
    const [cmd, args, env] = command();
    const line = run(cmd, args, project, env);
    if (!line.startsWith(`${name} `)) throw new Error(`expected a line from ${name}, got: ${line}`);
    runtimeLines.push(line.split(':')[0]);
    return line;
  });

// --- float16, rounded here: one rounding of the float64 value, to nearest, ties to even.
const TWO_M24 = 2 ** -24;
function roundHalfEven(q) {
  const f = Math.floor(q);
  const d = q - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}
function toFloat16Bits(v) {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a >= 65520) return sign | 0x7c00; // 65520 is the tie between 65504 and 2^16: even is infinity
  // Subnormal: in units of 2^-24 (dividing by a power of two is exact); 1024 units is 2^-14.
  if (a < 2 ** -14) return sign | roundHalfEven(a / TWO_M24);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; // log2 may round up just below a power of two
  if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * 1024); // exact: scaling by powers of two
  if (m === 1024) {
    m = 0;
    e++;
  }
  return e + 15 >= 31 ? sign | 0x7c00 : sign | ((e + 15) << 10) | m;
}
function fromFloat16Bits(b) {
  const s = b & 0x8000 ? -1 : 1;
  const e = (b >> 10) & 31;
  const m = b & 1023;
  if (e === 31) return m ? NaN : s * Infinity;
  return e === 0 ? s * m * TWO_M24 : s * (1 + m / 1024) * 2 ** (e - 15);
}
// Values where a rounding can go wrong: ties (to even and to odd), just off ties,
// subnormals and their ties, the overflow boundary, signs.
const ROUNDING_PROBES = [
  0, -0, 1, -1, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -11 + 2 ** -40, 1 + 2 ** -11 - 2 ** -40, 2 - 2 ** -12, 0.1, -0.7071067811865476,
  2 ** -24, 2 ** -25, 3 * 2 ** -25, 2 ** -25 + 2 ** -60, 5 * 2 ** -26, 2 ** -14 - 2 ** -25, 2 ** -14 - 2 ** -26, 65504, 65519.99, 65520, 1e6,
  1.1386294361119891, 0.9999999999, 2047.5, 2048.5, 3.14159265358979,
];

// --- onnxruntime-web in headless Chromium.
const CACHE_LENGTH = 64;
const BATCH = 2;
const SEQ = 7;
// position_ids: the first sequence at 0 … 6, the second continuing a longer one.
const POSITION_IDS = Array.from({ length: BATCH * SEQ }, (_, i) => (i % SEQ) + (i < SEQ ? 0 : 50));
const ROTATION_TOLERANCE = 5e-7; // the package's contract: × max(1, att) × (|x_a| + |x_b|)
const ORT_CASES = [
  // [label, options, headDim, rotaryDim, numHeads]
  ['default, partial 32 of 80 (phi-2)', { ropeType: 'default' }, 80, 32, 2],
  ['yarn (attention factor 1.1386)', { ropeType: 'yarn', base: 1e6, factor: 4, originalMaxPositions: 32 }, 64, 64, 2],
  ['llama3', { ropeType: 'llama3', base: 500000 }, 32, 32, 3],
];

const site = join(scratch, 'site');
mkdirSync(join(site, 'models'), { recursive: true });
cpSync(join(here, 'ort-web'), site, { recursive: true });
symlinkSync(join(project, 'node_modules/sinpe.wasm'), join(site, 'sinpe'));
// The package's dist folder: its ES modules and the .wasm files they load.
const ortDist = dirname(require.resolve('onnxruntime-web')); // its "require" entry, dist/ort.min.js
symlinkSync(ortDist, join(site, 'ort'));
const ortVersion = JSON.parse(readFileSync(join(ortDist, '../package.json'), 'utf8')).version;

const models = new Map();
function model(dtype, interleaved, headDim, rotaryDim, numHeads) {
  const name = `models/${dtype}-i${Number(interleaved)}-h${headDim}-r${rotaryDim}-n${numHeads}.onnx`;
  if (!models.has(name)) {
    const bytes = makeRotaryModel({ interleaved, rotaryDim: rotaryDim < headDim ? rotaryDim : 0, numHeads, headDim, float16: dtype === 'float16' });
    writeFileSync(join(site, name), bytes);
    models.set(name, bytes.length);
  }
  return name;
}

let browser;
let page;
let server;
const problems = [];
await check('headless Chromium loads sinpe.wasm and onnxruntime-web as ES modules', async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  server = await serve(site);
  page = await browser.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.goto(server.url);
  await page.waitForFunction(() => window.__ready !== undefined, undefined, { timeout: 30000 });
  const ready = await page.evaluate(() => window.__ready);
  if (ready.error) throw new Error(`the page threw: ${ready.error}`);
  if (problems.length) throw new Error(problems.join('\n'));
  return `Chromium ${browser.version()}, onnxruntime-web ${ready.ort.web ?? ortVersion} (wasm backend, 1 thread), sinpe.wasm ${ready.version} (${ready.simd ? 'SIMD' : 'baseline'})`;
});

/** Runs one case in the page; resolves with the page's result or throws what onnxruntime said. */
async function runInPage(c) {
  if (!page) throw new Error('the page did not load');
  return page.evaluate((x) => window.__run(x), c);
}

const worst = { float32: 0, float16: 0, float16End: 0 };
let float16Exact = 0;
let float16Values = 0;
for (const dtype of ['float32', 'float16']) {
  for (const [label, options, headDim, rotaryDim, numHeads] of ORT_CASES) {
    for (const interleaved of [false, true]) {
      const layout = interleaved ? 'interleaved' : 'half';
      await check(`onnxruntime-web RotaryEmbedding ${dtype}, ${label}, interleaved=${Number(interleaved)}`, async () => {
        const x32 = rotaryInput(BATCH * SEQ * numHeads * headDim, rotaryDim * 31 + headDim + (interleaved ? 7 : 0));
        const c = {
          model: model(dtype, interleaved, headDim, rotaryDim, numHeads),
          dtype,
          options,
          rotaryDim,
          cacheLength: CACHE_LENGTH,
          xDims: [BATCH, SEQ, numHeads * headDim],
          positionIds: POSITION_IDS,
          positionDims: [BATCH, SEQ],
        };
        const o = { ...options, rotaryDim, layout };
        const half = rotaryDim / 2;
        let x; // the input's values as the model sees them
        let cos16;
        let sin16;
        if (dtype === 'float32') {
          x = x32;
          c.x = Array.from(x32);
        } else {
          // float16 caches: the float64 reference's cos/sin rounded once here.
          // When the package returns float16 caches itself, they replace these.
          const ref = ropeCache(Array.from({ length: CACHE_LENGTH }, (_, i) => i), rotaryDim, options);
          c.cos16 = Array.from(ref.cos, toFloat16Bits);
          c.sin16 = Array.from(ref.sin, toFloat16Bits);
          cos16 = c.cos16.map(fromFloat16Bits);
          sin16 = c.sin16.map(fromFloat16Bits);
          c.x = Array.from(x32, toFloat16Bits);
          x = Float64Array.from(c.x, fromFloat16Bits);
          // The engine's own float16 conversion agrees with the test's rounding.
          const probes = [...ROUNDING_PROBES, ...ref.cos, ...ref.sin, ...x32];
          const engine = await page.evaluate((v) => window.__toFloat16(v), probes);
          if (engine === null) throw new Error('this Chromium has no Float16Array to check the rounding against');
          probes.forEach((v, i) => {
            if (engine[i] !== toFloat16Bits(v)) throw new Error(`float16 rounding of ${v}: test ${toFloat16Bits(v)}, Float16Array ${engine[i]}`);
          });
        }
        const got = await runInPage(c);
        if (got.type !== dtype) throw new Error(`output type ${got.type}`);
        if (got.values.length !== x.length) throw new Error(`output has ${got.values.length} values, input ${x.length}`);
        const out = dtype === 'float32' ? got.values : got.values.map(fromFloat16Bits);
        const exact = ropeRotate(x, POSITION_IDS, headDim, o); // float64, unrounded cos/sin
        const magnitude = pairMagnitudes(x, headDim, rotaryDim, layout);
        const att = ropeCache([0], rotaryDim, options).attentionFactor;
        const scale = Math.max(1, att);
        if (dtype === 'float32' && Math.abs(got.attentionFactor - att) > 1e-12) throw new Error(`attentionFactor ${got.attentionFactor}, reference ${att}`);

        // float16: the float64 rotation with the float16 cos/sin the model received.
        let exact16;
        if (dtype === 'float16') {
          exact16 = Float64Array.from(x);
          for (let t = 0; t < POSITION_IDS.length; t++)
            for (let h = 0; h < numHeads; h++) {
              const row = (t * numHeads + h) * headDim;
              for (let j = 0; j < half; j++) {
                const [a, b] = pairIndices(layout, rotaryDim, j);
                const k = POSITION_IDS[t] * half + j;
                exact16[row + a] = x[row + a] * cos16[k] - x[row + b] * sin16[k];
                exact16[row + b] = x[row + b] * cos16[k] + x[row + a] * sin16[k];
              }
            }
        }
        for (let i = 0; i < x.length; i++) {
          if (i % headDim >= rotaryDim) {
            if (!Object.is(out[i], x[i])) throw new Error(`pass-through ${i}: onnxruntime-web gave ${out[i]}, input ${x[i]}`);
            continue;
          }
          if (dtype === 'float32') {
            const e = Math.abs(out[i] - exact[i]);
            const unit = scale * magnitude[i];
            worst.float32 = Math.max(worst.float32, e / unit);
            if (!(e <= ROTATION_TOLERANCE * unit)) throw new Error(`value ${i}: onnxruntime-web ${out[i]}, float64 rotation ${exact[i]} (|Δ| ${e})`);
          } else {
            // onnxruntime's kernel converts to float32, rotates and rounds once to float16:
            // within half a float16 spacing of the float64 result, plus float32's error.
            const e = Math.abs(out[i] - exact16[i]);
            const bound = 2 ** -11 * Math.abs(exact16[i]) + 2 ** -25 + 2 ** -22 * scale * magnitude[i];
            worst.float16 = Math.max(worst.float16, e / bound);
            worst.float16End = Math.max(worst.float16End, Math.abs(out[i] - exact[i]) / (scale * magnitude[i]));
            float16Values++;
            if (got.values[i] === toFloat16Bits(exact16[i])) float16Exact++;
            if (!(e <= bound)) throw new Error(`value ${i}: onnxruntime-web ${out[i]}, float64 rotation with the float16 caches ${exact16[i]} (|Δ| ${e}, bound ${bound})`);
          }
        }
        if (problems.length) throw new Error(problems.join('\n'));
        return `${x.length} values, output ${got.arrayType}`;
      });
    }
  }
}
await check('onnxruntime-web loaded its .wasm from the installed package, served here', () => {
  if (!server) throw new Error('no server');
  const missing = server.requests.filter((q) => q.status !== 200).map((q) => `${q.status}: ${q.path}`);
  if (missing.length) throw new Error(missing.join('\n'));
  const ortWasm = server.requests.filter((q) => /^\/ort\/.*\.wasm$/.test(q.path)).map((q) => q.path.slice(1));
  if (ortWasm.length !== 1) throw new Error(`onnxruntime-web fetched ${ortWasm.length} .wasm files: ${ortWasm.join(', ')}`);
  return `${ortWasm[0]} (the page made ${server.requests.length} requests, all to 127.0.0.1, none failed)`;
});
await browser?.close();
await server?.close();

const failed = results.filter((r) => !r.ok).map((r) => r.name);
const ortRuns = results.filter((r) => r.name.startsWith('onnxruntime-web RotaryEmbedding'));
const line =
  `clients: ${results.filter((r) => r.ok).length}/${results.length} passed; runtimes ${runtimeLines.join(', ')}; ` +
  `onnxruntime-web ${ortVersion} RotaryEmbedding ${ortRuns.filter((r) => r.ok).length}/${ortRuns.length} ` +
  `(float32 fed by ropeCacheRows: largest |ORT − float64| ${worst.float32.toExponential(2)} × max(1, att) × (|x_a| + |x_b|); ` +
  `float16: ${float16Exact}/${float16Values} outputs the correctly rounded float16 of the float64 rotation, largest ${worst.float16.toFixed(2)} of the half-ulp bound, ` +
  `end to end ${worst.float16End.toExponential(2)} × max(1, att) × (|x_a| + |x_b|))` +
  `${failed.length ? `; FAILED: ${failed.join('; ')}` : ''}`;
console.log(line);
if (SUMMARY) appendFileSync(SUMMARY, `${line}\n`);
process.exitCode = failed.length === 0 ? 0 : 1;
