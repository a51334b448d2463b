// RoPE options from a Hugging Face config.json. Pure JavaScript: it reads the
// parsed file and returns { headDim, rotaryDim, options, layout } for
// pe.ropeCache, pe.ropeCacheRows, pe.ropeFrequencies and (with rotaryDim and
// layout) pe.applyRope, plus one { headDim, rotaryDim, options } per attention
// layer type when the model has per-layer-type parameters.
//
// What this file knows is where transformers keeps each value in a config.json
// and how it resolves them (modeling_rope_utils.py, RotaryEmbeddingConfigMixin
// of transformers v5: convert_rope_params_to_dict and standardize_rope_params,
// which also read the older layout):
// - a multimodal config keeps the language model's settings in text_config,
//   which is what the model reads when it is there
//   (PreTrainedConfig.get_text_config);
// - the RoPE parameters sit in `rope_scaling` (older files; the type key may be
//   spelled `type`) or `rope_parameters` (transformers v5, which also holds
//   rope_theta and may hold partial_rotary_factor); a non-empty rope_scaling
//   wins when a file has both; neither means 'default';
// - a parameters object whose keys are all layer types (from `layer_types`)
//   holds one set per layer type (standardize_rope_params, case 2);
// - Gemma 3 and 3n keep the sliding-window layers' base in
//   `rope_local_base_freq` beside `rope_theta` and rope_scaling for the full
//   layers (Gemma3TextConfig.convert_rope_params_to_dict);
// - rope_theta, max_position_embeddings and partial_rotary_factor sit at the
//   top level; original_max_position_embeddings inside the parameters or at
//   the top level (Phi-3), where it takes precedence;
// - head_dim, when present, is the head width (else hidden_size /
//   num_attention_heads); DeepSeek's MLA rotates only qk_rope_head_dim of it;
//   Gemma 4's full-attention layers are global_head_dim wide.
// Which sinpe option a config key feeds, the option's type and rule, and which
// options each rope type reads all come from the core's vocabulary, so the
// options returned are exactly those the rope type accepts. The rules that
// relate options (base > 1, an even rotary dimension, mrope_section's sum,
// low_freq_factor < high_freq_factor: vocabulary.def's SINPE_RULE table) are
// not checked here: the core checks the options read (`check`, given by the
// package), and a broken rule's status is worded with the config.json key of
// each option the rule binds.

import vocabulary from '../dist/sinpe-vocabulary.js';

// The option names a rope type reads (entries are names or { option } records).
const readNames = (ropeType) => ropeType.reads.map((r) => (typeof r === 'string' ? r : r.option));
const isArrayOption = (option) => option.type === 'numbers' || option.type === 'numberArray';
const optionNamed = (name) => vocabulary.options.find((o) => o.name === name);
const [ROPE_LAYOUT_HALF, ROPE_LAYOUT_INTERLEAVED] = ['half', 'interleaved'].map((name) => {
  if (!vocabulary.ropeLayouts.includes(name)) throw new Error(`sinpe: the vocabulary has no rope layout '${name}'`);
  return name;
});
const ROPE_AXES_INTERLEAVED = vocabulary.ropeAxes.find((name) => name === 'interleaved');

// Config keys that live at the top level of config.json rather than in the
// RoPE parameters object. original_max_position_embeddings may be in either;
// transformers gives the top-level one precedence for a single parameter set
// (Phi-3 keeps it there), while a per-layer-type set keeps its own
// (standardize_rope_params only fills it in with setdefault).
const TOP_LEVEL_KEYS = new Set(['max_position_embeddings']);
const EITHER_TOP_FIRST = new Set(['original_max_position_embeddings', 'partial_rotary_factor']);
const EITHER_OBJECT_FIRST = new Set(['rope_theta']); // v5 rope_parameters holds it; older files at the top

// Keys transformers requires for each rope type (its _validate_*_rope_parameters
// raise on a missing one) where sinpe would otherwise fall back to a default.
// original_max_position_embeddings is not among them: transformers fills it
// from max_position_embeddings.
const REQUIRED_BY_TRANSFORMERS = {
  linear: ['factor'],
  dynamic: ['factor', 'max_position_embeddings'],
  yarn: ['factor'],
  longrope: ['short_factor', 'long_factor'],
  llama3: ['factor', 'low_freq_factor', 'high_freq_factor'],
};

