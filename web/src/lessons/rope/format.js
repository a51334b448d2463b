// Number forms shared by the sections of the RoPE lesson.
import { formatInteger, formatSignificant } from '../../lib/numbers.js';
import { scalingThresholds, thresholdMarks } from '../../model/rope-thresholds.js';

export const DEG = 180 / Math.PI;
export const wrapAngle = (a) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
export const sci = (v) => (v === 0 ? '0' : v.toExponential(1).replace(/-/g, '−'));
// wavelengths: one decimal below 1000 positions, whole positions above, grouped like every integer of the page (never exponent notation)
export const wavelengthText = (v) => (v < 1000 ? v.toFixed(1) : formatInteger(Math.round(v)));

/** The lesson's strings: lessons.rope.<key>. */
export const strings = (ctx) => (key, vars) => ctx.t(`lessons.rope.${key}`, vars);

/** A chart's figure export: title, caption naming the parameters, file name. */
export const figure = (L, key, caption, name) => ({ title: () => L(`${key}Title`), caption, name });

/** A threshold's value as its label writes it: whole numbers grouped, others to 6 significant digits. */
export const thresholdValue = (v) => (Number.isInteger(v) ? formatInteger(v) : formatSignificant(v, 6));

/** The chart marks of the llama3 and YaRN thresholds of these options, labelled in the page's language. */
export function thresholdMarksOf(L, options, rotaryDim, { rotations = false, ctx } = {}) {
  const label = (key, v) => (rotations && key.startsWith('llama3') ? L(`thresholdTurns.${key}`, { value: thresholdValue(ctx / v) }) : L(`threshold.${key}`, { value: thresholdValue(v) }));
  return thresholdMarks(scalingThresholds(options, rotaryDim), { rotations, ctx, label });
}
