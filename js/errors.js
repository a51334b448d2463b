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
  recipes: list(vocabulary.recipes),
  maxRopeAxes: vocabulary.limits.maxRopeAxes,
  maxDModel: vocabulary.limits.maxDModel,
  maxCount: 2 * vocabulary.limits.maxAbsPosition,
};

function show(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.length} values]`;
  return String(v);
}

const { create, assign, hasOwn } = Object;
const OPTION_NAMES = new Set(vocabulary.options.map((o) => o.name));

/**
 * The error for a non-ok status: its class and message from the vocabulary,
 * placeholders ({dModel}, {preset}, ...) filled from `context` (own properties
 * only: the call's own values, never anything inherited). An option's
 * placeholder ({base}, {lowFreqFactor}) is its given value, else its default
 * for the call's preset or rope type. The error carries `status` (the
 * vocabulary's status name) and `values` (placeholder → the text filled in).
 */
export function statusError(code, context) {
  const status = byCode.get(code);
  if (status === undefined) return new Error(`sinpe: internal status ${code}`);
  const values = assign(create(null), COMMON, context);
  const options = hasOwn(values, 'options') ? values.options : create(null);
  const given = (key) => hasOwn(options, key);
  // An option's own status: its given value.
  if (status.argument.startsWith('options.') && values.value === undefined) {
    const key = status.argument.slice('options.'.length);
    if (given(key)) values.value = options[key];
  }
  const rope = values.family === 'ropeType';
  const family = rope ? vocabulary.ropeTypes : vocabulary.presets;
  const entry = family.find((f) => f.name === values.familyName);
  if (entry) values.reads ??= entry.reads.join(', ') || 'none';
  values.family = rope ? 'ropeType' : 'preset';
  values.given ??= Object.keys(options)
    .filter((k) => OPTION_NAMES.has(k))
    .map((k) => `options.${k}`)
    .join(', ');
  const fill = (key) => {
    if (values[key] !== undefined) return values[key];
    if (!OPTION_NAMES.has(key)) return undefined;
    if (given(key)) return options[key];
    const fallback = entry && hasOwn(entry.defaults, key) ? entry.defaults[key] : null;
    return fallback === null ? undefined : fallback;
  };
  // What each placeholder became, as the message shows it: a caller (the
  // lesson site) words the same reason in another language from these.
  const shown = create(null);
  const message = status.message.replace(/\{(\w+)\}/g, (whole, key) => {
    const v = fill(key);
    if (v === undefined) return whole;
    shown[key] = key === 'value' || OPTION_NAMES.has(key) ? show(v) : String(v);
    return shown[key];
  });
  const error = new (CLASSES[status.error] ?? Error)(`sinpe: ${message}`);
  error.status = status.name;
  error.values = Object.freeze(shown);
  return error;
}

export { vocabulary };
