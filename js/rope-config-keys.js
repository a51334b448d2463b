// Where transformers keeps each RoPE value in a Hugging Face config.json, per
// option and per model family: data only, read by js/rope-config.js (the
// reader). The sources are transformers' modeling_rope_utils.py
// (RotaryEmbeddingConfigMixin of transformers v5: convert_rope_params_to_dict
// and standardize_rope_params, which also read the older layout) and the
// config classes named below:
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
// Which sinpe option a config key feeds (vocabulary.options' configKey), the
// option's type and rule, and which options each rope type reads all come from
// the core's vocabulary.

import vocabulary from '../dist/sinpe-vocabulary.js';

// Config keys that live at the top level of config.json rather than in the
// RoPE parameters object. original_max_position_embeddings may be in either;
// transformers gives the top-level one precedence for a single parameter set
// (Phi-3 keeps it there), while a per-layer-type set keeps its own
// (standardize_rope_params only fills it in with setdefault).
export const TOP_LEVEL_KEYS = new Set(['max_position_embeddings']);
export const EITHER_TOP_FIRST = new Set(['original_max_position_embeddings', 'partial_rotary_factor']);
export const EITHER_OBJECT_FIRST = new Set(['rope_theta']); // v5 rope_parameters holds it; older files at the top
// Keys a per-layer-type parameter set keeps for itself, never the top level's.
export const SET_ONLY_PER_LAYER_TYPE = new Set(['original_max_position_embeddings']);

// Keys transformers requires for a rope type (its _validate_*_rope_parameters
// raise on a missing one) beyond the options the core itself requires
// (vocabulary.ropeTypes[].required, by their config keys: linear's factor,
// dynamic's factor and max_position_embeddings, longrope's short and long
// factors), where sinpe would otherwise fall back to a default.
// original_max_position_embeddings is not among them: transformers fills it
// from max_position_embeddings.
export const ALSO_REQUIRED_BY_TRANSFORMERS = {
  yarn: ['factor'],
  llama3: ['factor', 'low_freq_factor', 'high_freq_factor'],
};

// Older spellings of rope types that transformers' config classes rename:
// Phi3Config turns the first Phi-3 releases' 'su' into 'longrope';
// Qwen2VLTextConfig turns Qwen2-VL's and Qwen2.5-VL's 'mrope' into 'default'
// (M-RoPE computes the default frequencies; mrope_section splits them).
export const ROPE_TYPE_ALIASES = new Map([
  ['su', 'longrope'],
  ['mrope', 'default'],
]);

// Layer type names transformers uses for attention with RoPE parameters of
// their own (Gemma 3, Gemma 4, and every v5 config written per layer type).
export const FULL_ATTENTION = 'full_attention';
export const SLIDING_ATTENTION = 'sliding_attention';

// The config classes' own default bases where a per-layer-type model sets them
// (Gemma3TextConfig.default_theta, Gemma3nTextConfig.default_theta); every
// other class uses RotaryEmbeddingConfigMixin.default_theta, the vocabulary's
// default base.
export const DEFAULT_THETAS = new Map(
  ['gemma3', 'gemma3_text', 'gemma3n', 'gemma3n_text'].map((t) => [t, { full: 1_000_000, sliding: 10_000 }]),
);

// Values a config class fills in when its file leaves them out, where they
// decide the RoPE widths: Gemma3TextConfig's defaults (google/gemma-3-4b-it's
// text_config names neither head_dim nor num_attention_heads, and its head
// width is head_dim's 256, not hidden_size / heads).
export const CLASS_DEFAULTS = new Map(
  ['gemma3', 'gemma3_text'].map((t) => [
    t,
    { head_dim: 256, num_attention_heads: 8, hidden_size: 2304, max_position_embeddings: 131_072 },
  ]),
);

// Model types whose transformers code rotates interleaved pairs without a
// rope_interleave key in the file: DeepseekV2 multiplies complex pairs
// (modeling_deepseek_v2.apply_rotary_emb), DeepseekV3Config defaults
// rope_interleave to true (modeling_deepseek_v3.apply_rotary_pos_emb_interleave).
export const INTERLEAVED_BY_DEFAULT = new Set(['deepseek_v2', 'deepseek_v3']);

// Model types whose text rotary embedding interleaves the M-RoPE axes
// whatever mrope_interleaved says (Qwen3VLTextRotaryEmbedding.forward calls
// apply_interleaved_mrope unconditionally; Qwen3-VL-MoE's is generated from
// it).
export const INTERLEAVED_MROPE_MODELS = new Set(['qwen3_vl', 'qwen3_vl_text', 'qwen3_vl_moe', 'qwen3_vl_moe_text']);

// The mrope_section those models use when the file has none
// (Qwen3VLTextRotaryEmbedding.__init__: rope_parameters.get("mrope_section",
// [24, 20, 20]); Qwen3-VL-MoE's is generated from it).
export const DEFAULT_MROPE_SECTION = new Map([...INTERLEAVED_MROPE_MODELS].map((t) => [t, [24, 20, 20]]));

// Gemma3TextConfig.__post_init__'s sliding_window_pattern when the file has
// none: every 6th layer full attention, the others sliding.
export const DEFAULT_SLIDING_WINDOW_PATTERN = 6;

// The keys the reader keeps of a config (js/rope-config-values.js ownData):
// a config (or text_config) keeps CONFIG_KEYS; rope_scaling and
// rope_parameters keep every key (a key may be a layer type), a value that is
// a parameter set (a layer type's) keeps PARAMETER_KEYS.
export const PARAMETER_KEYS = new Set([
  'rope_type',
  'type',
  'mrope_interleaved',
  // every option's config key (rope_theta, partial_rotary_factor,
  // original_max_position_embeddings, factor, …): the vocabulary's
  ...vocabulary.options.map((o) => o.configKey).filter((k) => k),
]);
export const CONFIG_KEYS = new Set([
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
