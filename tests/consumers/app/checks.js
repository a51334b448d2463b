// The package checks every bundled app runs in the page: both flavours load
// (each from its own .wasm, fetched from the app's server) and compute rows for
// every preset, prepared rows (zero-copy chunks included), RoPE caches and a
// RoPE rotation. The raw values go back to Node, which compares them with the
// float64 references; nothing here decides whether they are right.
import sinpe, { presets } from 'sinpe.wasm';

// Integer, fractional, past the 4,096-row chunk of the binding, and the
// largest position the contract covers (2^24 − 1).
export const POSITIONS = [0, 1, 2.5, 513, 4097, 16777215];
export const D_MODEL = 32;
export const ROPE_CASES = [
  { rotaryDim: 64, options: {} },
  { rotaryDim: 64, options: { ropeType: 'yarn', factor: 4, originalMaxPositions: 4096 } },
  { rotaryDim: 128, options: { ropeType: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 } },
];
// applyRope on [token][head][dim]: 2 heads of 64, the first 32 dimensions rotated in pairs (2j, 2j+1).
export const ROTATION = { headDim: 64, heads: 2, options: { rotaryDim: 32, layout: 'interleaved' } };
// prepare(): rows CHUNKED.start … start+count−1 in zero-copy chunks.
export const CHUNKED = { start: 1000, count: 10000 };

function preparedChecks(pe) {
  const enc = pe.prepare(D_MODEL);
  const seen = [];
  const views = [];
  enc.chunks(CHUNKED.start, CHUNKED.count, (view, firstRow) => {
    views.push(view);
    const rows = view.length / D_MODEL;
    // the chunk's first and last rows: enough to place it, without shipping every value
    seen.push({ firstRow, rows, first: Array.from(view.subarray(0, D_MODEL)), last: Array.from(view.subarray((rows - 1) * D_MODEL)) });
  });
  return {
    chunks: seen,
    lengthsAfter: views.map((v) => v.length), // each view is unusable once its callback returned
    rows: Array.from(enc.rows(CHUNKED.start, 3)),
  };
}

function ropeChecks(pe) {
  const caches = ROPE_CASES.map(({ rotaryDim, options }) => {
    const { cos, sin, attentionFactor } = pe.ropeCache(POSITIONS, rotaryDim, options);
    return { cos: Array.from(cos), sin: Array.from(sin), attentionFactor };
  });
  const { headDim, heads, options } = ROTATION;
  const x = new Float32Array(POSITIONS.length * heads * headDim);
  for (let i = 0; i < x.length; i++) x[i] = ((i * 7919) % 2000) / 1000 - 1;
  const input = Array.from(x);
  pe.applyRope(x, POSITIONS, headDim, options);
  return { caches, rotation: { input, output: Array.from(x) } };
}

export async function packageChecks() {
  const result = { presets: [...presets], positions: POSITIONS, dModel: D_MODEL, chunked: CHUNKED, ropeCases: ROPE_CASES, rotation: ROTATION, flavours: {} };
  for (const simd of [true, false]) {
    const pe = await sinpe({ simd });
    result.flavours[simd ? 'simd' : 'baseline'] = {
      simd: pe.simd,
      version: pe.version,
      encode: presets.map((preset) => Array.from(pe.encode(POSITIONS, D_MODEL, { preset }))),
      // rows 1000 … 1002 at d = 16: what the Vite app's worker computes too
      rows: Array.from(pe.rows(1000, 3, 16)),
      prepared: preparedChecks(pe),
      rope: ropeChecks(pe),
    };
  }
  return result;
}
