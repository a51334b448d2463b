// RoPE options from a Hugging Face config.json. Pure JavaScript: it reads the
// parsed file and returns { headDim, rotaryDim, options } for pe.ropeCache,
// pe.ropeCacheRows, pe.ropeFrequencies and (with rotaryDim) pe.applyRope.
//
// What this file knows is where transformers keeps each value in a config.json
// and how it resolves them (modeling_rope_utils.py, RotaryEmbeddingConfigMixin
// of transformers v5, which also reads the older layout):
// - the RoPE parameters sit in `rope_scaling` (older files; the type key may be
//   spelled `type`) or `rope_parameters` (transformers v5, which also holds
//   rope_theta and may hold partial_rotary_factor); a non-empty rope_scaling
//   wins when a file has both; neither means 'default';
// - rope_theta, max_position_embeddings and partial_rotary_factor sit at the
//   top level; original_max_position_embeddings inside the parameters or at
//   the top level (Phi-3), where it takes precedence;
// - head_dim, when present, is the head width (else hidden_size /
//   num_attention_heads); DeepSeek's MLA rotates only qk_rope_head_dim of it.
// Which sinpe option a config key feeds, the option's type and rule, and which
// options each rope type reads all come from the core's vocabulary, so the
// options returned are exactly those the rope type accepts.

import vocabulary from '../dist/sinpe-vocabulary.js';

// The option names a rope type reads (entries are names or { option } records).
const readNames = (ropeType) => ropeType.reads.map((r) => (typeof r === 'string' ? r : r.option));
const isArrayOption = (option) => option.type === 'numbers' || option.type === 'numberArray';

// Config keys that live at the top level of config.json rather than in the
// RoPE parameters object. original_max_position_embeddings may be in either;
// transformers gives the top-level one precedence (Phi-3 keeps it there).
const TOP_LEVEL_KEYS = new Set(['max_position_embeddings']);
const EITHER_TOP_FIRST = new Set(['original_max_position_embeddings']);
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
// Phi3Config turns the first Phi-3 releases' 'su' into 'longrope'.
const ROPE_TYPE_ALIASES = new Map([['su', 'longrope']]);

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

// The config as plain data: each object's own enumerable string keys (the
// rule the package applies to every options object: inherited properties,
// from a prototype or a polluted Object.prototype, are not config keys), each
// value read once, objects without a prototype. Shared or cyclic objects are
// copied once per path and refused beyond a sane depth.
function ownData(value, depth = 0) {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 64) throw fail(RangeError, 'config is nested more than 64 levels deep', 'too_deep', 'config', {});
  if (Array.isArray(value)) {
    const out = [];
    for (let i = 0; i < value.length; i++) out.push(ownData(value[i], depth + 1));
    return out;
  }
  const out = Object.create(null);
  for (const key of Object.keys(value)) out[key] = ownData(value[key], depth + 1);
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
  if (!Number.isInteger(value) || value < 1) {
    throw fail(RangeError, `${path} must be a positive integer, got ${value}`, 'not_positive_integer', path, { value: String(value) });
  }
  return value;
}

