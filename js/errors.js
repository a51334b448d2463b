// Status codes of the core as JavaScript errors. Every code, its error class,
// the argument it names and its message template come from the vocabulary the
// build generates from cpp/include/sinpe/vocabulary.def; this file only fills
// the templates with the call's own values.
import vocabulary from '../dist/sinpe-vocabulary.js';

const byCode = new Map(vocabulary.statuses.map((s) => [s.code, s]));
const CLASSES = { RangeError, TypeError };
const list = (names) => names.map((n) => `'${n}'`).join(', ');

// Values every message may use.
const COMMON = {
  presets: list(vocabulary.presets.map((p) => p.name)),
  layouts: list(vocabulary.layouts),
  ropeTypes: list(vocabulary.ropeTypes.map((t) => t.name)),
  ropeLayouts: list(vocabulary.ropeLayouts),
  ropeAxesNames: list(vocabulary.ropeAxes),
  dtypes: list(vocabulary.dtypes),
  maxRopeAxes: vocabulary.limits.maxRopeAxes,
  maxDModel: vocabulary.limits.maxDModel,
  maxCount: 2 * vocabulary.limits.maxAbsPosition,
};

function show(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.length} values]`;
  return String(v);
}

/**
 * The error for a non-ok status: its class and message from the vocabulary,
 * placeholders ({dModel}, {preset}, ...) filled from `context`.
 */
export function statusError(code, context) {
  const status = byCode.get(code);
  if (status === undefined) return new Error(`sinpe: internal status ${code}`);
  const values = { ...COMMON, ...context };
  const options = context.options ?? {};
  // An option's own status: its given value.
  if (status.argument.startsWith('options.') && values.value === undefined)
    values.value = options[status.argument.slice('options.'.length)];
  const family = context.family === 'ropeType' ? vocabulary.ropeTypes : vocabulary.presets;
  const entry = family.find((f) => f.name === context.familyName);
  if (entry) values.reads ??= entry.reads.join(', ') || 'none';
  values.family = context.family === 'ropeType' ? 'ropeType' : 'preset';
  values.given ??= Object.keys(options)
    .filter((k) => vocabulary.options.some((o) => o.name === k))
    .map((k) => `options.${k}`)
    .join(', ');
  const message = status.message.replace(/\{(\w+)\}/g, (whole, key) =>
    values[key] === undefined ? whole : key === 'value' || key === 'base' ? show(values[key]) : String(values[key]),
  );
  return new (CLASSES[status.error] ?? Error)(`sinpe: ${message}`);
}

export { vocabulary };
