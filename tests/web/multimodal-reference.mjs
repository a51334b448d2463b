// Float64 references for the rope lesson's multimodal and half-precision sections,
// written from transformers' source, not from the site's or the package's
// code:
// - getRopeIndex: modeling_rope_utils._mrope_index_interleaved_runs (what
//   Qwen2VLModel.get_rope_index calls through get_mrope_index) for one
//   sequence with images: runs of text and image tokens, a text run counting
//   on from the current position, an image run laid out by
//   get_mrope_vision_positions, the current position then moved on by
//   max(h, w) // spatial_merge_size;
// - pairAxis: which axis's positions pair j takes, by building the doubled
//   frequency rows the way apply_multimodal_rotary_pos_emb splits them
//   (mrope_section * 2, chunk i from axis i % 3) and the way
//   Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope overwrites them;
// - pixtralAngle: PixtralRotaryEmbedding's freqs_h = outer(h, freqs[::2]),
//   freqs_w = outer(w, freqs[1::2]), concatenated per patch;
// - roundHalf / ulp: float16 and bfloat16 rounding done on the bits of the
//   float64 (integer arithmetic, nearest, ties to even).
// Used by tests/web/formulas.test.mjs and tests/browser/rope-multimodal.test.mjs.

/**
 * get_rope_index for one sequence: inputIds (numbers), the id of the image
 * token, the images' [t, h, w], the spatial merge size. Returns
 * { positions: [[t, h, w], …] per token, ropeDelta }.
 */
export function getRopeIndex(inputIds, { imageTokenId, imageGridThw, spatialMergeSize }) {
  // mm_token_type_ids: 1 for image tokens, 0 for the rest; runs of one type
  const types = [...inputIds].map((id) => (id === imageTokenId ? 1 : 0));
  const runs = [];
  types.forEach((type, i) => {
    if (i > 0 && types[i - 1] === type) runs[runs.length - 1].end = i + 1;
    else runs.push({ type, start: i, end: i + 1 });
  });
  const positions = [];
  let current = 0;
  let image = 0;
  for (const run of runs) {
    if (run.type === 0) {
      for (let k = 0; k < run.end - run.start; k++) positions.push([current + k, current + k, current + k]);
      current += run.end - run.start;
      continue;
    }
    // get_mrope_vision_positions(current, grid, spatial_merge_size): meshgrid of
    // arange(t) (+ current), arange(h // m) + current, arange(w // m) + current
    const [t, h, w] = imageGridThw[image++];
    const [gh, gw] = [Math.floor(h / spatialMergeSize), Math.floor(w / spatialMergeSize)];
    for (let a = 0; a < t; a++) for (let b = 0; b < gh; b++) for (let c = 0; c < gw; c++) positions.push([a + current, b + current, c + current]);
    current += Math.floor(Math.max(h, w) / spatialMergeSize);
  }
  return { positions, ropeDelta: Math.max(...positions.flat()) + 1 - types.length };
}

/**
 * The axis (0 t, 1 h, 2 w) of every pair j < r/2, for mrope_section and
 * 'sectioned' (Qwen2-VL) or 'interleaved' (Qwen3-VL).
 */
export function pairAxes(section, half, axes) {
  if (axes === 'sectioned') {
    // emb = cat(freqs, freqs) has width 2·half; split by mrope_section * 2,
    // chunk i taken from axis i % 3; pair j is column j (and j + half)
    const sizes = [...section, ...section];
    const column = [];
    sizes.forEach((size, i) => {
      for (let k = 0; k < size; k++) column.push(i % 3);
    });
    return column.slice(0, half);
  }
  // freqs_t = freqs[0]; for dim, offset in ((1, 1), (2, 2)): freqs_t[..., offset:section[dim]*3:3] = freqs[dim]
  const axis = new Array(half).fill(0);
  for (const dim of [1, 2]) for (let j = dim; j < Math.min(half, section[dim] * 3); j += 3) axis[j] = dim;
  return axis;
}

/** Pixtral's angle of pair j for patch (row y, column x), head with r rotated dims, base b. */
export function pixtralAngle(y, x, j, r, b) {
  const freqs = Array.from({ length: r / 2 }, (_, k) => 1 / b ** ((2 * k) / r));
  const rowFreqs = freqs.filter((_, k) => k % 2 === 0);
  const colFreqs = freqs.filter((_, k) => k % 2 === 1);
  const row = [...rowFreqs.map((f) => y * f), ...colFreqs.map((f) => x * f)];
  return row[j];
}