// Checks a value against its vocabulary option's type and rule.
function checkValue(option, value, path, rotaryDim) {
  if (option.type === 'boolean') {
    if (typeof value !== 'boolean') throw fail(TypeError, `${path} must be true or false, got ${show(value)}`, 'not_boolean', path, { value: show(value) });
    return value;
  }
  if (isArrayOption(option)) {
    if (!Array.isArray(value)) throw fail(TypeError, `${path} must be an array of numbers, got ${show(value)}`, 'not_array', path, { value: show(value) });
    // Per-pair factors (rule positive) have one entry per pair; a section list
    // (mrope_section, rule count) is checked against the width by the core.
    if (option.rule === 'positive' && value.length !== rotaryDim / 2) {
      throw fail(RangeError, `${path} must have rotaryDim / 2 = ${rotaryDim / 2} entries, got ${value.length}`, 'wrong_length', path, {
        pairs: String(rotaryDim / 2),
        length: String(value.length),
      });
    }
    value.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw fail(TypeError, `${path}[${i}] must be a number, got ${show(v)}`, 'element_not_number', path, { index: String(i), value: show(v) });
      }
      if (!(v > 0)) {
        throw fail(RangeError, `${path}[${i}] must be positive, got ${v}`, 'element_not_positive', path, { index: String(i), value: String(v) });
      }
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

// The vocabulary entry of the rope type params names (undefined when it names
// none sinpe computes; the caller reports that).
function ropeTypeEntry(params) {
  const typeName = present(params.rope_type) ? params.rope_type : present(params.type) ? params.type : 'default';
  const name = ROPE_TYPE_ALIASES.get(typeName) ?? typeName;
  return vocabulary.ropeTypes.find((t) => t.name === name);
}

// The object holding the RoPE parameters and its name, or null. A non-empty
// rope_scaling wins over rope_parameters, as in transformers v5
// (RotaryEmbeddingConfigMixin.convert_rope_params_to_dict:
// `self.rope_parameters = rope_scaling or self.rope_parameters`).
function ropeObject(config, at) {
  for (const key of ['rope_scaling', 'rope_parameters']) {
    const value = config[key];
    if (!present(value)) continue;
    if (!isObject(value)) {
      throw fail(TypeError, `${at}.${key} must be an object or null, got ${show(value)}`, 'not_object', `${at}.${key}`, { value: show(value) });
    }
    if (key === 'rope_scaling' && Object.keys(value).length === 0 && present(config.rope_parameters)) continue;
    // transformers v5 allows one parameter set per attention layer type.
    const layerTypes = Array.isArray(config.layer_types) ? config.layer_types : [];
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((k) => layerTypes.includes(k) && isObject(value[k]))) {
      throw fail(
        RangeError,
        `${at}.${key} holds one set of RoPE parameters per layer type (${keys.join(', ')}); ` +
          `pass a config whose ${key} is one of them`,
        'per_layer_type',
        `${at}.${key}`,
        { layerTypes: keys.join(', '), key },
      );
    }
    return { object: value, path: `${at}.${key}` };
  }
  return null;
}

/**
 * RoPE options from a model's parsed config.json (see the file comment).
 * Returns { headDim, rotaryDim, options } where options holds ropeType and
 * only the options that rope type reads. Throws a TypeError or RangeError
 * whose message names the config key at fault.
 */
