// The values ropeOptionsFromConfig (js/rope-config.js) reads from a config:
// the config's own data (ownData), and each value checked by its vocabulary
// option's type, the errors naming the config key path at fault (its rule is
// the core's: rope-config-errors.js).

import vocabulary from '../dist/sinpe-vocabulary.js';
import { CONFIG_KEYS, PARAMETER_KEYS } from './rope-config-keys.js';
import { fail, show } from './rope-config-errors.js';

const isArrayOption = (option) => option.type === 'numberArray';
export const optionNamed = (name) => vocabulary.options.find((o) => o.name === name);
export const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
// config.json's null means "not set" to transformers (`.get(key)` is None).
export const present = (v) => v !== undefined && v !== null;

// The parts of the config the reader uses, as plain data: each object's own
// enumerable string keys (the rule the package applies to every options
// object: inherited properties, from a prototype or a polluted
// Object.prototype, are not config keys), each value read once, objects
// without a prototype (a key named `__proto__`, as JSON.parse makes it, stays
// an own key). Only the keys the reader needs are read, so a cycle or a huge
// value anywhere else is irrelevant; an array's length is checked against the
// result limit before any element is read; an object the reader needs that
// refers back to one enclosing it is refused.
//
// Levels: see CONFIG_KEYS and PARAMETER_KEYS (js/rope-config-keys.js).
const ELEMENT_LIMIT = vocabulary.limits.maxElements;
// No array option longer than this is read by the core (the package sends its
// length alone: numberArrayArg in js/args.js), so no element of a longer one is checked here.
const ARRAY_READ_LIMIT = vocabulary.limits.maxDModel;
const LIMIT_TEXT = `2^${Math.log2(ELEMENT_LIMIT)}`;

export function ownData(value, path, level, chain) {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    if (!(n <= ELEMENT_LIMIT)) {
      throw fail(RangeError, `${path} has ${n} entries, more than the ${LIMIT_TEXT} of one result`, 'too_long', path, {
        length: String(n),
        limit: LIMIT_TEXT,
      });
    }
    // Elements are numbers or strings: copied up to the first that is not
    // (kept as it is, for its check to name; nothing is read from it).
    const out = [];
    for (let i = 0; i < n; i++) {
      const v = value[i];
      out.push(v);
      if (typeof v !== 'number' && typeof v !== 'string') break;
    }
    out.length = n; // the rest, never read, as holes
    return out;
  }
  if (level === 'value') return value; // an object where a number belongs: its check names it
  if (chain.includes(value)) {
    throw fail(RangeError, `${path} refers back to an object enclosing it (a cycle)`, 'cycle', path, {});
  }
  const out = Object.create(null);
  const inner = [...chain, value];
  for (const key of Object.keys(value)) {
    const keep =
      level === 'parameters' ||
      (level === 'set' ? PARAMETER_KEYS.has(key) : CONFIG_KEYS.has(key) || (level === 'outer' && key === 'text_config'));
    if (!keep) continue;
    let next = 'value';
    if (level === 'parameters') next = PARAMETER_KEYS.has(key) ? 'value' : 'set';
    else if (key === 'rope_scaling' || key === 'rope_parameters') next = 'parameters';
    else if (key === 'text_config') next = 'config';
    out[key] = ownData(value[key], `${path}.${key}`, next, inner);
  }
  return out;
}

// A positive integer at `path`, or a TypeError / RangeError naming it.
export function positiveInteger(value, path) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw fail(TypeError, `${path} must be a number, got ${show(value)}`, 'not_number', path, { value: show(value) });
  }
  if (!Number.isInteger(value) || value < 1) throw fail(RangeError, `${path} must be a positive integer, got ${value}`, 'not_positive_integer', path, { value: String(value) });
  return value;
}

export function booleanAt(value, path) {
  if (typeof value !== 'boolean') throw fail(TypeError, `${path} must be true or false, got ${show(value)}`, 'not_boolean', path, { value: show(value) });
  return value;
}

// Checks a value against its vocabulary option's type: a boolean, a finite
// number, or an array of finite numbers (copied). Whether it follows the
// option's rule (positive, count, fraction, the entries per pair, ...) is the
// core's to say when the options are planned (checkRules).
export function checkValue(option, value, path) {
  if (option.type === 'boolean') return booleanAt(value, path);
  if (isArrayOption(option)) {
    if (!Array.isArray(value)) throw fail(TypeError, `${path} must be an array of numbers, got ${show(value)}`, 'not_array', path, { value: show(value) });
    if (value.length > ARRAY_READ_LIMIT) return value; // refused by the core for its length
    value.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw fail(TypeError, `${path}[${i}] must be a number, got ${show(v)}`, 'element_not_number', path, { index: String(i), value: show(v) });
      }
    });
    return value.slice();
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw fail(TypeError, `${path} must be a number, got ${show(value)}`, 'not_number', path, { value: show(value) });
  }
  return value;
}
