// An independent float64 reference for RoPE, written from REFERENCE-ROPE.md and
// checked line by line against Hugging Face transformers' modeling_rope_utils.py
// (the RotaryEmbeddingConfigMixin / _compute_*_parameters functions of
// transformers v5). Shares no code with sinpe. Option names are sinpe's.
//
// Where REFERENCE-ROPE.md and transformers disagree, this file follows
// transformers v5 and says so at the line concerned:
// - yarn: an explicit `factor` is used as given; only when it is absent is it
//   maxPositions / originalMaxPositions (_compute_yarn_parameters). Releases
//   4.48 to 4.57 replaced a given factor by that ratio whenever
//   original_max_position_embeddings was set (issue #38224, fixed by #40320).
// - longrope: L = originalMaxPositions ?? maxPositions, s = factor ??
//   maxPositions / L (_compute_longrope_parameters); REFERENCE-ROPE.md has the
//   4.4x rule, where a given originalMaxPositions overrides a given factor.
// Everything else (dynamic's N = max(seqLen, M), yarn's correction range,
// ramp and attention factor, longrope's long/short switch at seqLen > L,
// llama3's three bands, the rotation layouts) is the same in both.
//
// transformers evaluates all of this in float32 (inv_freq, the yarn ramp, the
// longrope factors, the angle); here every step is float64 and nothing is
// rounded, so these are the values sinpe's contract is measured against.

export const ROPE_TYPES = Object.freeze(['default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3']);

function need(value, name, type) {
  if (value === undefined) throw new Error(`reference: ${type} needs options.${name}`);
  return value;
}

// def_j = b^(-2j/r), the frequencies of the unscaled rotation.
function defaultFrequencies(r, base) {
  const out = new Float64Array(r / 2);
  for (let j = 0; j < r / 2; j++) out[j] = base ** ((-2 * j) / r);
  return out;
}

// YaRN's attention-factor helper: 1 for s <= 1, else 0.1 * k * ln s + 1.
function yarnMscale(s, k) {
  return s <= 1 ? 1 : 0.1 * k * Math.log(s) + 1;
}

/**
 * inv_j (radians per position, Float64Array(r/2)) and the attention factor for
 * rotary dimension r and sinpe RoPE options `o`.
 */
export function ropeParameters(r, o = {}) {
  if (!Number.isInteger(r) || r < 2 || r % 2) throw new Error(`reference: rotary dimension ${r}`);
  const type = o.ropeType ?? 'default';
  const base = o.base ?? 10000;
  const half = r / 2;
  const def = defaultFrequencies(r, base);
  switch (type) {
    case 'default':
      return { invFreq: def, attentionFactor: 1 };
    case 'linear': {
      const s = need(o.factor, 'factor', type);
      return { invFreq: def.map((f) => f / s), attentionFactor: 1 };
    }
    case 'dynamic': {
      const s = need(o.factor, 'factor', type);
      const M = need(o.maxPositions, 'maxPositions', type);
      // transformers: seq_len = max(seq_len, max_position_embeddings), M when absent.
      const N = Math.max(o.seqLen ?? M, M);
      const scaledBase = base * ((s * N) / M - (s - 1)) ** (r / (r - 2));
      const out = new Float64Array(half);
      for (let j = 0; j < half; j++) out[j] = scaledBase ** ((-2 * j) / r);
      return { invFreq: out, attentionFactor: 1 };
    }
    case 'yarn': {
      const L = o.originalMaxPositions ?? need(o.maxPositions, 'maxPositions (or originalMaxPositions)', type);
      // transformers v5: the given factor wins; the ratio only fills a missing one.
      const s =
        o.factor ??
        (o.maxPositions !== undefined && o.originalMaxPositions !== undefined
          ? o.maxPositions / o.originalMaxPositions
          : need(undefined, 'factor', type));
      let att = o.attentionFactor;
      if (att === undefined) {
        att = o.mscale && o.mscaleAllDim ? yarnMscale(s, o.mscale) / yarnMscale(s, o.mscaleAllDim) : yarnMscale(s, 1);
      }
      const betaFast = o.betaFast ?? 32;
      const betaSlow = o.betaSlow ?? 1;
      // The pair index whose wavelength is L / n (find_correction_dim).
      const corr = (n) => (r * Math.log(L / (n * 2 * Math.PI))) / (2 * Math.log(base));
      let lo = corr(betaFast);
      let hi = corr(betaSlow);
      if (o.truncate ?? true) {
        lo = Math.floor(lo);
        hi = Math.ceil(hi);
      }
      lo = Math.max(lo, 0);
      hi = Math.min(hi, r - 1);
      if (lo === hi) hi += 0.001;
      const out = new Float64Array(half);
      for (let j = 0; j < half; j++) {
        const ramp = Math.min(Math.max((j - lo) / (hi - lo), 0), 1);
        const extrapolation = 1 - ramp; // weight of the unscaled frequency
        out[j] = (def[j] / s) * (1 - extrapolation) + def[j] * extrapolation;
      }
      return { invFreq: out, attentionFactor: att };
    }
    case 'longrope': {
      const shortFactor = need(o.shortFactor, 'shortFactor', type);
      const longFactor = need(o.longFactor, 'longFactor', type);
      if (shortFactor.length !== half || longFactor.length !== half) {
        throw new Error(`reference: longrope factors must have ${half} entries`);
      }
      const L = o.originalMaxPositions ?? o.maxPositions;
      let att = o.attentionFactor;
      if (att === undefined) {
        // transformers v5: factor ?? max_position_embeddings / original_max_position_embeddings.
        const s =
          o.factor ?? need(o.maxPositions, 'factor or maxPositions', type) / need(L, 'originalMaxPositions', type);
        att = s <= 1 ? 1 : Math.sqrt(1 + Math.log(s) / Math.log(L));
      }
      const useLong = o.seqLen !== undefined && o.seqLen > need(L, 'originalMaxPositions or maxPositions', type);
      const f = useLong ? longFactor : shortFactor;
      const out = new Float64Array(half);
      for (let j = 0; j < half; j++) out[j] = 1 / (f[j] * base ** ((2 * j) / r));
      return { invFreq: out, attentionFactor: att };
    }
    case 'llama3': {
      const s = o.factor ?? 8;
      const low = o.lowFreqFactor ?? 1;
      const high = o.highFreqFactor ?? 4;
      const L = o.originalMaxPositions ?? 8192;
      const out = new Float64Array(half);
      for (let j = 0; j < half; j++) {
        const wavelength = (2 * Math.PI) / def[j];
        if (wavelength < L / high) out[j] = def[j];
        else if (wavelength > L / low) out[j] = def[j] / s;
        else {
          const g = (L / wavelength - low) / (high - low);
          out[j] = ((1 - g) * def[j]) / s + g * def[j];
        }
      }
      return { invFreq: out, attentionFactor: 1 };
    }
    default:
      throw new Error(`reference: unknown rope type ${type}`);
  }
}

