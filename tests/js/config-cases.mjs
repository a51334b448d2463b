// One config.json per check of ropeOptionsFromConfig, each refused by that
// check: [code, config, the key at fault, values the message must show].
// Used by tests/js/config-reasons.test.mjs (the package) and
// tests/web/reasons.test.mjs (the site's 简体中文 wording of each reason).
const heads = { hidden_size: 64, num_attention_heads: 4 }; // head width 16: 8 pairs
const ones = (n) => Array.from({ length: n }, () => 1);
const sparse = (n) => {
  const a = [];
  a.length = n;
  return a;
};
const cyclic = () => {
  const c = { ...heads, extra: {} };
  c.extra.self = c; // a cycle in a key the reader never needs: irrelevant
  c.rope_parameters = c; // one in a key it reads: refused
  return c;
};
const longrope = (shortFactor) => ({ ...heads, rope_scaling: { rope_type: 'longrope', short_factor: shortFactor, long_factor: ones(8) } });

// [code, config, the key at fault, values the message must show]
export const CASES = [
  ['not_config', null, 'config', { value: 'null' }],
  ['cycle', cyclic(), 'config.rope_parameters', {}],
  ['too_long', { ...heads, layer_types: sparse(2 ** 32 - 1) }, 'config.layer_types', { length: '4294967295', limit: '2^29' }],
  ['not_number', { head_dim: 'x' }, 'config.head_dim', { value: "'x'" }],
  ['not_number', { ...heads, partial_rotary_factor: 'half' }, 'config.partial_rotary_factor', { value: "'half'" }],
  ['not_number', { ...heads, rope_theta: 'big' }, 'config.rope_theta', { value: "'big'" }],
  ['not_positive_integer', { head_dim: 1.5 }, 'config.head_dim', { value: '1.5' }],
  ['missing_head_width', { num_attention_heads: 4 }, 'config.hidden_size', {}],
  ['missing_head_width', { hidden_size: 64 }, 'config.num_attention_heads', {}],
  ['heads_not_divisor', { hidden_size: 66, num_attention_heads: 4 }, 'config.hidden_size', { hidden: '66', heads: '4', headsKey: 'config.num_attention_heads' }],
  ['not_object', { ...heads, rope_scaling: 5 }, 'config.rope_scaling', { value: '5' }],
  ['text_config_not_object', { ...heads, text_config: 5 }, 'config.text_config', { value: '5' }],
  ['not_string_array', { ...heads, layer_types: 'full_attention' }, 'config.layer_types', { value: "'full_attention'" }],
  ['element_not_string', { ...heads, layer_types: ['full_attention', 7] }, 'config.layer_types', { index: '1', value: '7' }],
  [
    'layer_type_not_object',
    { ...heads, layer_types: ['full_attention', 'sliding_attention'], rope_parameters: { full_attention: { rope_type: 'default' }, sliding_attention: 3 } },
    'config.rope_parameters.sliding_attention',
    { value: '3' },
  ],
  [
    'no_layer_parameters',
    { ...heads, layer_types: ['full_attention', 'sliding_attention'], rope_parameters: { full_attention: null, sliding_attention: null } },
    'config.rope_parameters',
    {},
  ],
  // A value against its option's rule (the core's verdict): the option's bad_<option> status.
  ['bad_mrope_section', { ...heads, rope_scaling: { rope_type: 'default', mrope_section: [2, 1.5, 4.5] } }, 'config.rope_scaling.mrope_section', { element: 'config.rope_scaling.mrope_section[1] = 1.5' }],
  ['mrope_section_sum', { ...heads, rope_scaling: { rope_type: 'default', mrope_section: [2, 2, 2] } }, 'config.rope_scaling.mrope_section', { rotaryDim: '16', value: '[2, 2, 2]', maxRopeAxes: '4' }],
  ['mrope_section_missing', { ...heads, rope_scaling: { rope_type: 'default', mrope_interleaved: true } }, 'config.rope_scaling.mrope_interleaved', { sectionKey: 'config.rope_scaling.mrope_section' }],
  ['bad_partial_rotary_factor', { ...heads, partial_rotary_factor: 2 }, 'config.partial_rotary_factor', { value: '2' }],
  ['bad_partial_rotary_factor', { ...heads, partial_rotary_factor: 0 }, 'config.partial_rotary_factor', { value: '0' }],
  ['bad_rotary_dim', { ...heads, partial_rotary_factor: 0.05 }, 'config.partial_rotary_factor', { rotaryDimName: 'config.partial_rotary_factor (0.05) × 16', rotaryDim: '0' }],
  ['not_string', { ...heads, rope_scaling: { rope_type: 5 } }, 'config.rope_scaling.rope_type', { value: '5' }],
  ['unknown_rope_type', { ...heads, rope_scaling: { type: 'nope' } }, 'config.rope_scaling.type', { value: 'nope' }],
  ['missing', { ...heads, rope_scaling: { rope_type: 'linear' } }, 'config.rope_scaling.factor', { ropeType: 'linear' }],
  ['not_boolean', { ...heads, rope_scaling: { rope_type: 'yarn', factor: 4, truncate: 'yes' } }, 'config.rope_scaling.truncate', { value: "'yes'" }],
  ['not_array', longrope(5), 'config.rope_scaling.short_factor', { value: '5' }],
  ['bad_short_factor', longrope([1, 2]), 'config.rope_scaling.short_factor', { pairs: '8', element: '2 values' }],
  ['element_not_number', longrope([1, 'a', ...ones(6)]), 'config.rope_scaling.short_factor', { index: '1', value: "'a'" }],
  ['bad_short_factor', longrope([1, 1, -3, ...ones(5)]), 'config.rope_scaling.short_factor', { pairs: '8', element: 'config.rope_scaling.short_factor[2] = -3' }],
  ['bad_base', { ...heads, rope_theta: -1 }, 'config.rope_theta', { value: '-1' }],
  ['bad_max_positions', { ...heads, max_position_embeddings: 2.5, rope_scaling: { rope_type: 'dynamic', factor: 2 } }, 'config.max_position_embeddings', { value: '2.5' }],
  ['bad_factor', { ...heads, rope_scaling: { rope_type: 'linear', factor: 0 } }, 'config.rope_scaling.factor', { value: '0' }],
  ['rope_base_not_above_one', { ...heads, rope_theta: 0.5 }, 'config.rope_theta', { base: '0.5', baseKey: 'config.rope_theta' }],
  [
    'freq_factor_order',
    { ...heads, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 4, high_freq_factor: 1, original_max_position_embeddings: 8192 } },
    'config.rope_scaling.low_freq_factor',
    { lowFreqFactor: '4', highFreqFactor: '1', highFreqFactorKey: 'config.rope_scaling.high_freq_factor' },
  ],
];

