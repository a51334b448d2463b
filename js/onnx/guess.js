// Without a config.json: what a cache was made with. The frequency of each
// column is read off the cache (its angle unwrapped from row to row), then
// the rope types are tried in turn — plain RoPE, linear, llama3, YaRN,
// LongRoPE's per-column factors — and the first whose parameters reproduce
// the cache (exact, or the float32 recipe fitted per column: fit.js) is the
// guess, with the config.json keys that would say so.
import { expectation, checkExact, fitFloat32 } from './fit.js';
import { FLOAT } from './read.js';

const TWO_PI = 2 * Math.PI;

/** v rounded to `digits` significant digits. */
const sig = (v, digits) => (v > 0 && Number.isFinite(v) ? Number(v.toPrecision(digits)) : v);

// The bases configs use; LongRoPE's per-column factors leave the base undetermined, so these are tried first for it.
const USUAL_BASES = [10000, 500000, 1000000, 100000, 5000000, 10000000];

// Each column's frequency (radians per position) read off the cache: the angle
// at row 1, then refined at rows 2, 4, 8, … and the last, each time adding the
// turns the previous estimate predicts.
function frequencies(cache, rows, width) {
  const w = new Float64Array(width);
  for (let j = 0; j < width; j++) {
    const at = (p) => Math.atan2(cache.sin.values[p * width + j], cache.cos.values[p * width + j]);
    let est = at(1);
    if (est < 0) est += TWO_PI;
    const steps = [];
    for (let p = 2; p < rows - 1; p *= 2) steps.push(p);
    if (rows - 1 > 1) steps.push(rows - 1);
    for (const p of steps) {
      const measured = at(p);
      const turns = Math.round((p * est - measured) / TWO_PI);
      est = (measured + TWO_PI * turns) / p;
    }
    w[j] = est;
  }
  return w;
}

// Powers of two and round context lengths a model's original context is likely to be.
const CONTEXTS = [];
for (let k = 7; k <= 20; k++) CONTEXTS.push(2 ** k);
CONTEXTS.push(2048 * 3, 4000, 8000, 32000, 128000);

/** The candidates, most likely first: { ropeType, options, config } each. */
function candidates(w, r, att, group) {
  const half = r / 2;
  const out = [];
  // The base, from the two highest frequencies (unscaled by llama3 and YaRN, scaled alike by linear).
  const rawBase = (w[0] / w[1]) ** (r / 2);
  const bases = [...new Set([sig(rawBase, 2), sig(rawBase, 3), sig(rawBase, 4)])];
  // The usual bases too: llama3 and YaRN may scale the second column already (a short original context).
  for (const base of [...bases, ...USUAL_BASES.filter((b) => !bases.includes(b))]) {
    const def = Float64Array.from({ length: half }, (_, j) => base ** ((-2 * j) / r));
    const rho = Float64Array.from(def, (d, j) => d / w[j]);
    const s = rho[half - 1];
    out.push({ ropeType: 'default', options: { ropeType: 'default', base }, config: { rope_theta: base } });
    const f = sig(rho[0], 3);
    if (Math.abs(f - 1) > 1e-3) out.push({ ropeType: 'linear', options: { ropeType: 'linear', base, factor: f }, config: { rope_theta: base, rope_scaling: { rope_type: 'linear', factor: f } } });
    if (s > 1.01) {
      const factor = sig(s, 3);
      // llama3: g = (L/wavelength − low)/(high − low), with the usual low 1, high 4.
      for (const L of CONTEXTS) {
        const o = { ropeType: 'llama3', base, factor, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: L };
        out.push({ ropeType: 'llama3', options: o, config: { rope_theta: base, rope_scaling: { rope_type: 'llama3', factor, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: L } } });
      }
      // YaRN: the ramp between the correction dims of the original context L; the attention factor read at row 0.
      for (const L of CONTEXTS) {
        const o = { ropeType: 'yarn', base, factor, originalMaxPositions: L, attentionFactor: att };
        const usual = Math.abs(att - (0.1 * Math.log(factor) + 1)) < 1e-3 * att;
        const scaling = { rope_type: 'yarn', factor, original_max_position_embeddings: L, ...(usual ? {} : { attention_factor: att }) };
        out.push({ ropeType: 'yarn', options: usual ? { ...o, attentionFactor: undefined } : o, config: { rope_theta: base, rope_scaling: scaling } });
      }
    }
  }
  // LongRoPE: a factor per column, for the usual bases first, then the one read off the first two columns.
  for (const base of [...USUAL_BASES, ...bases.filter((b) => !USUAL_BASES.includes(b))]) {
    const factors = Array.from(w, (x, j) => sig(base ** ((-2 * j) / r) / x, 6));
    if (factors.every((x) => Math.abs(x - 1) <= 1e-3) || factors.some((x) => !(x > 0))) continue;
    const key = group === 'small' ? 'short_factor' : 'long_factor';
    out.push({
      ropeType: 'longrope',
      options: { ropeType: 'longrope', base, shortFactor: factors, longFactor: factors, originalMaxPositions: 1, factor: 1, attentionFactor: att },
      config: { rope_theta: base, rope_scaling: { rope_type: 'longrope', [key]: factors, attention_factor: att } },
    });
  }
  for (const c of out) if (c.options.attentionFactor === undefined) delete c.options.attentionFactor;
  return out;
}

