// Rounding float64 values to a cache's element type, and distances in units
// in the last place of that type.
import { FLOAT, FLOAT16, BFLOAT16, DOUBLE } from './read.js';

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float64 → IEEE binary16 bits, rounded once to nearest-even. */
export function toFloat16Bits(v) {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -25) return a > 2 ** -25 ? sign | 1 : sign; // half the smallest subnormal rounds to 0 (even)
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  if (2 ** (e + 1) <= a) e += 1;
  const q = e < -14 ? 2 ** -24 : 2 ** (e - 10); // the spacing at a
  const n = a / q; // exact: a scaled by a power of two
  let m = Math.floor(n);
  const rest = n - m;
  if (rest > 0.5 || (rest === 0.5 && m % 2 === 1)) m += 1;
  const r = m * q;
  if (r >= 65520) return sign | 0x7c00;
  if (r < 2 ** -14) return sign | Math.round(r / 2 ** -24);
  let re = Math.floor(Math.log2(r));
  if (2 ** re > r) re -= 1;
  return sign | ((re + 15) << 10) | (r / 2 ** re * 1024 - 1024);
}

/** float64 → bfloat16 bits, rounded once to nearest-even. */
export function toBfloat16Bits(v) {
  if (Number.isNaN(v)) return 0x7fc0;
  f64[0] = v;
  // Round the double's 52-bit mantissa to 7 bits directly (not through float32).
  const bits = u64[0];
  const sign = Number(bits >> 63n) << 15;
  const a = Math.abs(v);
  if (a === 0) return sign;
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  if (2 ** (e + 1) <= a) e += 1;
  const q = e < -126 ? 2 ** -133 : 2 ** (e - 7);
  const n = a / q;
  let m = Math.floor(n);
  const rest = n - m;
  if (rest > 0.5 || (rest === 0.5 && m % 2 === 1)) m += 1;
  const r = m * q;
  if (r > 3.3895313892515355e38) return sign | 0x7f80;
  f32[0] = r; // exact: r has at most 8 significant bits
  return sign | (u32[0] >>> 16);
}

/** float64 values → the bit patterns (Uint32Array for float32, Uint16Array for the half types) of dataType. */
export function roundTo(values, dataType) {
  if (dataType === FLOAT) return new Uint32Array(Float32Array.from(values).buffer);
  if (dataType === DOUBLE) return Float64Array.from(values);
  const f = dataType === FLOAT16 ? toFloat16Bits : toBfloat16Bits;
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = f(values[i]);
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
