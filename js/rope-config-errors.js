// The errors of ropeOptionsFromConfig (js/rope-config.js): `fail`, an error
// with its reason in machine-readable form, and the core's refusal of a
// parameter set (the status of a broken rule of vocabulary.def's SINPE_RULE
// table) worded with the config.json key path of each option the rule binds.

import vocabulary from '../dist/sinpe-vocabulary.js';

// A value as a message shows it.
export const show = (v) =>
  typeof v === 'string'
    ? `'${v}'`
    : Array.isArray(v)
      ? `an array of ${v.length}`
      : typeof v === 'object' && v !== null
        ? 'an object'
        : String(v);

// The error, with its reason in machine-readable form: `code` (which check),
// `configKey` (the key at fault, as the message writes it) and `values` (the
// other parts the message fills in, as it shows them), so a caller can word
// the same reason in another language.
export function fail(ErrorClass, message, code, configKey, values) {
  const error = new ErrorClass(`sinpe: ${message}`);
  error.code = code;
  error.configKey = configKey;
  error.values = Object.freeze({ configKey, ...values });
  return error;
}

// The rules of a RoPE plan, by the status a broken one is.
export const RULE_OF_STATUS = new Map(vocabulary.rules.map((r) => [r.status, r]));
const STATUS_MESSAGE = new Map(vocabulary.statuses.map((s) => [s.name, s.message]));

// A value as a config message shows it: an array by its entries, a long one
// by its first SHOWN entries and its length.
const SHOWN = 8;
const shownValue = (v) => {
  if (!Array.isArray(v)) return String(v);
  return v.length <= SHOWN ? `[${v.join(', ')}]` : `[${v.slice(0, SHOWN).join(', ')}, … (${v.length} entries)]`;
};

// The option whose value a status refuses (its bad_<option> status, the one
// whose argument names it), by status name.
export const OPTION_OF_STATUS = new Map(
  vocabulary.options.map((o) => [vocabulary.statuses.find((s) => s.name.startsWith('bad_') && s.argument === `options.${o.name}`).name, o.name]),
);
const STATUS_OF_OPTION = new Map([...OPTION_OF_STATUS].map(([status, name]) => [name, status]));

/**
 * The refusal of a config value against its option's rule (the core's
 * verdict): the core's message for the option's bad_<option> status with
 * `options.<name>` replaced by the config key path. code = the status name;
 * values: configKey, value or element (as the message shows them), pairs.
 * `coreValues`: the core's own values for an array option (element: which
 * entry, pairs: how many the width wants).
 */
export function valueError(name, path, value, coreValues = {}) {
  const status = STATUS_OF_OPTION.get(name);
  const own = (text) => String(text).replaceAll(`options.${name}`, path);
  const values = {};
  const message = STATUS_MESSAGE.get(status)
    .replaceAll(`options.${name}`, '{configKey}')
    .replace(/\{(\w+)\}/g, (whole, key) => {
      let v;
      if (key === 'configKey') return path;
      if (key === 'value') v = shownValue(value);
      else if (coreValues[key] !== undefined) v = own(coreValues[key]);
      if (v === undefined) return whole;
      values[key] = v;
      return v;
    });
  return fail(RangeError, message, status, path, values);
}

/**
 * Asks the core whether `options` at `rotaryDim` are accepted: each value
 * against its option's rule, then every rule of the vocabulary. A refused
 * value is thrown as valueError (the config key it came from: `where(name)`);
 * a broken rule as the core's message for its status with each bound option
 * `options.<name>` replaced by the config key it came from: code = the status
 * name, rule = the rule's name, configKey = the first bound option's key
 * (`width.configKey` for a rule of the rotary dimension alone), values = the
 * message's placeholders plus `<name>Key` for each bound option. Any other
 * status is left to the call that uses the options (it names the option there).
 */
export function checkRules(check, rotaryDim, options, where, width) {
  const error = check.plan(rotaryDim, options);
  if (error === undefined) return;
  const name = OPTION_OF_STATUS.get(error.status);
  if (name !== undefined) throw valueError(name, where(name), options[name], error.values);
  const rule = RULE_OF_STATUS.get(error.status);
  if (rule !== undefined) throw ruleError(rule, rotaryDim, options, where, width, error.values);
}

// The error of a broken rule (see checkRules); coreValues: the core's values
// for placeholders that are not the config's (limits, names).
export function ruleError(rule, rotaryDim, options, where, width, coreValues) {
  const keys = Object.fromEntries(rule.options.map((name) => [`${name}Key`, where(name)]));
  const configKey = rule.options.length > 0 ? where(rule.options[0]) : width.configKey;
  const bound = rule.options[0];
  const values = {};
  let message = STATUS_MESSAGE.get(rule.status);
  for (const name of rule.options) message = message.replaceAll(`options.${name}`, `{${name}Key}`);
  message = message.replace(/\{(\w+)\}/g, (whole, key) => {
    let v;
    if (Object.hasOwn(keys, key)) v = keys[key];
    else if (key === 'rotaryDimName') v = width.rotaryDimName;
    else if (key === 'rotaryDim') v = String(rotaryDim);
    else if (key === 'value' && bound !== undefined) v = shownValue(options[bound]);
    else if (Object.hasOwn(options, key)) v = shownValue(options[key]);
    else if (coreValues[key] !== undefined) v = coreValues[key];
    if (v === undefined) return whole;
    values[key] = v;
    return v;
  });
  const error = fail(RangeError, message, rule.status, configKey, values);
  error.rule = rule.name;
  return error;
}