// Older spellings of rope types that transformers' config classes rename:
// Phi3Config turns the first Phi-3 releases' 'su' into 'longrope';
// Qwen2VLTextConfig turns Qwen2-VL's and Qwen2.5-VL's 'mrope' into 'default'
// (M-RoPE computes the default frequencies; mrope_section splits them).
const ROPE_TYPE_ALIASES = new Map([
  ['su', 'longrope'],
  ['mrope', 'default'],
]);

// Layer type names transformers uses for attention with RoPE parameters of
// their own (Gemma 3, Gemma 4, and every v5 config written per layer type).
const FULL_ATTENTION = 'full_attention';
const SLIDING_ATTENTION = 'sliding_attention';

// The config classes' own default bases where a per-layer-type model sets them
// (Gemma3TextConfig.default_theta, Gemma3nTextConfig.default_theta); every
// other class uses RotaryEmbeddingConfigMixin.default_theta, the vocabulary's
// default base.
const DEFAULT_THETAS = new Map(
  ['gemma3', 'gemma3_text', 'gemma3n', 'gemma3n_text'].map((t) => [t, { full: 1_000_000, sliding: 10_000 }]),
);

// Values a config class fills in when its file leaves them out, where they
// decide the RoPE widths: Gemma3TextConfig's defaults (google/gemma-3-4b-it's
// text_config names neither head_dim nor num_attention_heads, and its head
// width is head_dim's 256, not hidden_size / heads).
const CLASS_DEFAULTS = new Map(
  ['gemma3', 'gemma3_text'].map((t) => [
    t,
    { head_dim: 256, num_attention_heads: 8, hidden_size: 2304, max_position_embeddings: 131_072 },
  ]),
);

// Model types whose transformers code rotates interleaved pairs without a
// rope_interleave key in the file: DeepseekV2 multiplies complex pairs
// (modeling_deepseek_v2.apply_rotary_emb), DeepseekV3Config defaults
// rope_interleave to true (modeling_deepseek_v3.apply_rotary_pos_emb_interleave).
const INTERLEAVED_BY_DEFAULT = new Set(['deepseek_v2', 'deepseek_v3']);

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
// config.json's null means "not set" to transformers (`.get(key)` is None).
const present = (v) => v !== undefined && v !== null;
const show = (v) =>
  typeof v === 'string'
    ? `'${v}'`
    : Array.isArray(v)
      ? `an array of ${v.length}`
      : typeof v === 'object' && v !== null
        ? 'an object'
        : String(v);

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
// Levels: a config (or text_config) keeps CONFIG_KEYS; rope_scaling and
// rope_parameters keep every key (a key may be a layer type), a value that is
// a parameter set (a layer type's) keeps PARAMETER_KEYS.
const PARAMETER_KEYS = new Set([
  'rope_type',
  'type',
  'rope_theta',
  'partial_rotary_factor',
  'original_max_position_embeddings',
  'mrope_interleaved',
  ...vocabulary.options.map((o) => o.configKey).filter((k) => k),
]);
const CONFIG_KEYS = new Set([
  ...PARAMETER_KEYS,
  'model_type',
  'qk_rope_head_dim',
  'head_dim',
  'hidden_size',
  'num_attention_heads',
  'rope_interleave',
  'rope_local_base_freq',
  'layer_types',
  'num_hidden_layers',
  'sliding_window_pattern',
  'rope_scaling',
  'rope_parameters',
  'global_head_dim',
]);
const ELEMENT_LIMIT = vocabulary.limits.maxElements;
const LIMIT_TEXT = `2^${Math.log2(ELEMENT_LIMIT)}`;

