// An independent float64 reference for multi-axis RoPE and for half-precision
// rounding, written from transformers' source (not from sinpe's code):
// - sectioned: Qwen2-VL / Qwen2.5-VL, modeling_qwen2_vl.py
//   Qwen2VLRotaryEmbedding.forward (one cos/sin row of width r per axis, from
//   cat(freqs, freqs)) and apply_multimodal_rotary_pos_emb (the doubled width
//   split by mrope_section * 2, chunk i taken from axis i % 3).
// - interleaved: Qwen3-VL, modeling_qwen3_vl.py
//   Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope (freqs[0], then
//   freqs[dim][offset : 3 * mrope_section[dim] : 3] for dim, offset = 1, 2).
// - axial: Qwen2-VL's vision tower, VisionRotaryEmbedding(head_dim / 2)
//   indexed by the row and the column and flattened (rot_pos_emb).
// - pixtral: modeling_pixtral.py PixtralRotaryEmbedding (freqs[::2] by the
//   row, freqs[1::2] by the column, row-major patches).
// The frequencies of each rope type come from rope-reference.mjs (transformers'
// modeling_rope_utils). Everything is float64.
import { ropeParameters } from './rope-reference.mjs';

/**
 * Cache rows (n, r/2) of n tokens whose positions are token-major with A
 * values each, for `axes` 'sectioned' | 'interleaved' | 'axial' with
 * `sections` (A of them), or 'pixtral' (A = 2). Also returns each value's
 * angle (`angle`, same layout).
 */
export function multiAxisCache(positions, r, axes, sections, o = {}) {
  const A = axes === 'pixtral' ? 2 : sections.length;
  const n = positions.length / A;
  const half = r / 2;
  const cos = new Float64Array(n * half);
  const sin = new Float64Array(n * half);
  const angle = new Float64Array(n * half);
  const { invFreq, attentionFactor: att } = ropeParameters(r, o);
  for (let t = 0; t < n; t++) {
    const p = (a) => positions[t * A + a];
    const angles = new Float64Array(half);
    if (axes === 'sectioned') {
      // emb[a] = cat(freqs_a, freqs_a), width r; split r into [...sections, ...sections] and take chunk i from axis i % A.
      const chunks = [...sections, ...sections];
      const row = new Float64Array(r);
      let at = 0;
      chunks.forEach((len, i) => {
        for (let c = at; c < at + len; c++) row[c] = p(i % A) * invFreq[c % half];
        at += len;
      });
      for (let j = 0; j < half; j++) {
        if (row[j] !== row[j + half]) throw new Error('reference: the two halves differ');
        angles[j] = row[j];
      }
    } else if (axes === 'interleaved') {
      for (let j = 0; j < half; j++) angles[j] = p(0) * invFreq[j];
      for (let dim = 1; dim < A; dim++) for (let j = dim; j < sections[dim] * A; j += A) angles[j] = p(dim) * invFreq[j];
    } else if (axes === 'axial') {
      let at = 0;
      for (let a = 0; a < A; a++) {
        const inv = ropeParameters(2 * sections[a], o).invFreq;
        for (let k = 0; k < sections[a]; k++) angles[at + k] = p(a) * inv[k];
        at += sections[a];
      }
    } else if (axes === 'pixtral') {
      for (let k = 0; k < half / 2; k++) {
        angles[k] = p(0) * invFreq[2 * k];
        angles[half / 2 + k] = p(1) * invFreq[2 * k + 1];
      }
    } else throw new Error(`reference: axes ${axes}`);
    for (let j = 0; j < half; j++) {
      cos[t * half + j] = Math.cos(angles[j]) * att;
      sin[t * half + j] = Math.sin(angles[j]) * att;
      angle[t * half + j] = angles[j];
    }
  }
  return { cos, sin, angle, attentionFactor: att };
}

/** Token-major positions (row, column) of a height × width grid, row-major patches. */
export function gridPositions(height, width) {
  const out = [];
  for (let i = 0; i < height; i++) for (let j = 0; j < width; j++) out.push(i, j);
  return out;
}

/**
 * Rotation (rotate_half layout) of x [token][head][dim] with cache rows cos,
 * sin (n, r/2): a new Float64Array; dimensions r … headDim-1 pass through.
 */
export function rotateHalf(x, cos, sin, n, headDim, r) {
  const half = r / 2;
  const heads = x.length / (n * headDim);
  const out = Float64Array.from(x);
  for (let t = 0; t < n; t++)
    for (let h = 0; h < heads; h++) {
      const row = (t * heads + h) * headDim;
      for (let j = 0; j < half; j++) {
        const c = cos[t * half + j];
        const s = sin[t * half + j];
        out[row + j] = x[row + j] * c - x[row + j + half] * s;
        out[row + j + half] = x[row + j + half] * c + x[row + j] * s;
      }
    }
  return out;
}

/**
 * A float64 value rounded once to nearest-even in a binary format with
 * `mantissa` stored bits and exponent bias `bias`, as its bit pattern:
 * float16 (10, 15), bfloat16 (7, 127). Subnormals kept; infinity past the
 * largest finite value after rounding.
 */
export function roundBits(v, mantissa, bias) {
  const expAll = 2 * bias + 1;
  if (Number.isNaN(v)) return (expAll << mantissa) | (1 << (mantissa - 1));
  const sign = v < 0 || Object.is(v, -0) ? 1 << (mantissa + Math.log2(expAll + 1)) : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | (expAll << mantissa);
  const emin = 1 - bias;
  let e = emin;
  if (a !== 0) {
    // log2 may be off by one near a power of two: settle it exactly.
    e = Math.floor(Math.log2(a));
    if (2 ** e > a) e--;
    else if (2 ** (e + 1) <= a) e++;
  }
  if (e < emin) e = emin;
  const m = a / 2 ** (e - mantissa); // exact: a power-of-two scale
  let q = Math.floor(m);
  const f = m - q;
  if (f > 0.5 || (f === 0.5 && q % 2 === 1)) q++;
  if (q === 2 ** (mantissa + 1)) {
    q = 2 ** mantissa;
    e++;
  }
  if (e > bias) return sign | (expAll << mantissa);
  if (q < 2 ** mantissa) return sign | q; // subnormal (or zero)
  return sign | ((e + bias) << mantissa) | (q - 2 ** mantissa);
}

export const FORMATS = Object.freeze({ float16: [10, 15], bfloat16: [7, 127] });

/**
 * The bit pattern of float64 value v in `dtype`, and whether v is within
 * `slack` of a rounding boundary (so that the reference's own float64 error
 * could decide the rounding), and the patterns of v ∓ slack: { bits, near, either }.
 */
export function halfBits(v, dtype, slack) {
  const [m, b] = FORMATS[dtype];
  const bits = roundBits(v, m, b);
  // An exact zero (a zero angle's sine) is no boundary: its value is exact.
  if (v === 0) return { bits, near: false, either: [bits] };
  const either = [roundBits(v - slack, m, b), roundBits(v + slack, m, b)];
  return { bits, near: either[0] !== bits || either[1] !== bits, either };
}

/** IEEE binary16 bits → the value they hold (subnormals, infinities and NaN included). */
export function halfValue(b) {
  const e = (b >> 10) & 31;
  const m = b & 1023;
  const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
  return b & 0x8000 ? -v : v;
}
