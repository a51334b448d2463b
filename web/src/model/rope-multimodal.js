// The multimodal and half-precision parts of the RoPE lesson that are the
// lesson's own, not the package's: the token sequence a learner builds (text,
// one image, text), the sizes and bases the sections use, the float16 and
// bfloat16 formats (decoding the package's bit patterns, the spacing of
// their numbers), and the "usual path" of a half-precision cache that the
// lesson criticises: a float32 angle, a float32 cos, then a cast. Position
// ids, caches and the correctly rounded values come from the package
// (pe.getRopeIndex, pe.ropeCache, pe.ropeCacheGrid, pe.ropeCacheRows).
//
// Pure module: no DOM, no package import, so Node tests can load it.
import { bf16, f32 } from './rope.js';

// Qwen2-VL / Qwen2.5-VL / Qwen3-VL: head size 128 (64 pairs), rope_theta 10⁶,
// and the special token ids of their tokenizer (config.json image_token_id,
// video_token_id, vision_start_token_id; <|vision_end|> follows the image).
export const MROPE_ROTARY_DIM = 128;
export const MROPE_BASE = 1e6;
export const QWEN_TOKENS = Object.freeze({ image: 151655, video: 151656, visionStart: 151652, visionEnd: 151653 });
// any ordinary text token: get_rope_index only looks for the special ones
const TEXT_TOKEN = 785;

// mrope_section choices: Qwen2-VL / Qwen2.5-VL [16, 24, 24], Qwen3-VL [24, 20, 20],
// and two more splits of the 64 pairs to compare
export const MROPE_SECTIONS = Object.freeze(['16,24,24', '24,20,20', '32,16,16', '8,28,28']);
export const MROPE_AXES = Object.freeze(['sectioned', 'interleaved']);
export const AXIS_NAMES = Object.freeze(['t', 'h', 'w']);

/** mrope_section as numbers from its control value ('16,24,24'). */
export const sectionOf = (text) => String(text).split(',').map(Number);

/**
 * The lesson's sequence: `before` text tokens, <|vision_start|>, the image's
 * t·⌊h/m⌋·⌊w/m⌋ tokens (the vision tower merges m × m patches into one),
 * <|vision_end|>, `after` text tokens. Returns { inputIds, kinds } with kinds
 * 'text' | 'visionStart' | 'image' | 'visionEnd' per token.
 */
export function buildSequence({ before, after, t, h, w, merge }) {
  const n = t * Math.floor(h / merge) * Math.floor(w / merge);
  const kinds = [...Array(before).fill('text'), 'visionStart', ...Array(n).fill('image'), 'visionEnd', ...Array(after).fill('text')];
  const ids = { text: TEXT_TOKEN, visionStart: QWEN_TOKENS.visionStart, image: QWEN_TOKENS.image, visionEnd: QWEN_TOKENS.visionEnd };
  return { inputIds: kinds.map((k) => ids[k]), kinds };
}

// Pixtral's vision encoder: head size 64 would give 32 pairs; the lesson's
// grid uses 16 rotated dimensions (8 pairs, 4 per axis) so each patch's
// pairs fit on one row of dials, and Pixtral's rope_theta 10,000.
export const GRID_ROTARY_DIM = 16;
export const GRID_BASE = 10000;

// ---- float16 and bfloat16 ----------------------------------------------------

/**
 * The two half formats: significand bits after the point (m), smallest
 * normal exponent (emin).
 */
export const HALF_FORMATS = Object.freeze({
  float16: { m: 10, emin: -14 },
  bfloat16: { m: 7, emin: -126 },
});
export const HALF_DTYPES = Object.freeze(Object.keys(HALF_FORMATS));

/** The value of a float16 bit pattern. */
export function decodeFloat16(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (e === 0x1f) return frac ? NaN : sign * Infinity;
  return e === 0 ? sign * frac * 2 ** -24 : sign * (1024 + frac) * 2 ** (e - 25);
}

const scratch = new DataView(new ArrayBuffer(4));
/** The value of a bfloat16 bit pattern (the upper half of a float32). */
export function decodeBfloat16(bits) {
  scratch.setUint32(0, (bits & 0xffff) << 16);
  return scratch.getFloat32(0);
}

