// The maths of the RoPE lesson that is the lesson's own, not the package's:
// float32 and bfloat16 rounding, the angle pipelines whose rounding the
// lesson shows (Hugging Face's float32 one, and angles held in bfloat16),
// the pairs each layout rotates, wavelengths, and a float64 rotation used to
// explain what the package computed. Frequencies and caches come from the
// package (pe.ropeFrequencies, pe.ropeCacheRows, pe.applyRope).
//
// Pure module: no DOM, no package import, so Node tests can load it.

export const f32 = Math.fround;

const scratch = new Float32Array(1);
const bits = new Uint32Array(scratch.buffer);

/**
 * x rounded to bfloat16 (8 significant bits), as torch's float32 → bfloat16
 * cast does it: first to float32, then round to nearest, ties to even, on
 * the upper 16 bits. NaN stays NaN; values past the largest bfloat16 become ±∞.
 */
export function bf16(x) {
  scratch[0] = x;
  const u = bits[0];
  if ((u & 0x7f800000) === 0x7f800000) return scratch[0]; // ±∞ or NaN
  const lsb = (u >>> 16) & 1;
  bits[0] = (u + 0x7fff + lsb) & 0xffff0000;
  return scratch[0];
}

/** The spacing of representable numbers around |x| in a format with `significand` bits (24: float32, 8: bfloat16). */
export function spacing(x, significand) {
  const a = Math.abs(x);
  if (a === 0) return 0;
  return 2 ** (Math.floor(Math.log2(a)) - (significand - 1));
}

/** inv_j = base^(−2j/r) in float64: the default RoPE frequencies (radians per position). */
export function defaultInvFreq(rotaryDim, base) {
  return Float64Array.from({ length: rotaryDim / 2 }, (_, j) => base ** ((-2 * j) / rotaryDim));
}

/**
 * Hugging Face's float32 frequencies: 1 / base ** (arange(0, r, 2).float() / r),
 * every step rounded to float32 (the float32 power emulated by a float64
 * power rounded once).
 */
export function hfInvFreqF32(rotaryDim, base) {
  const b = f32(base);
  return Float32Array.from({ length: rotaryDim / 2 }, (_, j) => f32(1 / f32(b ** f32(f32(2 * j) / rotaryDim))));
}

/**
 * The angle of pair j at position p as each pipeline holds it:
 * - 'exact': p · inv_j in float64 (sinpe rounds only the final cos/sin);
 * - 'float32': Hugging Face's, float32(p) × float32 inv_j rounded to float32;
 * - 'bf16': the same product held in bfloat16 (angles computed in a bf16 model's dtype).
 * `inv` is the float64 frequency, `invF32` the float32 one.
 */
export function pipelineAngle(p, inv, invF32, precision) {
  if (precision === 'exact') return p * inv;
  const a = f32(f32(p) * invF32);
  return precision === 'bf16' ? bf16(a) : a;
}

/**
 * [cos, sin] of pair j at position p as each pipeline returns them: 'exact'
 * in float64; 'float32' and 'bf16' evaluate cos and sin of their angle in
 * float32, so each result is rounded to float32 (a float32 pipeline returns
 * float32 numbers: its error is never below that rounding's).
 */
export function pipelineCosSin(p, inv, invF32, precision) {
  const a = pipelineAngle(p, inv, invF32, precision);
  if (precision === 'exact') return [Math.cos(a), Math.sin(a)];
  return [f32(Math.cos(a)), f32(Math.sin(a))];
}

/**
 * The largest |cos − cos_exact| and |sin − sin_exact| over the given
 * positions and all pairs, for one pipeline. Returns { error, position, pair }.
 */
export function maxAngleError(positions, inv, invF32, precision) {
  let worst = { error: 0, position: positions[0] ?? 0, pair: 0 };
  for (const p of positions) {
    for (let j = 0; j < inv.length; j++) {
      const exact = p * inv[j];
      const [c, s] = pipelineCosSin(p, inv[j], invF32[j], precision);
      const e = Math.max(Math.abs(c - Math.cos(exact)), Math.abs(s - Math.sin(exact)));
      if (e > worst.error) worst = { error: e, position: p, pair: j };
    }
  }
  return worst;
}

/**
 * Positions to measure below `top` (exclusive): the last `tail` positions
 * (the error grows with the position, so the largest errors sit there) and
 * `spread` more spread evenly from top/2.
 */
export function samplePositionsBelow(top, { tail = 192, spread = 32 } = {}) {
  const out = new Set();
  for (let i = 1; i <= Math.min(tail, top); i++) out.add(top - i);
  const low = Math.floor(top / 2);
  for (let i = 0; i < spread; i++) out.add(low + Math.floor(((top - tail - low) * (i + 0.5)) / spread));
  return [...out].filter((p) => p >= 0 && p < top).sort((a, b) => a - b);
}

/** The two indices of a head vector that pair j rotates: half (GPT-NeoX) or interleaved (GPT-J). */
export function pairIndices(j, rotaryDim, layout) {
  return layout === 'interleaved' ? [2 * j, 2 * j + 1] : [j, j + rotaryDim / 2];
}

/** Which pair (and which side, 0 = a, 1 = b) index i of a head vector belongs to; null past the rotary part. */
export function pairOfIndex(i, rotaryDim, layout) {
  if (i >= rotaryDim) return null;
  if (layout === 'interleaved') return { pair: i >> 1, side: i & 1 };
  const half = rotaryDim / 2;
  return i < half ? { pair: i, side: 0 } : { pair: i - half, side: 1 };
}

/**
 * x (one head vector, float64 maths) rotated to position p with frequencies
 * inv (length r/2) in a layout: x′_a = x_a cos θ − x_b sin θ, x′_b = x_b cos θ + x_a sin θ.
 */
export function rotate(x, p, inv, layout, attentionFactor = 1) {
  const out = Float64Array.from(x);
  const r = 2 * inv.length;
  for (let j = 0; j < inv.length; j++) {
    const [a, b] = pairIndices(j, r, layout);
    const c = Math.cos(p * inv[j]) * attentionFactor;
    const s = Math.sin(p * inv[j]) * attentionFactor;
    out[a] = x[a] * c - x[b] * s;
    out[b] = x[b] * c + x[a] * s;
  }
  return out;
}

export function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** λ_j = 2π / inv_j, in positions. */
export function wavelengths(inv) {
  return Array.from(inv, (w) => (2 * Math.PI) / w);
}

/** How many full turns pair j makes within a context of L positions: L · inv_j / 2π. */
export function rotationsWithin(inv, L) {
  return Array.from(inv, (w) => (L * w) / (2 * Math.PI));
}

/** The hand of a pair (a, b) as { length, angle }: the point (a, b) in polar form. */
export function hand(a, b) {
  return { length: Math.hypot(a, b), angle: Math.atan2(b, a) };
}

/** A repeatable pseudo-random vector in [−1, 1) (mulberry32), so figures and URLs agree. */
export function seededVector(n, seed) {
  let s = seed >>> 0;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * 2 - 1;
  }
  return out;
}

/**
 * A config.json text parsed for the lesson: { config } or { error } (the
 * message of JSON.parse, or 'not an object'). Never evaluates anything.
 */
export function parseConfigText(text) {
  let config;
  try {
    config = JSON.parse(text);
  } catch (error) {
    return { error: String(error.message) };
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return { error: 'not an object' };
  return { config };
}
