// What a bundled consumer app computed in a browser (tests/consumers/app/
// checks.js and, for the Vite app, main.js), checked against the float64
// references: every engine's runner (run.mjs for Chromium and Firefox ESR,
// tests/browser/webkit.mjs for WebKitGTK) uses these same checks.
import { readFileSync } from 'node:fs';
import { referenceRow, TOLERANCE } from '../js/reference.mjs';
import { ropeCache, ropeRotate, pairMagnitudes } from '../js/rope-reference.mjs';

/**
 * Checks what one app computed in one engine against the reference; returns a
 * detail line. version: the installed package's; wasmBytes: { simd, baseline },
 * the package's two .wasm files.
 */
export function verify(app, result, requests, problems, { version, wasmBytes }) {
  if (result.error) throw new Error(`the page threw: ${result.error}`);
  if (problems.length) throw new Error(problems.join('\n'));
  const { simd, baseline } = result.flavours;
  if (simd.simd !== true || baseline.simd !== false) throw new Error(`flavours: simd ${simd.simd}, baseline ${baseline.simd}`);
  if (result.presets.length === 0) throw new Error('no presets');
  let worst = 0;
  let values = 0;
  for (const [flavour, got] of Object.entries(result.flavours)) {
    if (got.version !== version) throw new Error(`${flavour}: version ${got.version}, installed ${version}`);
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
export function verifyVite(result) {
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
