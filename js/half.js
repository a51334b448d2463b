// The package's one codec of the 16-bit float types, float16 (IEEE binary16)
// and bfloat16: bit pattern → value, value → its rounding (to nearest, ties to
// even, once from float64) and its bit pattern, and the spacing of the
// format's numbers. sinpe.wasm/onnx and the lesson site use these; the core
// (cpp/src/half.hpp) rounds its own results.
//
// A format is its fraction bits m and exponent bits k (IEEE 754 §3.3):
// exponent bias 2^(k−1) − 1, smallest normal exponent emin = 1 − bias,
// largest finite (2 − 2^−m) 2^bias.
import vocabulary from '../dist/sinpe-vocabulary.js';

const format = (m, k) => {
  const bias = 2 ** (k - 1) - 1;
  const max = (2 - 2 ** -m) * 2 ** bias;
  // The halfway point between the largest finite number and the next power
  // of two: from it up, a value rounds to infinity (the tie goes to the even
  // neighbour, which is infinity's).
  return Object.freeze({ m, k, bias, emin: 1 - bias, max, overflow: max + 2 ** (bias - m - 1) });
};

/** The 16-bit float types, by the vocabulary's dtype name. */
export const HALF_FORMATS = Object.freeze({ float16: format(10, 5), bfloat16: format(7, 8) });
export const HALF_DTYPES = Object.freeze(vocabulary.dtypes.filter((name) => name !== 'float32'));

for (const name of HALF_DTYPES) {
  if (!Object.hasOwn(HALF_FORMATS, name)) throw new Error(`sinpe: the vocabulary's dtype '${name}' has no 16-bit format here`);
}
if (HALF_FORMATS.float16.max !== vocabulary.limits.maxFloat16) {
  throw new Error('sinpe: the float16 format disagrees with the vocabulary limit maxFloat16');
}

// The binary exponent of a double from its bits (−1023 for zero and
// subnormals), and powers of two from a table: the rounding below is called
// per value over whole caches, and Math.log2 / ** were most of its time.
const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
function exponentOf(a) {
  scratch[0] = a;
  return ((words[HIGH] >>> 20) & 0x7ff) - 1023;
}
const POW2_MIN = -1100;
const POW2 = Float64Array.from({ length: 2200 }, (_, i) => 2 ** (i + POW2_MIN));
const pow2 = (e) => POW2[e - POW2_MIN];

// The codec of one format, its functions bound to its constants.
function codecOf(f) {
  const infinity = (2 ** f.k - 1) * 2 ** f.m;
  const smallestNormal = pow2(f.emin);
  const round = (x) => {
    const a = Math.abs(x);
    if (!(a < f.overflow)) return Number.isNaN(x) ? NaN : x > 0 ? Infinity : -Infinity;
    const r = roundMagnitude(f, a);
    return x < 0 || Object.is(x, -0) ? -r : r;
  };
  const encode = (x) => {
    const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
    if (Number.isNaN(x)) return infinity | 2 ** (f.m - 1);
    const a = Math.abs(x);
    if (!(a < f.overflow)) return sign | infinity;
    const r = roundMagnitude(f, a);
    if (r < smallestNormal) return sign | (r / pow2(f.emin - f.m)); // zero or subnormal
    const e = exponentOf(r);
    return sign | ((e + f.bias) * 2 ** f.m + (r / pow2(e - f.m) - 2 ** f.m));
  };
  const decode = (bits) => {
    const sign = bits & 0x8000 ? -1 : 1;
    const e = (bits >>> f.m) & (2 ** f.k - 1);
    const frac = bits & (2 ** f.m - 1);
    if (e === 2 ** f.k - 1) return frac ? NaN : sign * Infinity;
    if (e === 0) return sign * frac * pow2(f.emin - f.m);
    return sign * (2 ** f.m + frac) * pow2(e - f.bias - f.m);
  };
  const ulp = (x) => {
    if (!Number.isFinite(x)) return Number.isNaN(x) ? NaN : Infinity;
    return pow2(Math.max(exponentOf(Math.abs(x)), f.emin) - f.m);
  };
  return Object.freeze({ ...f, round, encode, decode, ulp });
}

// |x| rounded to the format (finite, not NaN, below the overflow point).
function roundMagnitude(f, a) {
  if (a === 0) return 0;
  const unit = pow2(Math.max(exponentOf(a), f.emin) - f.m); // the spacing at a
  const q = a / unit; // exact: a scaled by a power of two, below 2^(m+1)
  let n = Math.floor(q + 0.5); // exact: q + 0.5 < 2^53
  if (n - q === 0.5 && n % 2 === 1) n -= 1; // a tie goes to the even neighbour
  return n * unit;
}

const CODECS = Object.fromEntries(HALF_DTYPES.map((d) => [d, codecOf(HALF_FORMATS[d])]));

/**
 * The codec of a 16-bit dtype: its format's constants (m, k, bias, emin,
 * max) and four functions:
 * - round(x): x rounded once to the format, to nearest, ties to even, as a
 *   number (±Infinity from the halfway point past the largest finite value up);
 * - encode(x): the same rounding as its bit pattern (a quiet NaN for NaN);
 * - decode(bits): the value of a bit pattern;
 * - ulp(x): the spacing of the format's numbers at |x|, x not rounded first.
 */
export function halfCodec(dtype) {
  if (typeof dtype !== 'string' || !Object.hasOwn(CODECS, dtype)) {
    throw new RangeError(`sinpe: dtype must be one of ${HALF_DTYPES.join(', ')}; got ${typeof dtype === 'string' ? `'${dtype}'` : String(dtype)}`);
  }
  return CODECS[dtype];
}