function ownData(value, path, level, chain) {
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

// The error, with its reason in machine-readable form: `code` (which check),
// `configKey` (the key at fault, as the message writes it) and `values` (the
// other parts the message fills in, as it shows them), so a caller can word
// the same reason in another language.
function fail(ErrorClass, message, code, configKey, values) {
  const error = new ErrorClass(`sinpe: ${message}`);
  error.code = code;
  error.configKey = configKey;
  error.values = Object.freeze({ configKey, ...values });
  return error;
}

// A positive integer at `path`, or a TypeError / RangeError naming it.
function positiveInteger(value, path) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw fail(TypeError, `${path} must be a number, got ${show(value)}`, 'not_number', path, { value: show(value) });
  }
  if (!Number.isInteger(value) || value < 1) throw fail(RangeError, `${path} must be a positive integer, got ${value}`, 'not_positive_integer', path, { value: String(value) });
  return value;
}

function booleanAt(value, path) {
  if (typeof value !== 'boolean') throw fail(TypeError, `${path} must be true or false, got ${show(value)}`, 'not_boolean', path, { value: show(value) });
  return value;
}

// Checks a value against its vocabulary option's type and rule.
function checkValue(option, value, path, rotaryDim) {
  if (option.type === 'boolean') return booleanAt(value, path);
  if (isArrayOption(option)) {
    if (!Array.isArray(value)) throw fail(TypeError, `${path} must be an array of numbers, got ${show(value)}`, 'not_array', path, { value: show(value) });
    // Per-pair factors (rule positive) have one entry per pair; a section list
    // (mrope_section, rule count) is checked against the width below.
    if (option.rule === 'positive' && value.length !== rotaryDim / 2) {
      throw fail(RangeError, `${path} must have rotaryDim / 2 = ${rotaryDim / 2} entries, got ${value.length}`, 'wrong_length', path, {
        pairs: String(rotaryDim / 2),
        length: String(value.length),
      });
    }
    // A section list longer than any plan reads (the core's limit of
    // position axes) is refused by its length, before its elements are read
    // or copied for the core: the core's own status, worded as checkRules does.
    const most = vocabulary.limits.maxRopeAxes;
    if (option.rule === 'count' && value.length > most) {
      const shown = `${value.slice(0, most + 1).join(', ')}, … (${value.length} entries)`;
      const rule = RULE_OF_STATUS.get('mrope_section_sum');
      throw ruleError(rule, rotaryDim, { [rule.options[0]]: [shown] }, () => path, {}, { maxRopeAxes: String(most) });
    }
    value.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw fail(TypeError, `${path}[${i}] must be a number, got ${show(v)}`, 'element_not_number', path, { index: String(i), value: show(v) });
      }
      if (option.rule === 'count' && !(Number.isInteger(v) && v >= 1)) {
        throw fail(RangeError, `${path}[${i}] must be a positive integer, got ${v}`, 'element_not_integer', path, { index: String(i), value: String(v) });
      }
      if (!(v > 0)) throw fail(RangeError, `${path}[${i}] must be positive, got ${v}`, 'element_not_positive', path, { index: String(i), value: String(v) });
    });
    return value.slice();
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw fail(TypeError, `${path} must be a number, got ${show(value)}`, 'not_number', path, { value: show(value) });
  }
  if (option.rule === 'positive' && !(value > 0)) {
    throw fail(RangeError, `${path} must be a positive number, got ${value}`, 'not_positive', path, { value: String(value) });
  }
  const limit = vocabulary.limits.maxAbsPosition;
  if (option.rule === 'count' && !(Number.isInteger(value) && value >= 1 && value < limit)) {
    throw fail(RangeError, `${path} must be an integer in [1, ${limit}), got ${value}`, 'not_count', path, {
      limit: String(limit),
      value: String(value),
    });
  }
  return value;
}

// The rules of a RoPE plan, by the status a broken one is.
const RULE_OF_STATUS = new Map(vocabulary.rules.map((r) => [r.status, r]));
const STATUS_MESSAGE = new Map(vocabulary.statuses.map((s) => [s.name, s.message]));

// A value as a config message shows it: an array by its entries.
const shownValue = (v) => (Array.isArray(v) ? `[${v.join(', ')}]` : String(v));