export function ropeOptionsFromConfig(config) {
  if (!isObject(config)) {
    throw fail(TypeError, `config must be a parsed config.json object, got ${show(config)}`, 'not_config', 'config', { value: show(config) });
  }
  config = ownData(config);
  let at = 'config';
  // Multimodal configs keep the language model's settings in text_config.
  if (!present(config.num_attention_heads) && !present(config.head_dim) && isObject(config.text_config)) {
    config = config.text_config;
    at = 'config.text_config';
  }

  // Head width and rotary width.
  let headDim;
  if (present(config.qk_rope_head_dim)) {
    headDim = positiveInteger(config.qk_rope_head_dim, `${at}.qk_rope_head_dim`);
  } else if (present(config.head_dim)) {
    headDim = positiveInteger(config.head_dim, `${at}.head_dim`);
  } else {
    if (!present(config.hidden_size)) {
      throw fail(TypeError, `${at}.hidden_size is missing (and there is no head_dim)`, 'missing_head_width', `${at}.hidden_size`, {});
    }
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
    headDim = hidden / heads;
  }

  const rope = ropeObject(config, at);
  const params = rope ? rope.object : {};
  const paramsPath = rope ? rope.path : `${at}.rope_scaling`;

  // partial_rotary_factor: top level first (transformers copies it into the
  // parameters, overwriting), then the v5 parameters object.
  let fraction = 1;
  let fractionPath = `${at}.partial_rotary_factor`;
  if (present(config.partial_rotary_factor)) fraction = config.partial_rotary_factor;
  else if (present(params.partial_rotary_factor)) {
    fraction = params.partial_rotary_factor;
    fractionPath = `${paramsPath}.partial_rotary_factor`;
  }
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) {
    throw fail(TypeError, `${fractionPath} must be a number, got ${show(fraction)}`, 'not_number', fractionPath, { value: show(fraction) });
  }
  if (!(fraction > 0 && fraction <= 1)) {
    throw fail(RangeError, `${fractionPath} must be in (0, 1], got ${fraction}`, 'not_fraction', fractionPath, { value: String(fraction) });
  }
  // A rope type that reads the fraction itself (proportional: exponents over
  // the whole head, the pairs beyond the fraction unrotated) gets the whole
  // head width; the others rotate the first floor(headDim * fraction) channels.
  const typeForWidth = ropeTypeEntry(params);
  const readsFraction = typeForWidth !== undefined && readNames(typeForWidth).includes('partialRotaryFactor');
  const rotaryDim = readsFraction ? headDim : Math.floor(headDim * fraction);
  if (rotaryDim < 2 || rotaryDim % 2 !== 0) {
    throw fail(
      RangeError,
      `${fractionPath} (${fraction}) × head width ${headDim} gives a rotary dimension of ${rotaryDim}; ` +
        'it must be even and at least 2',
      'bad_rotary_dim',
      fractionPath,
      { fraction: String(fraction), headDim: String(headDim), rotaryDim: String(rotaryDim) },
    );
  }

  // Rope type.
  let typeKey = 'rope_type';
  if (!present(params.rope_type) && present(params.type)) typeKey = 'type';
  const typeName = present(params[typeKey]) ? params[typeKey] : 'default';
  if (typeof typeName !== 'string') {
    throw fail(TypeError, `${paramsPath}.${typeKey} must be a string, got ${show(typeName)}`, 'not_string', `${paramsPath}.${typeKey}`, {
      value: show(typeName),
    });
  }
  const ropeType = ROPE_TYPE_ALIASES.get(typeName) ?? typeName;
  const typeEntry = vocabulary.ropeTypes.find((t) => t.name === ropeType);
  if (!typeEntry) {
    throw fail(
      RangeError,
      `${paramsPath}.${typeKey} is '${typeName}', which sinpe does not compute; rope types: ` +
        vocabulary.ropeTypes.map((t) => t.name).join(', '),
      'unknown_rope_type',
      `${paramsPath}.${typeKey}`,
      { value: typeName, ropeTypes: vocabulary.ropeTypes.map((t) => t.name).join(', ') },
    );
  }

  // Where a config key's value comes from, with the path that names it.
  const lookup = (key) => {
    const top = { value: config[key], path: `${at}.${key}` };
    const inner = { value: params[key], path: `${paramsPath}.${key}` };
    let order = [inner];
    if (TOP_LEVEL_KEYS.has(key)) order = [top];
    else if (EITHER_TOP_FIRST.has(key)) order = [top, inner];
    else if (EITHER_OBJECT_FIRST.has(key)) order = [inner, top];
    return order.find((o) => present(o.value)) ?? { value: undefined, path: order[0].path };
  };

  for (const key of REQUIRED_BY_TRANSFORMERS[ropeType] ?? []) {
    const found = lookup(key);
    if (!present(found.value)) {
      throw fail(TypeError, `${found.path} is missing (rope type '${ropeType}' needs it)`, 'missing', found.path, { ropeType });
    }
  }

  const options = { ropeType };
  const paths = {};
  for (const name of readNames(typeEntry)) {
    const option = vocabulary.options.find((o) => o.name === name);
    if (!option || !option.configKey) continue;
    const found = lookup(option.configKey);
    if (!present(found.value)) continue;
    options[name] = checkValue(option, found.value, found.path, rotaryDim);
    paths[name] = found.path;
  }
  // transformers fills a missing original_max_position_embeddings from
  // max_position_embeddings; llama3 does not read maxPositions, so pass it on.
  if (ropeType === 'llama3' && options.originalMaxPositions === undefined && present(config.max_position_embeddings)) {
    const option = vocabulary.options.find((o) => o.name === 'originalMaxPositions');
    options.originalMaxPositions = checkValue(
      option,
      config.max_position_embeddings,
      `${at}.max_position_embeddings`,
      rotaryDim,
    );
    paths.originalMaxPositions = `${at}.max_position_embeddings`;
  }

  // Relations between values that the core would refuse under option names.
  if (options.base !== undefined && !(options.base > 1)) {
    throw fail(RangeError, `${paths.base} must be greater than 1, got ${options.base}`, 'base_not_above_one', paths.base, {
      value: String(options.base),
    });
  }
  if (
    options.lowFreqFactor !== undefined &&
    options.highFreqFactor !== undefined &&
    !(options.lowFreqFactor < options.highFreqFactor)
  ) {
    throw fail(
      RangeError,
      `${paths.lowFreqFactor} (${options.lowFreqFactor}) must be less than ${paths.highFreqFactor} ` +
        `(${options.highFreqFactor})`,
      'low_not_below_high',
      paths.lowFreqFactor,
      { low: String(options.lowFreqFactor), highKey: paths.highFreqFactor, high: String(options.highFreqFactor) },
    );
  }
  return { headDim, rotaryDim, options };
}