export const ropeInvFreq = (r, o) => ropeParameters(r, o).invFreq;
export const ropeAttention = (r, o) => ropeParameters(r, o).attentionFactor;

/**
 * Cache rows for `positions` (any iterable of numbers), row-major (n, r/2):
 * cos = cos(p · inv_j) · att, sin = sin(p · inv_j) · att, in float64.
 */
export function ropeCache(positions, r, o = {}) {
  const { invFreq, attentionFactor: att } = ropeParameters(r, o);
  const ps = Array.from(positions);
  const half = r / 2;
  const cos = new Float64Array(ps.length * half);
  const sin = new Float64Array(ps.length * half);
  ps.forEach((p, t) => {
    for (let j = 0; j < half; j++) {
      const angle = p * invFreq[j];
      cos[t * half + j] = Math.cos(angle) * att;
      sin[t * half + j] = Math.sin(angle) * att;
    }
  });
  return { cos, sin, attentionFactor: att };
}

// The two indices of pair j for a layout.
export function pairIndices(layout, r, j) {
  if (layout === 'half') return [j, j + r / 2];
  if (layout === 'interleaved') return [2 * j, 2 * j + 1];
  throw new Error(`reference: layout ${layout}`);
}

/**
 * The float64 rotation of x (values as given, e.g. a Float32Array's), laid out
 * [token][head][dim] with positions.length tokens: a new Float64Array. Options:
 * the RoPE options plus rotaryDim (default headDim) and layout ('half' default).
 * Dimensions rotaryDim … headDim-1 pass through.
 */
export function ropeRotate(x, positions, headDim, o = {}) {
  const r = o.rotaryDim ?? headDim;
  const layout = o.layout ?? 'half';
  const ps = Array.from(positions);
  const n = ps.length;
  if (x.length % (n * headDim) !== 0 || x.length === 0) throw new Error('reference: x length');
  const heads = x.length / (n * headDim);
  const { cos, sin } = ropeCache(ps, r, o);
  const out = Float64Array.from(x);
  const half = r / 2;
  for (let t = 0; t < n; t++) {
    for (let h = 0; h < heads; h++) {
      const row = (t * heads + h) * headDim;
      for (let j = 0; j < half; j++) {
        const [a, b] = pairIndices(layout, r, j);
        const c = cos[t * half + j];
        const s = sin[t * half + j];
        const xa = x[row + a];
        const xb = x[row + b];
        out[row + a] = xa * c - xb * s;
        out[row + b] = xb * c + xa * s;
      }
    }
  }
  return out;
}

/**
 * For every element of a [token][head][dim] buffer, the |x_a| + |x_b| of the
 * pair it belongs to (0 for pass-through dimensions): the scale of the
 * rotation contract 5e-7 · max(1, att) · (|x_a| + |x_b|).
 */
export function pairMagnitudes(x, headDim, r, layout) {
  const out = new Float64Array(x.length);
  for (let row = 0; row < x.length; row += headDim) {
    for (let j = 0; j < r / 2; j++) {
      const [a, b] = pairIndices(layout, r, j);
      const m = Math.abs(x[row + a]) + Math.abs(x[row + b]);
      out[row + a] = m;
      out[row + b] = m;
    }
  }
  return out;
}
