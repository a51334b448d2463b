// ropeOptionsFromConfig's errors carry their reason in machine-readable form:
// `code` (which check), `configKey` (the key at fault, as the message names
// it) and `values` (what the message shows), so the lesson site can word the
// reason in 简体中文. One bad config per check; every throw in rope-config.js
// has a code, every code is raised here and listed in sinpe.d.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ropeOptionsFromConfig } from 'sinpe.wasm';

const dir = dirname(createRequire(import.meta.url).resolve('sinpe.wasm/package.json'));
const source = readFileSync(join(dir, 'js/rope-config.js'), 'utf8');
const dts = readFileSync(join(dir, 'js/sinpe.d.ts'), 'utf8');

const heads = { hidden_size: 64, num_attention_heads: 4 }; // head width 16: 8 pairs
const ones = (n) => Array.from({ length: n }, () => 1);
const deep = (n) => (n === 0 ? 1 : { a: deep(n - 1) });
const longrope = (shortFactor) => ({ ...heads, rope_scaling: { rope_type: 'longrope', short_factor: shortFactor, long_factor: ones(8) } });

// [code, config, the key at fault, values the message must show]
const CASES = [
  ['not_config', null, 'config', { value: 'null' }],
  ['too_deep', { ...heads, extra: deep(70) }, 'config', {}],
  ['not_number', { head_dim: 'x' }, 'config.head_dim', { value: "'x'" }],
  ['not_number', { ...heads, partial_rotary_factor: 'half' }, 'config.partial_rotary_factor', { value: "'half'" }],
  ['not_number', { ...heads, rope_theta: 'big' }, 'config.rope_theta', { value: "'big'" }],
  ['not_positive_integer', { head_dim: 1.5 }, 'config.head_dim', { value: '1.5' }],
  ['missing_head_width', { num_attention_heads: 4 }, 'config.hidden_size', {}],
  ['missing_head_width', { hidden_size: 64 }, 'config.num_attention_heads', {}],
  ['heads_not_divisor', { hidden_size: 66, num_attention_heads: 4 }, 'config.hidden_size', { hidden: '66', heads: '4', headsKey: 'config.num_attention_heads' }],
  ['not_object', { ...heads, rope_scaling: 5 }, 'config.rope_scaling', { value: '5' }],
  [
    'per_layer_type',
    { ...heads, layer_types: ['full_attention', 'sliding_attention'], rope_parameters: { full_attention: { rope_type: 'default' }, sliding_attention: { rope_type: 'default' } } },
    'config.rope_parameters',
    { layerTypes: 'full_attention, sliding_attention' },
  ],
  ['not_fraction', { ...heads, partial_rotary_factor: 2 }, 'config.partial_rotary_factor', { value: '2' }],
  ['bad_rotary_dim', { ...heads, partial_rotary_factor: 0.05 }, 'config.partial_rotary_factor', { fraction: '0.05', headDim: '16', rotaryDim: '0' }],
  ['not_string', { ...heads, rope_scaling: { rope_type: 5 } }, 'config.rope_scaling.rope_type', { value: '5' }],
  ['unknown_rope_type', { ...heads, rope_scaling: { type: 'nope' } }, 'config.rope_scaling.type', { value: 'nope' }],
  ['missing', { ...heads, rope_scaling: { rope_type: 'linear' } }, 'config.rope_scaling.factor', { ropeType: 'linear' }],
  ['not_boolean', { ...heads, rope_scaling: { rope_type: 'yarn', factor: 4, truncate: 'yes' } }, 'config.rope_scaling.truncate', { value: "'yes'" }],
  ['not_array', longrope(5), 'config.rope_scaling.short_factor', { value: '5' }],
  ['wrong_length', longrope([1, 2]), 'config.rope_scaling.short_factor', { pairs: '8', length: '2' }],
  ['element_not_number', longrope([1, 'a', ...ones(6)]), 'config.rope_scaling.short_factor', { index: '1', value: "'a'" }],
  ['element_not_positive', longrope([1, 1, -3, ...ones(5)]), 'config.rope_scaling.short_factor', { index: '2', value: '-3' }],
  ['not_positive', { ...heads, rope_theta: -1 }, 'config.rope_theta', { value: '-1' }],
  ['not_count', { ...heads, max_position_embeddings: 2.5, rope_scaling: { rope_type: 'dynamic', factor: 2 } }, 'config.max_position_embeddings', { value: '2.5' }],
  ['base_not_above_one', { ...heads, rope_theta: 0.5 }, 'config.rope_theta', { value: '0.5' }],
  [
    'low_not_below_high',
    { ...heads, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 4, high_freq_factor: 1, original_max_position_embeddings: 8192 } },
    'config.rope_scaling.low_freq_factor',
    { low: '4', high: '1', highKey: 'config.rope_scaling.high_freq_factor' },
  ],
];

// The codes written at the throws of rope-config.js (each follows the message, before the key).
const thrown = [...source.matchAll(/[`')],\s*'([a-z]+(?:_[a-z]+)*)',\s*(?:path|fractionPath|found\.path|paths\.\w+|'config'|`\$\{)/g)].map((m) => m[1]);

test('every throw of ropeOptionsFromConfig has a code, and every code is raised below and listed in sinpe.d.ts', () => {
  assert.equal(thrown.length, (source.match(/throw fail\(/g) ?? []).length, 'a throw in rope-config.js without a code');
  const codes = new Set(thrown);
  assert.deepEqual(new Set(CASES.map(([code]) => code)), codes, 'codes raised here vs codes in rope-config.js');
  const listed = dts.match(/interface ConfigError[\s\S]*?readonly code: string;/);
  assert.ok(listed, 'sinpe.d.ts declares ConfigError.code');
  assert.deepEqual(new Set([...listed[0].matchAll(/`'(\w+)'`/g)].map((m) => m[1])), codes, 'codes listed in sinpe.d.ts');
});

for (const [code, config, configKey, shows] of CASES) {
  test(`${code}: ${configKey}`, () => {
    let error;
    try {
      ropeOptionsFromConfig(config);
    } catch (e) {
      error = e;
    }
    assert.ok(error, `${JSON.stringify(config)?.slice(0, 120)} was accepted`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.configKey, configKey, error.message);
    assert.ok(error.message.startsWith('sinpe: ') && error.message.includes(configKey), error.message);
    assert.equal(error.values.configKey, configKey);
    for (const [key, value] of Object.entries(shows)) assert.equal(error.values[key], value, `${code}: values.${key}`);
    // every value given is what the message shows
    for (const [key, value] of Object.entries(error.values)) {
      assert.equal(typeof value, 'string', `${code}: values.${key} is text`);
      assert.ok(error.message.includes(value), `${code}: values.${key} = ${value} is not in "${error.message}"`);
    }
  });
}
