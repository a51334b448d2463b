// The multimodal and half-precision parts of the RoPE lesson that are the
// lesson's own, not the package's: the token sequence a learner builds (text,
// one image, text), the sizes and bases the sections use, the float16 and
// bfloat16 formats (decoding the package's bit patterns, the spacing of
// their numbers), and the "usual path" of a half-precision cache that the
// lesson criticises: a float32 angle, a float32 cos, then a cast. Position
// ids, caches and the correctly rounded values come from the package
// (pe.getRopeIndex, pe.ropeCache, pe.ropeCacheGrid, pe.ropeCacheRows).
//
// Pure module: no DOM (the package's codec is plain JS), so Node tests can load it.
import { halfCodec, halfDtypes as HALF_DTYPE_NAMES } from 'sinpe.wasm';
import { f32 } from './rope.js';

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

// The formats' codec (decoding the package's bit patterns, rounding, the
// spacing of their numbers) is the package's: halfCodec.
export const HALF_DTYPES = HALF_DTYPE_NAMES;

/**
 * The usual path to a half-precision cache (transformers' rotary embedding
 * with a float16/bfloat16 model): the angle float32(p) × float32 ω_j rounded
 * to float32, its cos and sin in float32, then cast to the model's dtype.
 * `invF32` holds the float32 frequencies. Returns [cos, sin].
 */
export function usualPath(dtype, p, invF32) {
  return [usualValue(dtype, p, invF32, 0), usualValue(dtype, p, invF32, 1)];
}

/** One value of the usual path: its cos (k = 0) or its sin (k = 1). */
export function usualValue(dtype, p, invF32, k) {
  const angle = f32(f32(p) * invF32);
  return halfCodec(dtype).round(f32(k === 0 ? Math.cos(angle) : Math.sin(angle)));
}

// Every value of a half format's 65,536 bit patterns, made on first use.
const HALF_VALUES = {};
function halfValues(dtype) {
  return (HALF_VALUES[dtype] ??= Float64Array.from({ length: 65536 }, (_, bits) => halfCodec(dtype).decode(bits)));
}

/**
 * Room for the per-position errors of positions 0 … n − 1 (see halfErrorRows);
 * `from` an older one copies its first `keep` positions.
 */
export function halfErrorStore(n, from = null, keep = 0) {
  const store = { usual: new Float64Array(n), rounded: new Float64Array(n), usualAt: new Int32Array(n), roundedAt: new Int32Array(n) };
  if (from) for (const key of Object.keys(store)) store[key].set(from[key].subarray(0, keep));
  return store;
}

/**
 * The errors of both paths at positions from … to − 1, in ulps of the exact
 * value, written into `out` (a halfErrorStore): per position the largest over
 * all pairs, cos and sin (usual, rounded), and where it is (usualAt,
 * roundedAt: 2j + k, k = 0 for cos, the first such in pair order).
 * `cache` holds the package's correctly rounded bit patterns of rows from … to − 1.
 * Positions depend on nothing but themselves, so a range can be computed in parts.
 */
export function halfErrorRows(dtype, from, to, inv, invF32, cache, out) {
  const half = inv.length;
  const { ulp: ulpOf } = halfCodec(dtype);
  const values = halfValues(dtype);
  for (let p = from; p < to; p++) {
    const row = (p - from) * half;
    let usual = -1;
    let usualAt = 0;
    let rounded = -1;
    let roundedAt = 0;
    for (let j = 0; j < half; j++) {
      const a = p * inv[j];
      for (let k = 0; k < 2; k++) {
        const exact = k === 0 ? Math.cos(a) : Math.sin(a);
        const ulp = ulpOf(exact);
        const eu = Math.abs(usualValue(dtype, p, invF32[j], k) - exact) / ulp;
        if (eu > usual) {
          usual = eu;
          usualAt = 2 * j + k;
        }
        const er = Math.abs(values[(k === 0 ? cache.cos : cache.sin)[row + j]] - exact) / ulp;
        if (er > rounded) {
          rounded = er;
          roundedAt = 2 * j + k;
        }
      }
    }
    out.usual[p] = usual;
    out.usualAt[p] = usualAt;
    out.rounded[p] = rounded;
    out.roundedAt[p] = roundedAt;
  }
}

/**
 * The worst case of each path over positions 0 … L of a halfErrorStore: the
 * first position with the largest error and the pair and function there;
 * value (the path's value, the usual path's recomputed) and exact for the usual path.
 */
export function halfWorst(dtype, L, inv, invF32, store) {
  const worst = {};
  for (const path of ['usual', 'rounded']) {
    const errors = store[path];
    let p = 0;
    for (let q = 1; q <= L; q++) if (errors[q] > errors[p]) p = q;
    const at = store[`${path}At`][p];
    const j = at >> 1;
    const k = at & 1;
    const angle = p * inv[j];
    worst[path] = { ulps: errors[p], p, j, fn: k === 0 ? 'cos' : 'sin', exact: k === 0 ? Math.cos(angle) : Math.sin(angle) };
  }
  worst.usual.value = usualValue(dtype, worst.usual.p, invF32[worst.usual.j], worst.usual.fn === 'cos' ? 0 : 1);
  return worst;
}

/**
 * The error of both paths over positions 0 … L in ulps of the exact value,
 * the largest per position (over all pairs, cos and sin) and the worst case.
 * `exactAngle(p, j)` is the float64 angle, `cache` the package's correctly
 * rounded { cos, sin } bit patterns for rows 0 … L.
 */
export function halfErrors(dtype, L, inv, invF32, cache) {
  const store = halfErrorStore(L + 1);
  halfErrorRows(dtype, 0, L + 1, inv, invF32, cache, store);
  const worst = halfWorst(dtype, L, inv, invF32, store);
  const at = store.roundedAt[worst.rounded.p];
  worst.rounded.value = halfCodec(dtype).decode((at & 1 ? cache.sin : cache.cos)[worst.rounded.p * inv.length + (at >> 1)]);
  return { usual: store.usual, rounded: store.rounded, worst };
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
