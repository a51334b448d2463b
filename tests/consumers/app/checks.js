// The package checks every bundled app runs in the page: both flavours load
// (each from its own .wasm, fetched from the app's server) and compute rows for
// every preset. The raw values go back to Node, which compares them with the
// float64 reference; nothing here decides whether they are right.
import sinpe, { presets } from 'sinpe.wasm';

// Integer, fractional, past the 4,096-row chunk of the binding, and the
// largest position the contract covers (2^24 − 1).
export const POSITIONS = [0, 1, 2.5, 513, 4097, 16777215];
export const D_MODEL = 32;

export async function packageChecks() {
  const result = { presets: [...presets], positions: POSITIONS, dModel: D_MODEL, flavours: {} };
  for (const simd of [true, false]) {
    const pe = await sinpe({ simd });
    result.flavours[simd ? 'simd' : 'baseline'] = {
      simd: pe.simd,
      version: pe.version,
      encode: presets.map((preset) => Array.from(pe.encode(POSITIONS, D_MODEL, { preset }))),
      // rows 1000 … 1002 at d = 16: what the Vite app's worker computes too
      rows: Array.from(pe.rows(1000, 3, 16)),
    };
  }
  return result;
}