const view = new DataView(new ArrayBuffer(8));

/** sign, unbiased exponent and 53-bit integer significand of a finite non-zero float64. */
function parts(x) {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  // subnormal float64: exponent −1022 without the implicit bit (never met by cos/sin here)
  return biased === 0 ? { sign: hi >>> 31 ? -1 : 1, e: -1022, mant: frac, shiftBase: -1074 } : { sign: hi >>> 31 ? -1 : 1, e: biased - 1023, mant: frac | (1n << 52n), shiftBase: biased - 1023 - 52 };
}

export const FORMATS = { float16: { m: 10, emin: -14, emax: 15 }, bfloat16: { m: 7, emin: -126, emax: 127 } };

/** The exponent of |x| (floor log2, exact from the bits). */
function exponentOf(x) {
  const { e, mant } = parts(x);
  if (e === -1022 && mant < 1n << 52n) return -1074 + mant.toString(2).length - 1;
  return e;
}

/** x rounded to the format (nearest, ties to even), as a number. */
export function roundHalf(x, dtype) {
  if (x === 0 || !Number.isFinite(x)) return x;
  const { m, emin, emax } = FORMATS[dtype];
  const { sign, mant, shiftBase } = parts(x);
  const q = Math.max(exponentOf(x), emin) - m; // the format's quantum at x
  const shift = BigInt(q - shiftBase); // bits of the significand dropped (> 0 here)
  let kept = mant >> shift;
  const rem = mant & ((1n << shift) - 1n);
  const halfway = 1n << (shift - 1n);
  if (rem > halfway || (rem === halfway && (kept & 1n) === 1n)) kept += 1n;
  const value = Number(kept) * 2 ** q;
  return value >= 2 ** (emax + 1) ? sign * Infinity : sign * value;
}

/** One ulp of the format at x (x not rounded first). */
export function ulp(x, dtype) {
  const { m, emin } = FORMATS[dtype];
  return 2 ** (Math.max(x === 0 ? emin : exponentOf(x), emin) - m);
}

/** The value of a float16 or bfloat16 bit pattern. */
export function halfValue(bits, dtype) {
  if (dtype === 'bfloat16') {
    const v = new DataView(new ArrayBuffer(4));
    v.setUint32(0, bits << 16);
    return v.getFloat32(0);
  }
  const e = (bits >> 10) & 31;
  const f = bits & 1023;
  const s = bits & 0x8000 ? -1 : 1;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (e === 0 ? f / 1024 : 1 + f / 1024) * 2 ** (e === 0 ? -14 : e - 15);
}

/**
 * The usual path's value of cos (k = 0) or sin (k = 1) at position p: the
 * float32 frequency 1 / base ** (2j / r) (every step in float32, the power
 * emulated by a float64 power rounded once), the float32 angle, the float32
 * cos or sin, the cast.
 */
export function usualValue(p, j, r, base, k, dtype) {
  const f = Math.fround;
  const inv = f(1 / f(f(base) ** f(f(2 * j) / r)));
  const angle = f(f(p) * inv);
  return roundHalf(f(k === 0 ? Math.cos(angle) : Math.sin(angle)), dtype);
}

/**
 * Over positions 0…L and pairs j < r/2 of a RoPE with this base: the usual
 * path's worst error in ulps of dtype ({ulps, p, j, fn}: the first position,
 * pair and function, cos before sin, where it is largest) and the correctly
 * rounded value's worst error, from the exact float64 cos and sin.
 */
export function halfWorstReference(dtype, r, base, L) {
  let usual = { ulps: -1 };
  let rounded = 0;
  for (let p = 0; p <= L; p++) {
    for (let j = 0; j < r / 2; j++) {
      const angle = p * base ** ((-2 * j) / r);
      for (const k of [0, 1]) {
        const exact = k === 0 ? Math.cos(angle) : Math.sin(angle);
        const u = ulp(exact, dtype);
        const e = Math.abs(usualValue(p, j, r, base, k, dtype) - exact) / u;
        if (e > usual.ulps) usual = { ulps: e, p, j, fn: k === 0 ? 'cos' : 'sin' };
        rounded = Math.max(rounded, Math.abs(roundHalf(exact, dtype) - exact) / u);
      }
    }
  }
  return { usual, rounded };
}