/**
 * Asks the core whether `options` at `rotaryDim` keep every rule of the
 * vocabulary; a broken rule is thrown as the core's message for its status
 * with each bound option `options.<name>` replaced by the config key it came
 * from (`where(name)`): code = the status name, rule = the rule's name,
 * configKey = the first bound option's key (`width.configKey` for a rule of
 * the rotary dimension alone), values = the message's placeholders plus
 * `<name>Key` for each bound option. A status that is no rule's is left to the
 * call that uses the options (it names the option there).
 */
function checkRules(check, rotaryDim, options, where, width) {
  const error = check(rotaryDim, options);
  const rule = error === undefined ? undefined : RULE_OF_STATUS.get(error.status);
  if (rule !== undefined) throw ruleError(rule, rotaryDim, options, where, width, error.values);
}

// The error of a broken rule (see checkRules); coreValues: the core's values
// for placeholders that are not the config's (limits, names).
function ruleError(rule, rotaryDim, options, where, width, coreValues) {
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

// A parameter set as `key → { value, path }`, so that every value keeps the
// name of the config key it came from.
function entriesOf(object, path) {
  const out = Object.create(null);
  for (const key of Object.keys(object)) out[key] = { value: object[key], path: `${path}.${key}` };
  return out;
}
const valueOf = (entries, key) => (entries[key] ? entries[key].value : undefined);

// The rope type name a parameter set gives, with the key it sits under.
function ropeTypeOf(entries, fallbackPath) {
  const key = present(valueOf(entries, 'rope_type')) || !present(valueOf(entries, 'type')) ? 'rope_type' : 'type';
  const found = entries[key];
  return present(found?.value)
    ? { name: found.value, path: found.path }
    : { name: 'default', path: `${fallbackPath}.rope_type` };
}

// The vocabulary entry of a rope type name (undefined when sinpe computes no
// such type; the caller reports that).
function ropeTypeEntry(name) {
  if (typeof name !== 'string') return undefined;
  const canonical = ROPE_TYPE_ALIASES.get(name) ?? name;
  return vocabulary.ropeTypes.find((t) => t.name === canonical);
}

// The head width of the model (before any per-layer-type width).
function headWidth(config, at) {
  if (present(config.qk_rope_head_dim)) return positiveInteger(config.qk_rope_head_dim, `${at}.qk_rope_head_dim`);
  if (present(config.head_dim)) return positiveInteger(config.head_dim, `${at}.head_dim`);
  if (!present(config.hidden_size)) throw fail(TypeError, `${at}.hidden_size is missing (and there is no head_dim)`, 'missing_head_width', `${at}.hidden_size`, {});
  if (!present(config.num_attention_heads)) {
    throw fail(TypeError, `${at}.num_attention_heads is missing (and there is no head_dim)`, 'missing_head_width', `${at}.num_attention_heads`, {});
  }
  const hidden = positiveInteger(config.hidden_size, `${at}.hidden_size`);
  const heads = positiveInteger(config.num_attention_heads, `${at}.num_attention_heads`);
  if (hidden % heads !== 0) {
    throw fail(
      RangeError,
      `${at}.hidden_size (${hidden}) is not a multiple of ${at}.num_attention_heads (${heads}); ` +
        'the config needs a head_dim',
      'heads_not_divisor',
      `${at}.hidden_size`,
      { hidden: String(hidden), headsKey: `${at}.num_attention_heads`, heads: String(heads) },
    );
  }
  return hidden / heads;
}

// The rotation layout: DeepSeek's rope_interleave (or its model type's
// default) means pairs (2j, 2j + 1); everything else rotates halves.
// DeepseekV3's apply_rotary_pos_emb_interleave gathers the pairs into halves
// before rotating, so its rotated vector lists the same pairs in half order;
// dot products, which is what attention uses, are the same.
// Model types whose text rotary embedding interleaves the M-RoPE axes
// whatever mrope_interleaved says (Qwen3VLTextRotaryEmbedding.forward calls
// apply_interleaved_mrope unconditionally; Qwen3-VL-MoE's is generated from
// it).
const INTERLEAVED_MROPE_MODELS = new Set(['qwen3_vl', 'qwen3_vl_text', 'qwen3_vl_moe', 'qwen3_vl_moe_text']);

function layoutOf(config, at, modelType) {
  if (present(config.rope_interleave)) {
    return booleanAt(config.rope_interleave, `${at}.rope_interleave`) ? ROPE_LAYOUT_INTERLEAVED : ROPE_LAYOUT_HALF;
  }
  return INTERLEAVED_BY_DEFAULT.has(modelType) ? ROPE_LAYOUT_INTERLEAVED : ROPE_LAYOUT_HALF;
}

// The config's layer types, one per layer: `layer_types` when the file has
// it; for a Gemma 3 file without it, the pattern Gemma3TextConfig.__post_init__
// makes of sliding_window_pattern (default 6): every pattern-th layer full,
// the others sliding.
function layerList(config, at, gemmaStyle) {
  if (present(config.layer_types)) {
    const list = config.layer_types;
    if (!Array.isArray(list)) throw fail(TypeError, `${at}.layer_types must be an array of strings, got ${show(list)}`, 'not_string_array', `${at}.layer_types`, { value: show(list) });
    list.forEach((t, i) => {
      if (typeof t !== 'string') throw fail(TypeError, `${at}.layer_types[${i}] must be a string, got ${show(t)}`, 'element_not_string', `${at}.layer_types`, { index: String(i), value: show(t) });
    });
    return list.slice();
  }
  if (!gemmaStyle || !present(config.num_hidden_layers)) return undefined;
  const count = positiveInteger(config.num_hidden_layers, `${at}.num_hidden_layers`);
  const pattern = present(config.sliding_window_pattern)
    ? positiveInteger(config.sliding_window_pattern, `${at}.sliding_window_pattern`)
    : 6;
  return Array.from({ length: count }, (_, i) => ((i + 1) % pattern ? SLIDING_ATTENTION : FULL_ATTENTION));
}

// The object holding the RoPE parameters and its name, or null. A non-empty
// rope_scaling wins over rope_parameters, as in transformers v5
// (RotaryEmbeddingConfigMixin.convert_rope_params_to_dict:
// `self.rope_parameters = rope_scaling or self.rope_parameters`).
function ropeObject(config, at) {
  for (const key of ['rope_scaling', 'rope_parameters']) {
    const value = config[key];
    if (!present(value)) continue;
    if (!isObject(value)) throw fail(TypeError, `${at}.${key} must be an object or null, got ${show(value)}`, 'not_object', `${at}.${key}`, { value: show(value) });
    if (key === 'rope_scaling' && Object.keys(value).length === 0 && present(config.rope_parameters)) continue;
    return { object: value, path: `${at}.${key}` };
  }
  return null;
}

// Whether a parameters object holds one set per layer type: its keys are all
// layer types (standardize_rope_params, case 2). Without layer_types, a file
// keyed by full_attention / sliding_attention only is read the same way.
function isPerLayerType(object, layers) {
  const keys = Object.keys(object);
  if (keys.length === 0) return false;
  const known = layers ?? [FULL_ATTENTION, SLIDING_ATTENTION];
  return keys.every((k) => known.includes(k));
}

/**
 * The parameter sets of a config: one flat set, or one per layer type.
 * Returns { perType: false, set } or { perType: true, sets: Map(type → set) },
 * where a set is { entries, path, perType }.
 */
function parameterSets(config, at, layers, modelType, gemmaStyle) {
  const rope = ropeObject(config, at);
  const flat = (object, path) => ({ entries: entriesOf(object, path), path, perType: false });

  const perTypeFrom = (object, path) => {
    const sets = new Map();
    for (const type of Object.keys(object)) {
      const value = object[type];
      if (!present(value)) continue; // transformers skips a layer type whose parameters are None
      if (!isObject(value)) throw fail(TypeError, `${path}.${type} must be an object, got ${show(value)}`, 'layer_type_not_object', `${path}.${type}`, { value: show(value) });
      sets.set(type, { entries: entriesOf(value, `${path}.${type}`), path: `${path}.${type}`, perType: true });
    }
    return sets;
  };

  if (!gemmaStyle) {
    if (rope && isPerLayerType(rope.object, layers)) return { perType: true, sets: perTypeFrom(rope.object, rope.path) };
    return { perType: false, set: rope ? flat(rope.object, rope.path) : flat({}, `${at}.rope_scaling`) };
  }

  // Gemma 3 / 3n (Gemma3TextConfig.convert_rope_params_to_dict): rope_parameters
  // per layer type, or both layer types at 'default'; an old-style
  // rope_scaling updates the full-attention set; rope_theta fills in the full
  // set's base, rope_local_base_freq the sliding set's, else the class's
  // default bases.
  const parametersPath = `${at}.rope_parameters`;
  const parameters = config.rope_parameters;
  if (present(parameters) && !isObject(parameters)) {
    throw fail(TypeError, `${parametersPath} must be an object or null, got ${show(parameters)}`, 'not_object', parametersPath, { value: show(parameters) });
  }
  let sets;
  if (isObject(parameters) && isPerLayerType(parameters, layers)) sets = perTypeFrom(parameters, parametersPath);
  else if (isObject(parameters) && Object.keys(parameters).length > 0) {
    sets = new Map([[FULL_ATTENTION, { ...flat(parameters, parametersPath), perType: true }]]);
  } else sets = new Map();
  for (const type of [FULL_ATTENTION, SLIDING_ATTENTION]) {
    if (!sets.has(type)) {
      sets.set(type, { entries: Object.create(null), path: `${parametersPath}.${type}`, perType: true });
    }
  }
  const scaling = config.rope_scaling;
  if (present(scaling)) {
    if (!isObject(scaling)) throw fail(TypeError, `${at}.rope_scaling must be an object or null, got ${show(scaling)}`, 'not_object', `${at}.rope_scaling`, { value: show(scaling) });
    Object.assign(sets.get(FULL_ATTENTION).entries, entriesOf(scaling, `${at}.rope_scaling`));
  }
  // A file recognised as Gemma 3 by rope_local_base_freq alone gets
  // Gemma3TextConfig's defaults too.
  const defaults = DEFAULT_THETAS.get(modelType) ?? DEFAULT_THETAS.get('gemma3_text');
  const fillTheta = (type, key, fallback) => {
    const entries = sets.get(type).entries;
    if (present(valueOf(entries, 'rope_theta'))) return;
    if (present(config[key])) entries.rope_theta = { value: config[key], path: `${at}.${key}` };
    else if (fallback !== undefined) entries.rope_theta = { value: fallback, path: `${at}.${key}` };
  };
  fillTheta(FULL_ATTENTION, 'rope_theta', defaults?.full);
  fillTheta(SLIDING_ATTENTION, 'rope_local_base_freq', defaults?.sliding);
  return { perType: true, sets };
}

/**
 * One parameter set → { headDim, rotaryDim, options } (see the file comment).
 * `config` is the (text) config the set belongs to, `at` its path.
 */
function resolveSet(config, at, set, headDim, check) {
  const { entries, path: paramsPath, perType } = set;

  // Where a config key's value comes from, with the path that names it.
  const lookup = (key) => {
    const top = { value: config[key], path: `${at}.${key}` };
    const inner = entries[key] ?? { value: undefined, path: `${typeParent}.${key}` };
    let order = [inner];
    if (TOP_LEVEL_KEYS.has(key)) order = [top];
    else if (key === 'original_max_position_embeddings' && perType) order = [inner];
    else if (EITHER_TOP_FIRST.has(key)) order = [top, inner];
    else if (EITHER_OBJECT_FIRST.has(key)) order = [inner, top];
    return order.find((o) => present(o.value)) ?? { value: undefined, path: order[0].path };
  };

  // Rope type. A key the set lacks is named in the object that gave the rope
  // type (a Gemma 3 file's rope_scaling, merged into the full-attention set).
  const type = ropeTypeOf(entries, paramsPath);
  const typeParent = type.path.slice(0, type.path.lastIndexOf('.'));
  if (typeof type.name !== 'string') throw fail(TypeError, `${type.path} must be a string, got ${show(type.name)}`, 'not_string', type.path, { value: show(type.name) });
  const typeEntry = ropeTypeEntry(type.name);
  if (!typeEntry) {
    throw fail(
      RangeError,
      `${type.path} is '${type.name}', which sinpe does not compute; rope types: ` +
        vocabulary.ropeTypes.map((t) => t.name).join(', '),
      'unknown_rope_type',
      type.path,
      { value: type.name, ropeTypes: vocabulary.ropeTypes.map((t) => t.name).join(', ') },
    );
  }
  const ropeType = typeEntry.name;

  // partial_rotary_factor: top level first (transformers copies it into the
  // parameters, overwriting), then the v5 parameters object.
  const fractionFound = lookup('partial_rotary_factor');
  const fraction = present(fractionFound.value) ? fractionFound.value : 1;
  const fractionPath = fractionFound.path;
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) {
    throw fail(TypeError, `${fractionPath} must be a number, got ${show(fraction)}`, 'not_number', fractionPath, { value: show(fraction) });
  }
  if (!(fraction > 0 && fraction <= 1)) throw fail(RangeError, `${fractionPath} must be in (0, 1], got ${fraction}`, 'not_fraction', fractionPath, { value: String(fraction) });
  // A rope type that reads the fraction itself (proportional: exponents over
  // the whole head, the pairs beyond the fraction unrotated) gets the whole
  // head width; the others rotate the first floor(headDim * fraction) channels.
  const readsFraction = readNames(typeEntry).includes('partialRotaryFactor');
  const rotaryDim = readsFraction ? headDim : Math.floor(headDim * fraction);
  // The rotary dimension as a rule's message names it (no option holds it).
  const width = { configKey: fractionPath, rotaryDimName: `${fractionPath} (${fraction}) × ${headDim}` };

  for (const key of REQUIRED_BY_TRANSFORMERS[ropeType] ?? []) {
    const found = lookup(key);
    if (!present(found.value)) throw fail(TypeError, `${found.path} is missing (rope type '${ropeType}' needs it)`, 'missing', found.path, { ropeType });
  }

  const options = { ropeType };
  const paths = {};
  for (const name of readNames(typeEntry)) {
    const option = optionNamed(name);
    if (!option || !option.configKey) continue;
    const found = lookup(option.configKey);
    if (!present(found.value)) continue;
    options[name] = checkValue(option, found.value, found.path, rotaryDim);
    paths[name] = found.path;
  }
  // transformers fills a missing original_max_position_embeddings from
  // max_position_embeddings; llama3 does not read maxPositions, so pass it on.
  if (ropeType === 'llama3' && options.originalMaxPositions === undefined && present(config.max_position_embeddings)) {
    options.originalMaxPositions = checkValue(
      optionNamed('originalMaxPositions'),
      config.max_position_embeddings,
      `${at}.max_position_embeddings`,
      rotaryDim,
    );
    paths.originalMaxPositions = `${at}.max_position_embeddings`;
  }

  // Multi-axis RoPE: mrope_section gives the pairs per position axis;
  // mrope_interleaved (Qwen3-VL, Qwen3.5) spreads the axes over the pairs
  // (Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope) instead of giving
  // each a contiguous block.
  const interleavedFound = lookup('mrope_interleaved');
  if (present(interleavedFound.value) && booleanAt(interleavedFound.value, interleavedFound.path)) {
    if (options.mropeSection === undefined) {
      throw fail(RangeError, `${interleavedFound.path} is true but ${paramsPath}.mrope_section is missing`, 'mrope_section_missing', interleavedFound.path, {
        sectionKey: `${paramsPath}.mrope_section`,
      });
    }
    options.ropeAxes = ROPE_AXES_INTERLEAVED;
  }

  // The rules relating the options (vocabulary.def's SINPE_RULE table), as
  // the core checks them.
  const where = (name) => paths[name] ?? lookup(optionNamed(name).configKey).path;
  checkRules(check, rotaryDim, options, where, width);
  return { headDim, rotaryDim, options };
}