export const decodeHalf = (dtype, bits) => (dtype === 'float16' ? decodeFloat16(bits) : decodeBfloat16(bits));

/** x rounded to float16, to nearest, ties to even (the cast of the usual path). */
export function roundFloat16(x) {
  const a = Math.abs(x);
  if (!(a < 65520)) return Number.isNaN(x) ? NaN : Math.sign(x) * Infinity;
  const e = Math.max(a === 0 ? -14 : Math.floor(Math.log2(a)), -14);
  // log2 may be off by one near a power of two: the scaled value must lie in [1024, 2048)
  let unit = 2 ** (e - 10);
  if (a / unit >= 2048) unit *= 2;
  else if (a >= 2 ** -14 && a / unit < 1024) unit /= 2;
  const q = a / unit;
  let k = Math.round(q);
  if (k - q === 0.5 && k % 2 === 1) k -= 1; // Math.round takes ties up; ties go to even
  return Math.sign(x) * k * unit;
}

const ROUND = { float16: roundFloat16, bfloat16: bf16 };

/** The spacing of the format's numbers at |x| (one ulp), x not rounded first. */
export function ulpOf(dtype, x) {
  const { m, emin } = HALF_FORMATS[dtype];
  const a = Math.abs(x);
  let e = a === 0 ? emin : Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  else if (2 ** (e + 1) <= a) e += 1;
  return 2 ** (Math.max(e, emin) - m);
}

/**
 * The usual path to a half-precision cache (transformers' rotary embedding
 * with a float16/bfloat16 model): the angle float32(p) × float32 ω_j rounded
 * to float32, its cos and sin in float32, then cast to the model's dtype.
 * `invF32` holds the float32 frequencies. Returns [cos, sin].
 */
export function usualPath(dtype, p, invF32) {
  const angle = f32(f32(p) * invF32);
  const round = ROUND[dtype];
  return [round(f32(Math.cos(angle))), round(f32(Math.sin(angle)))];
}

/**
 * The error of both paths over positions 0 … L in ulps of the exact value,
 * the largest per position (over all pairs, cos and sin) and the worst case.
 * `exactAngle(p, j)` is the float64 angle, `cache` the package's correctly
 * rounded { cos, sin } bit patterns for rows 0 … L.
 */
export function halfErrors(dtype, L, inv, invF32, cache) {
  const half = inv.length;
  const usual = new Float64Array(L + 1);
  const rounded = new Float64Array(L + 1);
  const none = () => ({ ulps: -1, p: 0, j: 0, fn: 'cos', value: 0, exact: 0 });
  const worst = { usual: none(), rounded: none() };
  for (let p = 0; p <= L; p++) {
    for (let j = 0; j < half; j++) {
      const a = p * inv[j];
      const exact = [Math.cos(a), Math.sin(a)];
      const paths = { usual: usualPath(dtype, p, invF32[j]), rounded: [decodeHalf(dtype, cache.cos[p * half + j]), decodeHalf(dtype, cache.sin[p * half + j])] };
      for (let k = 0; k < 2; k++) {
        for (const path of ['usual', 'rounded']) {
          const value = paths[path][k];
          const ulps = Math.abs(value - exact[k]) / ulpOf(dtype, exact[k]);
          const row = path === 'usual' ? usual : rounded;
          if (ulps > row[p]) row[p] = ulps;
          if (ulps > worst[path].ulps) worst[path] = { ulps, p, j, fn: k === 0 ? 'cos' : 'sin', value, exact: exact[k] };
        }
      }
    }
  }
  return { usual, rounded, worst };
}

/**
 * A per-position series cut into at most `buckets` runs of positions, each
 * drawn as its largest value (at its position): the worst errors stay on the chart.
 */
export function bucketMax(values, buckets = 600) {
  const size = Math.max(1, Math.ceil(values.length / buckets));
  const points = [];
  for (let start = 0; start < values.length; start += size) {
    let at = start;
    for (let p = start; p < Math.min(values.length, start + size); p++) if (values[p] > values[at]) at = p;
    points.push([at, values[at]]);
  }
  return points;
}
