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
//   Then whole models in onnxruntime-genai's layout (make-genai-model.mjs),
//   float32 and float16, extended here past their baked length by the
//   installed package's sinpe.wasm/onnx and run in the page at positions past
//   the old length against the same float64 rotation; and the original
//   models at those positions, which onnxruntime-web refuses (asserted).
// A missing runtime or browser is a failure, not a skip (scripts/setup.sh
// installs them). Prints one line per check and appends the counts to
// $SINPE_SUMMARY (or the file after --summary).
// Usage: node tests/consumers/clients.mjs [--project DIR] [--summary FILE]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../browser/helpers.mjs';
import { makeRotaryModel } from '../js/fixtures/make-rotary-model.mjs';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from '../js/fixtures/make-genai-model.mjs';
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
for (const f of ['js/reference.mjs', 'js/errors-helper.mjs', 'js/rope-reference.mjs', 'consumers/runtimes.mjs']) cpSync(join(root, 'tests', f), join(project, f.split('/').pop()));

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

// --- Models extended past their baked length by the installed package's
// sinpe.wasm/onnx (in Node), then run as they are in onnxruntime-web: the
// onnxruntime-genai layout of tests/js/fixtures/make-genai-model.mjs, caches
// baked by the test's references at OLD_ROWS rows and extended to NEW_ROWS;
// positions past OLD_ROWS against the float64 rotation. Then the original
// model at the same positions, to show what onnxruntime-web does with it.
const OLD_ROWS = 64;
const NEW_ROWS = 512;
const EXT_SEQ = 64;
// Two sequences: just past the old length, and up to the new length's last row.
const EXT_POSITIONS = Array.from({ length: 2 * EXT_SEQ }, (_, i) => (i < EXT_SEQ ? OLD_ROWS + i : NEW_ROWS - 2 * EXT_SEQ + i));
const EXT_HIDDEN = 64; // 4 heads of ROTARY_DIM (16), all rotated
const EXTEND_CASES = {
  // float32 (Qwen2.5's YaRN, attention factor 1.1386): the contract, 5e-7 × max(1, att) × (|x_a| + |x_b|).
  float32: { config: CONFIGS.qwen25, options: OPTIONS.qwen25.default, unit: (att) => ROTATION_TOLERANCE * Math.max(1, att), bound: '5e-7 × max(1, att) × (|x_a| + |x_b|)' },
  // float16 in and out (Llama 3.1): the cache's and the output's rounding, 2^-11 each, relative,
  // bound it by 2^-9 × (|x_a| + |x_b|), as tests/js/onnx-extend.test.mjs does in onnxruntime-node.
  float16: { config: CONFIGS.llama31, options: OPTIONS.llama31.default, unit: () => 2 ** -9, bound: '2^-9 × (|x_a| + |x_b|)' },
};
const span = (p) => `${p[0]}…${p[EXT_SEQ - 1]}, ${p[EXT_SEQ]}…${p[p.length - 1]}`;
let packageOnnx;
/** extendModel and an encoder from the package installed in the project (its tarball), not from js/. */
async function installedOnnx() {
  if (!packageOnnx) {
    const fromProject = createRequire(join(project, 'package.json'));
    const { extendModel, readModel } = await import(pathToFileURL(fromProject.resolve('sinpe.wasm/onnx')).href);
    const { default: load } = await import(pathToFileURL(fromProject.resolve('sinpe.wasm')).href);
    packageOnnx = { extendModel, readModel, encoder: await load() };
  }
  return packageOnnx;
}
/** The input as the model sees it (float64 values) and as it is fed (float32 values or float16 bits). */
function extendInput(dtype) {
  const x32 = rotaryInput(EXT_POSITIONS.length * EXT_HIDDEN, dtype === 'float32' ? 101 : 103);
  if (dtype === 'float32') return { x: Float64Array.from(x32), fed: Array.from(x32) };
  const fed = Array.from(x32, toFloat16Bits);
  return { x: Float64Array.from(fed, fromFloat16Bits), fed };
}
async function runModel(name, dtype, fed) {
  if (!page) throw new Error('the page did not load');
  return page.evaluate((c) => window.__runModel(c), {
    model: name,
    dtype,
    x: fed,
    xDims: [2, EXT_SEQ, EXT_HIDDEN],
    positionIds: EXT_POSITIONS,
    positionDims: [2, EXT_SEQ],
    output: 'rotated',
  });
}
const extendWorst = {};
const originalPast = {};
for (const dtype of ['float32', 'float16']) {
  const { config, options, unit, bound } = EXTEND_CASES[dtype];
  const original = `models/genai-${dtype}-${OLD_ROWS}.onnx`;
  const extended = `models/genai-${dtype}-${OLD_ROWS}-to-${NEW_ROWS}.onnx`;
  await check(`onnxruntime-web runs a ${dtype} model extended by sinpe.wasm/onnx from ${OLD_ROWS} to ${NEW_ROWS} rows, positions ${span(EXT_POSITIONS)}, within ${bound} of the float64 rotation`, async () => {
    const baked = bake('exact', OLD_ROWS, ROTARY_DIM, options, dtype);
    const built = makeGenaiModel({ caches: { default: { ...baked, rows: OLD_ROWS } }, dtype });
    writeFileSync(join(site, original), built.model);
    const { extendModel, readModel, encoder } = await installedOnnx();
    const out = await extendModel(built.model, { config, rows: NEW_ROWS, encoder });
    const replaced = out.replaced.map((r) => `${r.cos}/${r.sin}: ${r.rowsBefore} → ${r.rows}, ${r.kept} kept`).join('; ');
    if (replaced !== `cos_cache/sin_cache: ${OLD_ROWS} → ${NEW_ROWS}, ${OLD_ROWS} kept`) throw new Error(`extendModel replaced ${replaced || 'nothing'}`);
    // The old rows, byte for byte the original's.
    const m = await readModel(out.bytes);
    for (const which of ['cos', 'sin']) {
      const bytes = new Uint8Array(await m.tensorBytes(m.proto.graph.initializer.find((t) => t.name === `${which}_cache`)));
      const old = new Uint8Array(baked[which].buffer, baked[which].byteOffset, baked[which].byteLength);
      if (old.some((b, i) => b !== bytes[i])) throw new Error(`${which}_cache: the first ${OLD_ROWS} rows changed`);
    }
    writeFileSync(join(site, extended), out.bytes);
    const { x, fed } = extendInput(dtype);
    const got = await runModel(extended, dtype, fed);
    if (got.error) throw new Error(`onnxruntime-web refused the extended model: ${got.error}`);
    if (got.type !== dtype || got.values.length !== x.length) throw new Error(`output ${got.type} [${got.dims}], ${got.values.length} values; input ${x.length}`);
    const values = dtype === 'float32' ? got.values : got.values.map(fromFloat16Bits);
    const want = ropeRotate(x, EXT_POSITIONS, ROTARY_DIM, options);
    const magnitude = pairMagnitudes(x, ROTARY_DIM, ROTARY_DIM, 'half');
    const u = unit(ropeCache([0], ROTARY_DIM, options).attentionFactor);
    let worst = 0;
    for (let i = 0; i < x.length; i++) {
      const e = Math.abs(values[i] - want[i]);
      const b = u * magnitude[i];
      if (!(e <= b)) throw new Error(`value ${i} (position ${EXT_POSITIONS[Math.floor(i / EXT_HIDDEN)]}): onnxruntime-web ${values[i]}, float64 rotation ${want[i]} (|Δ| ${e}, bound ${b})`);
      worst = Math.max(worst, e / b);
    }
    if (problems.length) throw new Error(problems.join('\n'));
    extendWorst[dtype] = worst;
    return `${x.length} values (${out.bytes.length} bytes; the old ${OLD_ROWS} rows byte-identical), largest |ORT − float64| ${worst.toFixed(3)} of the bound`;
  });
  // onnxruntime-node refuses such a run (tests/js/onnx-extend.test.mjs); so does the
  // web build's RotaryEmbedding kernel, naming the first position past the cache.
  const refusal = new RegExp(`position_ids value ${EXT_POSITIONS[0]} at index 0 is out of range \\[0, ${OLD_ROWS}\\)`);
  await check(`onnxruntime-web refuses the original ${dtype} model (${OLD_ROWS} rows) at the same positions`, async () => {
    const before = problems.length;
    const got = await runModel(original, dtype, extendInput(dtype).fed);
    if (!got.error) throw new Error(`onnxruntime-web ran the original model past its ${OLD_ROWS} rows and gave ${got.values.length} values, the first ${got.values.slice(0, 4).join(', ')}`);
    if (!refusal.test(got.error)) throw new Error(`onnxruntime-web refused it, but not for the position: ${got.error}`);
    // Its logger also writes the status to the console, once: expected here, taken off the page's problems.
    await page.evaluate(() => 0); // the console events of the run have arrived
    const logged = problems.splice(before).filter((m) => !(m.startsWith('console: ') && refusal.test(m)));
    if (logged.length) throw new Error(logged.join('\n'));
    originalPast[dtype] = got.error.match(refusal)[0];
    return `the run rejects: ${got.error}`;
  });
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
  `end to end ${worst.float16End.toExponential(2)} × max(1, att) × (|x_a| + |x_b|)); ` +
  `models extended by sinpe.wasm/onnx ${OLD_ROWS} → ${NEW_ROWS} rows at positions ${span(EXT_POSITIONS)}: ` +
  ['float32', 'float16'].map((d) => `${d} ${d in extendWorst ? extendWorst[d].toFixed(3) : 'not run'} of ${EXTEND_CASES[d].bound}`).join(', ') +
  `; the original models there: ${['float32', 'float16'].map((d) => `${d} ${originalPast[d] ? `refused ("${originalPast[d]}")` : 'not refused'}`).join(', ')}` +
  `${failed.length ? `; FAILED: ${failed.join('; ')}` : ''}`;
console.log(line);
if (SUMMARY) appendFileSync(SUMMARY, `${line}\n`);
process.exitCode = failed.length === 0 ? 0 : 1;