/**
 * The guess for one cache without a config: null when nothing comes close
 * (or it has fewer than 2 rows), else { ropeType, rotaryDim, options (sinpe's
 * names), config (the config.json keys), recipe: 'exact' | 'float32' (the
 * guess reproduces the cache) or null (LongRoPE factors read off the cache,
 * close but not reproducing it), variant (the float32 recipe's, see fit.js) }.
 */
export function guessCache(pe, cache, rows, width, group) {
  if (rows < 2 || width < 2) return null;
  const r = 2 * width;
  const att = cache.cos.values[0];
  if (!(att > 0)) return null;
  const w = frequencies(cache, rows, width);
  if (!w.every((x) => x > 0 && Number.isFinite(x))) return null;
  const n = Math.min(rows, 2048);
  const wide = cache.dataType === FLOAT;
  let approximate = null;
  for (const c of candidates(w, r, att, group)) {
    let exp;
    try {
      const inv = pe.ropeFrequencies(r, c.options);
      const { attentionFactor } = pe.ropeCacheRows(0, 1, r, c.options);
      exp = expectation(inv, attentionFactor);
    } catch {
      continue;
    }
    // A quick look at the first rows before the whole cache.
    const tol = wide ? 4e-7 * Math.max(1, exp.att) : 0;
    let recipe = null;
    let fit = null;
    if (checkExact(cache, n, width, exp, 1, tol).ok && checkExact(cache, rows, width, exp, 1, tol).ok) recipe = 'exact';
    else if ((fit = fitFloat32(cache, n, width, exp)).ok && (fit = fitFloat32(cache, rows, width, exp)).ok) recipe = 'float32';
    if (recipe === null) {
      // LongRoPE factors read off the cache: given when they come within 1e-3 of every value, as an approximation.
      if (c.ropeType === 'longrope' && approximate === null && checkExact(cache, rows, width, exp, 0, 1e-3 * Math.max(1, exp.att)).ok)
        approximate = { ropeType: c.ropeType, rotaryDim: r, options: c.options, config: { ...c.config, rotary_dim: r }, recipe: null, variant: null };
      continue;
    }
    const config = { ...c.config, rotary_dim: r };
    return { ropeType: c.ropeType, rotaryDim: r, options: c.options, config, recipe, variant: recipe === 'float32' ? (fit.columns.every((x) => x.ulps === 0) ? 'float64-inv' : 'float32') : null };
  }
  return approximate;
}

/** The guess in words: the config keys that would reproduce the cache. */
export function guessText(g) {
  const { rotary_dim: r, ...keys } = g.config;
  if (g.recipe === null) return `close to ${JSON.stringify(keys)} with rotary dim ${r} (LongRoPE factors read off the cache, not reproducing it exactly)`;
  return `it fits ${JSON.stringify(keys)} with rotary dim ${r} (${g.recipe === 'exact' ? 'exact values' : `float32 recipe${g.variant === 'float64-inv' ? ', inv_freq rounded once' : ''}`})`;
}
