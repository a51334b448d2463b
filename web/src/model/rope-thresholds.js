// The thresholds of the two blending scalings, as transformers computes them
// (modeling_rope_utils.py): llama3's wavelength bounds L/h_f and L/l_f
// (_compute_llama3_parameters: pairs with a wavelength below L/h_f are kept,
// above L/l_f divided by the factor, blended between), and YaRN's correction
// range ℓ, h (_compute_yarn_parameters → find_correction_range: the dimension
// at which a pair turns β times within L, floored and ceiled when `truncate`,
// clamped to [0, rotaryDim − 1]; pairs below ℓ are kept, above h interpolated).
// Defaults (l_f, h_f, β_fast, β_slow, truncate, L) are the package's, from its
// vocabulary.
//
// Pure module: no DOM, so Node tests can load it.
import { vocabulary } from 'sinpe.wasm';

const defaultsOf = (type) => vocabulary.ropeTypes.find((t) => t.name === type).defaults;

/** The dimension whose pair turns `turns` times within L positions (fractional). */
export function correctionDim(turns, rotaryDim, base, L) {
  return (rotaryDim * Math.log(L / (turns * 2 * Math.PI))) / (2 * Math.log(base));
}

/**
 * The thresholds of a scaling's package options over rotaryDim, or [] for a
 * type without any: [{ key: 'llama3High' | 'llama3Low', wavelength } |
 * { key: 'yarnLow' | 'yarnHigh', pair }] (pair: the correction range bound in
 * the ramp's own units, compared with the pair index j).
 */
export function scalingThresholds(options, rotaryDim) {
  const type = options.ropeType ?? 'default';
  if (type === 'llama3') {
    const d = defaultsOf('llama3');
    const L = options.originalMaxPositions ?? d.originalMaxPositions;
    return [
      { key: 'llama3High', wavelength: L / (options.highFreqFactor ?? d.highFreqFactor) },
      { key: 'llama3Low', wavelength: L / (options.lowFreqFactor ?? d.lowFreqFactor) },
    ];
  }
  if (type === 'yarn') {
    const d = defaultsOf('yarn');
    const L = options.originalMaxPositions ?? options.maxPositions;
    if (!L) return [];
    const base = options.base ?? 10000;
    const truncate = options.truncate ?? Boolean(d.truncate);
    let low = correctionDim(options.betaFast ?? d.betaFast, rotaryDim, base, L);
    let high = correctionDim(options.betaSlow ?? d.betaSlow, rotaryDim, base, L);
    if (truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
    return [
      { key: 'yarnLow', pair: Math.max(low, 0) },
      { key: 'yarnHigh', pair: Math.min(high, rotaryDim - 1) },
    ];
  }
  return [];
}

/**
 * The thresholds as chart marks: wavelength bounds as horizontal lines
 * (or, when the chart shows turns within L, at L/λ turns), correction range
 * bounds as vertical lines at the pair index; label(key, value) names each.
 * Marks at the same height share one line and one label.
 */
export function thresholdMarks(thresholds, { rotations = false, ctx, label }) {
  return thresholds.map((t) =>
    t.pair !== undefined
      ? { x: t.pair, label: label(t.key, t.pair), className: 'threshold', threshold: t.key }
      : { y: rotations ? ctx / t.wavelength : t.wavelength, label: label(t.key, t.wavelength), className: 'threshold', threshold: t.key },
  );
}

/** Marks at one height merged: one line, the labels joined (e.g. L and L/l_f when l_f = 1). */
export function mergeMarks(marks, join = ' = ') {
  const out = [];
  for (const m of marks) {
    const same = m.y !== undefined && out.find((o) => o.y !== undefined && Math.abs(o.y / m.y - 1) < 1e-12);
    if (same) {
      same.label = `${same.label}${join}${m.label}`;
      same.threshold = [same.threshold, m.threshold].filter(Boolean).join(' ');
    } else out.push({ ...m });
  }
  return out;
}
