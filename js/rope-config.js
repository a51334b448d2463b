// RoPE options from a Hugging Face config.json. Pure JavaScript: it reads the
// parsed file and returns { headDim, rotaryDim, options, layout } for
// pe.ropeCache, pe.ropeCacheRows, pe.ropeFrequencies and (with rotaryDim and
// layout) pe.applyRope, plus one { headDim, rotaryDim, options } per attention
// layer type when the model has per-layer-type parameters.
//// The reader: it walks a config as transformers resolves it, with the key
// locations of js/rope-config-keys.js, reads each value by the rules of
// js/rope-config-values.js (their types), and leaves the rules that relate options
// (base > 1, an even rotary dimension, mrope_section's sum,
// low_freq_factor < high_freq_factor: vocabulary.def's SINPE_RULE table) to
// the core, as it leaves each value's own rule (positive, count, fraction, the
// entries per pair): `check`, given by the package, returns the core's verdicts,
// and js/rope-config-errors.js words a refusal's status with the config.json
// key of each option it names. Which sinpe option a config key feeds,
// the option's type and rule, and which options each rope type reads all come
// from the core's vocabulary, so the options returned are exactly those the
// rope type accepts.

import vocabulary from '../dist/sinpe-vocabulary.js';
import {
  TOP_LEVEL_KEYS,
  EITHER_TOP_FIRST,
  EITHER_OBJECT_FIRST,
  SET_ONLY_PER_LAYER_TYPE,
  ALSO_REQUIRED_BY_TRANSFORMERS,
  ROPE_TYPE_ALIASES,
  FULL_ATTENTION,
  SLIDING_ATTENTION,
  DEFAULT_THETAS,
  CLASS_DEFAULTS,
  INTERLEAVED_BY_DEFAULT,
  INTERLEAVED_MROPE_MODELS,
  DEFAULT_MROPE_SECTION,
  DEFAULT_SLIDING_WINDOW_PATTERN,
} from './rope-config-keys.js';
import { fail, show, checkRules, valueError } from './rope-config-errors.js';
import { isObject, present, optionNamed, ownData, positiveInteger, booleanAt, checkValue } from './rope-config-values.js';

// The option names a rope type reads (entries are names or { option } records).
const readNames = (ropeType) => ropeType.reads.map((r) => (typeof r === 'string' ? r : r.option));
const [ROPE_LAYOUT_HALF, ROPE_LAYOUT_INTERLEAVED] = ['half', 'interleaved'].map((name) => {
  if (!vocabulary.ropeLayouts.includes(name)) throw new Error(`sinpe: the vocabulary has no rope layout '${name}'`);
  return name;
});
const ROPE_AXES_INTERLEAVED = vocabulary.ropeAxes.find((name) => name === 'interleaved');
// The option partial_rotary_factor feeds.
const FRACTION = vocabulary.options.find((o) => o.configKey === 'partial_rotary_factor').name;

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
    : DEFAULT_SLIDING_WINDOW_PATTERN;
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
function resolveSet(config, at, set, headDim, check, modelType) {
  const { entries, path: paramsPath, perType } = set;

  // Where a config key's value comes from, with the path that names it.
  const lookup = (key) => {
    const top = { value: config[key], path: `${at}.${key}` };
    const inner = entries[key] ?? { value: undefined, path: `${typeParent}.${key}` };
    let order = [inner];
    if (TOP_LEVEL_KEYS.has(key)) order = [top];
    else if (perType && SET_ONLY_PER_LAYER_TYPE.has(key)) order = [inner];
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
  // Its rule is the core's (the partialRotaryFactor option's), asked before
  // the fraction sets the rotary width.
  if (present(fractionFound.value) && !check.follows(FRACTION, fraction)) throw valueError(FRACTION, fractionPath, fraction);
  // A rope type that reads the fraction itself (proportional: exponents over
  // the whole head, the pairs beyond the fraction unrotated) gets the whole
  // head width; the others rotate the first floor(headDim * fraction) channels.
  const readsFraction = readNames(typeEntry).includes('partialRotaryFactor');
  const rotaryDim = readsFraction ? headDim : Math.floor(headDim * fraction);
  // The rotary dimension as a rule's message names it (no option holds it).
  const width = { configKey: fractionPath, rotaryDimName: `${fractionPath} (${fraction}) × ${headDim}` };

  const required = [...typeEntry.required.map((name) => optionNamed(name).configKey), ...(ALSO_REQUIRED_BY_TRANSFORMERS[ropeType] ?? [])];
  for (const key of required) {
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
    options[name] = checkValue(option, found.value, found.path);
    paths[name] = found.path;
  }
  // transformers fills a missing original_max_position_embeddings from
  // max_position_embeddings; llama3 does not read maxPositions, so pass it on.
  if (ropeType === 'llama3' && options.originalMaxPositions === undefined && present(config.max_position_embeddings)) {
    options.originalMaxPositions = checkValue(optionNamed('originalMaxPositions'), config.max_position_embeddings, `${at}.max_position_embeddings`);
    paths.originalMaxPositions = `${at}.max_position_embeddings`;
  }

  // Multi-axis RoPE: mrope_section gives the pairs per position axis (a
  // model whose code has its own when the file has none, DEFAULT_MROPE_SECTION,
  // is multi-axis with that one, never one-axis); mrope_interleaved (Qwen3-VL,
  // Qwen3.5) spreads the axes over the pairs
  // (Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope) instead of giving
  // each a contiguous block.
  if (options.mropeSection === undefined && DEFAULT_MROPE_SECTION.has(modelType)) {
    options.mropeSection = [...DEFAULT_MROPE_SECTION.get(modelType)];
    paths.mropeSection = `${paramsPath}.mrope_section`;
  }
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
 * fault. check holds the core's verdicts: check.plan(rotaryDim, options) on the
 * options of one parameter set (undefined, or the package's error for the
 * status the core gave: error.status, error.values), check.follows(name, value)
 * on one value against its option's rule.
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
    const read = resolveSet(config, at, set, headDim, check, modelType);
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