/**
 * RoPE options from a model's parsed config.json (see the file comment).
 * Returns { headDim, rotaryDim, options, layout } where options holds ropeType
 * and only the options that rope type reads (plus ropeAxes for interleaved
 * M-RoPE), and layout is 'interleaved' or 'half'. With per-layer-type
 * parameters it adds layerTypes: { [layerType]: { headDim, rotaryDim,
 * options } }, and the top-level fields are full_attention's (else the first
 * layer type's that has a set). layers is the config's layer_types when it has
 * one. Throws a TypeError or RangeError whose message names the config key at
 * fault. check(rotaryDim, options) is the core's verdict on the options of one
 * parameter set: undefined, or the package's error for the status the core
 * gave (error.status, error.values).
 */
export function ropeOptionsFromConfig(config, check) {
  if (!isObject(config)) throw fail(TypeError, `config must be a parsed config.json object, got ${show(config)}`, 'not_config', 'config', { value: show(config) });
  config = ownData(config, 'config', 'outer', []);
  let at = 'config';
  const outerModelType = config.model_type;
  if (present(config.text_config)) {
    if (!isObject(config.text_config)) {
      throw fail(TypeError, `config.text_config must be an object, got ${show(config.text_config)}`, 'text_config_not_object', 'config.text_config', { value: show(config.text_config) });
    }
    config = config.text_config;
    at = 'config.text_config';
  }
  const modelType = typeof config.model_type === 'string' ? config.model_type : outerModelType;
  for (const [key, value] of Object.entries(CLASS_DEFAULTS.get(modelType) ?? {})) {
    if (!present(config[key])) config[key] = value;
  }

  const baseHeadDim = headWidth(config, at);
  const layout = layoutOf(config, at, modelType);
  const gemmaStyle = present(config.rope_local_base_freq) || DEFAULT_THETAS.has(modelType);
  const layers = layerList(config, at, gemmaStyle);
  const found = parameterSets(config, at, layers, modelType, gemmaStyle);

  const resolve = (set, headDim) => {
    const read = resolveSet(config, at, set, headDim, check);
    if (INTERLEAVED_MROPE_MODELS.has(modelType) && read.options.mropeSection !== undefined) {
      read.options.ropeAxes = ROPE_AXES_INTERLEAVED;
    }
    return read;
  };
  if (!found.perType) {
    const read = resolve(found.set, baseHeadDim);
    return { ...read, layout, ...(layers ? { layers } : {}) };
  }

  // Gemma 4 makes its full-attention layers global_head_dim wide
  // (Gemma4TextAttention; Gemma4TextRotaryEmbedding passes
  // head_dim_key='global_head_dim' for them).
  const globalHeadDim = present(config.global_head_dim)
    ? positiveInteger(config.global_head_dim, `${at}.global_head_dim`)
    : undefined;
  // Keyed by the file's strings: a null-prototype object, so that a layer type
  // named `__proto__` (or `constructor`) is an own key like any other.
  const layerTypes = Object.create(null);
  for (const [type, set] of found.sets) {
    const headDim = type === FULL_ATTENTION && globalHeadDim !== undefined ? globalHeadDim : baseHeadDim;
    layerTypes[type] = resolve(set, headDim);
  }
  const names = Object.keys(layerTypes);
  const main =
    layerTypes[FULL_ATTENTION] ??
    layerTypes[(layers ?? []).find((t) => layerTypes[t] !== undefined)] ??
    layerTypes[names[0]];
  if (main === undefined) throw fail(RangeError, `${at}.rope_parameters holds no parameters for any layer type`, 'no_layer_parameters', `${at}.rope_parameters`, {});
  const copy = (read) => ({ headDim: read.headDim, rotaryDim: read.rotaryDim, options: { ...read.options } });
  const copies = Object.create(null);
  for (const t of names) copies[t] = copy(layerTypes[t]);
  return {
    ...copy(main),
    layout,
    layerTypes: copies,
    ...(layers ? { layers } : {}),
  };
}
