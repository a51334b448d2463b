// Rounding float64 values to a cache's element type, and distances in units
// in the last place of that type.
import { FLOAT, FLOAT16, BFLOAT16, DOUBLE, DTYPE_NAMES } from './read.js';
import { halfCodec } from '../half.js';

/** float64 values → the bit patterns (Uint32Array for float32, Uint16Array for the half types) of dataType. */
export function roundTo(values, dataType) {
  if (dataType === FLOAT) return new Uint32Array(Float32Array.from(values).buffer);
  if (dataType === DOUBLE) return Float64Array.from(values);
  const { encode } = halfCodec(DTYPE_NAMES[dataType]);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = encode(values[i]);
  return out;
}

/** Bits of a package result (Float32Array or Uint16Array bit patterns) as comparable integers. */
export function bitsOf(array) {
  if (array instanceof Float32Array) return new Uint32Array(array.buffer, array.byteOffset, array.length);
  return array;
}

// The bit pattern as an integer that orders like the value (sign-magnitude → two's complement).
function ordered(b, wide) {
  if (wide) return b & 0x80000000 ? -(b & 0x7fffffff) : b;
  return b & 0x8000 ? -(b & 0x7fff) : b;
}

/** Ulps between two bit patterns of the same type (wide: 32-bit). */
export function ulps(a, b, wide) {
  return Math.abs(ordered(a, wide) - ordered(b, wide));
}

export const isHalf = (dataType) => dataType === FLOAT16 || dataType === BFLOAT16;
export { FLOAT, FLOAT16, BFLOAT16, DOUBLE };
