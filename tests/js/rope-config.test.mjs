// ropeOptionsFromConfig beyond one parameter set: per-layer-type parameters
// (Gemma 3's rope_local_base_freq, transformers v5 rope_parameters keyed by
// layer type, Gemma 4's wider full-attention heads), the rotation layout
// (DeepSeek's rope_interleave), multimodal RoPE keys (Qwen2-VL's 'mrope' type
// and mrope_section, Qwen3-VL's mrope_interleaved under text_config) and the
// errors that name the config key. Expected values are read off each file by
// hand, with the transformers rule that gives them; the caches the options
// feed are compared with the independent float64 reference.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sinpe, { ropeOptionsFromConfig } from 'sinpe.wasm';
import { ropeCache as referenceCache } from './rope-reference.mjs';

const CACHE_TOLERANCE = 2.5e-7; // × max(1, att), the README's contract
const fixture = (name) => {
  const folder = /^(gemma-3|qwen2-vl|qwen3-vl)/.test(name) ? 'configs-vlm' : 'configs';
  return JSON.parse(readFileSync(new URL(`./fixtures/${folder}/${name}`, import.meta.url), 'utf8'));
};
const clone = (v) => JSON.parse(JSON.stringify(v));

let pe;
before(async () => {
  pe = await sinpe();
});
after(() => {
  pe = undefined;
});

// Both entry points give the same answer, and the config is left as it was.
function read(config) {
  const before = JSON.stringify(config);
  const got = ropeOptionsFromConfig(config);
  assert.equal(JSON.stringify(config), before, 'the config is not modified');
  assert.deepEqual(pe.ropeOptionsFromConfig(config), got, 'pe.ropeOptionsFromConfig gives the same');
  return got;
}

// A one-axis set's options go straight to pe.ropeCache; its values are the reference's.
function cacheMatchesReference(set, label) {
  const positions = [0, 1, 4095, 4096, 100000.5, 2 ** 24 - 1];
  const got = pe.ropeCache(positions, set.rotaryDim, set.options);
  const want = referenceCache(positions, set.rotaryDim, set.options);
  const scale = Math.max(1, Math.abs(want.attentionFactor));
  for (const part of ['cos', 'sin']) {
    assert.equal(got[part].length, want[part].length, `${label}: ${part} length`);
    for (let i = 0; i < want[part].length; i++) {
      const e = Math.abs(got[part][i] - want[part][i]) / scale;
      if (!(e <= CACHE_TOLERANCE)) assert.fail(`${label}: ${part}[${i}] = ${got[part][i]}, reference ${want[part][i]}`);
    }
  }
}

// Gemma3TextConfig.__post_init__: layer i is full attention when (i + 1) % pattern == 0.
const gemmaLayers = (count, pattern) =>
  Array.from({ length: count }, (_, i) => ((i + 1) % pattern === 0 ? 'full_attention' : 'sliding_attention'));

describe('ropeOptionsFromConfig: per-layer-type parameters', () => {
  test('google/gemma-3-4b-it as published: full layers linear × 8 at 1e6, sliding layers default at 1e4, every sixth layer full', () => {
    const got = read(fixture('gemma-3-4b-it.json'));
    // The file names no head_dim, heads, rope_theta or rope_local_base_freq:
    // Gemma3TextConfig's defaults (head_dim 256, default_theta global 1e6 /
    // local 1e4) fill them; rope_scaling updates the full-attention set.
    const full = { headDim: 256, rotaryDim: 256, options: { ropeType: 'linear', base: 1e6, factor: 8 } };
    const sliding = { headDim: 256, rotaryDim: 256, options: { ropeType: 'default', base: 10000 } };
    assert.deepEqual(got, {
      ...full,
      layout: 'half',
      // keyed by the file's layer type names: a null-prototype object
      layerTypes: Object.assign(Object.create(null), { full_attention: full, sliding_attention: sliding }),
      layers: gemmaLayers(34, 6),
    });
    assert.deepEqual(
      got.layers.flatMap((t, i) => (t === 'full_attention' ? [i] : [])),
      [5, 11, 17, 23, 29],
    );
    for (const [type, set] of Object.entries(got.layerTypes)) cacheMatchesReference(set, `gemma-3-4b-it ${type}`);
  });

  test('Gemma 3 with rope_theta, rope_local_base_freq and sliding_window_pattern in the file (the 1b text-only schema)', () => {
    const config = {
      model_type: 'gemma3_text',
      head_dim: 256,
      hidden_size: 1152,
      num_attention_heads: 4,
      num_hidden_layers: 26,
      rope_local_base_freq: 10000,
      rope_scaling: null,
      rope_theta: 1000000,
      sliding_window_pattern: 6,
    };
    const got = read(config);
    assert.deepEqual({ ...got.layerTypes }, {
      full_attention: { headDim: 256, rotaryDim: 256, options: { ropeType: 'default', base: 1e6 } },
      sliding_attention: { headDim: 256, rotaryDim: 256, options: { ropeType: 'default', base: 1e4 } },
    });
    assert.deepEqual(got.layers, gemmaLayers(26, 6));
    // A rope_local_base_freq of its own, and another pattern.
    const other = read({ ...config, rope_local_base_freq: 20000, sliding_window_pattern: 2, num_hidden_layers: 4 });
    assert.equal(other.layerTypes.sliding_attention.options.base, 20000);
    assert.deepEqual(other.layers, ['sliding_attention', 'full_attention', 'sliding_attention', 'full_attention']);
  });

  test('transformers v5 rope_parameters keyed by layer type (Gemma 3 as v5 writes it), layer_types given', () => {
    const layerTypes = gemmaLayers(6, 3);
    const config = {
      model_type: 'gemma3_text',
      head_dim: 128,
      hidden_size: 1024,
      num_attention_heads: 8,
      layer_types: layerTypes,
      rope_parameters: {
        full_attention: { rope_type: 'linear', factor: 8.0, rope_theta: 1000000 },
        sliding_attention: { rope_type: 'default', rope_theta: 10000 },
      },
    };
    const got = read(config);
    assert.deepEqual(got.layers, layerTypes);
    assert.deepEqual(got.layerTypes.full_attention, { headDim: 128, rotaryDim: 128, options: { ropeType: 'linear', base: 1e6, factor: 8 } });
    assert.deepEqual(got.layerTypes.sliding_attention, { headDim: 128, rotaryDim: 128, options: { ropeType: 'default', base: 1e4 } });
    assert.deepEqual(got.options, got.layerTypes.full_attention.options, 'the top-level options are full attention’s');
  });

  test('a per-layer-type set without rope_theta takes the top-level rope_theta (standardize_rope_params, case 2)', () => {
    const got = read({
      head_dim: 64,
      rope_theta: 500000,
      layer_types: ['sliding_attention', 'full_attention'],
      rope_parameters: { full_attention: { rope_type: 'default' }, sliding_attention: { rope_type: 'default', rope_theta: 10000 } },
    });
    assert.equal(got.layerTypes.full_attention.options.base, 500000);
    assert.equal(got.layerTypes.sliding_attention.options.base, 10000);
    // partial_rotary_factor at the top level goes into every set, overwriting.
    const partial = read({
      head_dim: 64,
      partial_rotary_factor: 0.5,
      layer_types: ['sliding_attention', 'full_attention'],
      rope_parameters: {
        full_attention: { rope_type: 'default', partial_rotary_factor: 1 },
        sliding_attention: { rope_type: 'default' },
      },
    });
    assert.equal(partial.layerTypes.full_attention.rotaryDim, 32);
    assert.equal(partial.layerTypes.sliding_attention.rotaryDim, 32);
  });

  test('Gemma 4 (transformers defaults): proportional full layers over global_head_dim 512, default sliding layers over head_dim 256', () => {
    // Gemma4TextConfig's default rope_parameters, written per layer type as v5 saves them.
    const got = read({
      model_type: 'gemma4_text',
      head_dim: 256,
      global_head_dim: 512,
      hidden_size: 2560,
      num_attention_heads: 8,
      layer_types: ['sliding_attention', 'sliding_attention', 'full_attention'],
      rope_parameters: {
        sliding_attention: { rope_type: 'default', rope_theta: 10000.0 },
        full_attention: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000.0 },
      },
    });
    // proportional reads the fraction itself over the whole head (_compute_proportional_rope_parameters).
    assert.deepEqual(got.layerTypes.full_attention, {
      headDim: 512,
      rotaryDim: 512,
      options: { ropeType: 'proportional', base: 1e6, partialRotaryFactor: 0.25 },
    });
    assert.deepEqual(got.layerTypes.sliding_attention, { headDim: 256, rotaryDim: 256, options: { ropeType: 'default', base: 1e4 } });
    assert.equal(got.headDim, 512);
    // The proportional set computes: 64 turning pairs (0.25 × 512 / 2), 192 at frequency 0.
    const inv = pe.ropeFrequencies(got.rotaryDim, got.options);
    assert.equal(inv.length, 256);
    for (let j = 0; j < 256; j++) {
      const want = j < 64 ? 1e6 ** (-(2 * j) / 512) : 0;
      assert.ok(Math.abs(inv[j] - want) <= 1e-12 * want, `inv[${j}] = ${inv[j]}, want ${want}`);
    }
  });

  test('without layer_types, a parameters object keyed by full_attention / sliding_attention is read per layer type', () => {
    const got = read({
      head_dim: 64,
      rope_parameters: { sliding_attention: { rope_type: 'default', rope_theta: 10000 }, full_attention: { rope_type: 'linear', factor: 2 } },
    });
    assert.equal(got.layers, undefined);
    assert.deepEqual(Object.keys(got.layerTypes).sort(), ['full_attention', 'sliding_attention']);
    assert.deepEqual(got.options, { ropeType: 'linear', factor: 2 }); // no rope_theta: the default base
  });

  test('no full_attention set: the top level is the first layer type, in layer order, that has one', () => {
    const got = read({
      head_dim: 64,
      layer_types: ['chunked_attention', 'local_attention'],
      rope_parameters: { local_attention: { rope_type: 'default', rope_theta: 1000 }, chunked_attention: { rope_type: 'default', rope_theta: 2000 } },
    });
    assert.equal(got.options.base, 2000);
  });

  test('one flat set: no layerTypes; layer_types (here with linear-attention layers, no RoPE) still returned as layers', () => {
    const layerTypes = ['linear_attention', 'linear_attention', 'linear_attention', 'full_attention'];
    // Qwen3.5's text_config shape: M-RoPE over a quarter of a 256-wide head.
    const got = read({
      model_type: 'qwen3_5',
      text_config: {
        head_dim: 256,
        hidden_size: 2048,
        num_attention_heads: 16,
        layer_types: layerTypes,
        partial_rotary_factor: 0.25,
        rope_parameters: { mrope_interleaved: true, mrope_section: [11, 11, 10], rope_theta: 10000000, rope_type: 'default', partial_rotary_factor: 0.25 },
      },
    });
    assert.deepEqual(got, {
      headDim: 256,
      rotaryDim: 64,
      options: { ropeType: 'default', base: 1e7, mropeSection: [11, 11, 10], ropeAxes: 'interleaved' },
      layout: 'half',
      layers: layerTypes,
    });
  });
});

describe('ropeOptionsFromConfig: layout', () => {
  test('DeepSeek-V3 as published: interleaved (DeepseekV3Config defaults rope_interleave to true)', () => {
    assert.equal(read(fixture('deepseek-v3.json')).layout, 'interleaved');
  });
  test('rope_interleave false or true decides; DeepSeek-V2 always rotates complex pairs; others rotate halves', () => {
    assert.equal(read({ ...fixture('deepseek-v3.json'), rope_interleave: false }).layout, 'half');
    assert.equal(read({ ...fixture('llama-3.1-8b.json'), rope_interleave: true }).layout, 'interleaved');
    assert.equal(read({ ...fixture('deepseek-v3.json'), model_type: 'deepseek_v2' }).layout, 'interleaved');
    for (const file of ['llama-3.1-8b.json', 'phi-2.json', 'gemma-7b.json', 'qwen2-vl-7b-instruct.json']) {
      assert.equal(read(fixture(file)).layout, 'half', file);
    }
  });
  test('the layout goes to applyRope: each pair (2j, 2j + 1) turns by p · inv_j', () => {
    const got = read(fixture('deepseek-v3.json'));
    const x = new Float32Array(got.headDim).map((_, i) => (i % 2 === 0 ? 1 : 0));
    const p = 3;
    pe.applyRope(x, [p], got.headDim, { ...got.options, rotaryDim: got.rotaryDim, layout: got.layout });
    const { cos, sin } = referenceCache([p], got.rotaryDim, got.options);
    for (let j = 0; j < got.rotaryDim / 2; j++) {
      assert.ok(Math.abs(x[2 * j] - cos[j]) <= 5e-7 && Math.abs(x[2 * j + 1] - sin[j]) <= 5e-7, `pair ${j}`);
    }
  });
});

describe('ropeOptionsFromConfig: multimodal RoPE keys', () => {
  test("Qwen/Qwen2-VL-7B-Instruct as published: type 'mrope' is default (Qwen2VLTextConfig), mrope_section [16, 24, 24]", () => {
    const got = read(fixture('qwen2-vl-7b-instruct.json'));
    assert.deepEqual(got, {
      headDim: 128, // 3584 / 28
      rotaryDim: 128,
      options: { ropeType: 'default', base: 1e6, mropeSection: [16, 24, 24] },
      layout: 'half',
    });
  });
  test('Qwen/Qwen3-VL-8B-Instruct as published: text_config, mrope_interleaved → ropeAxes interleaved', () => {
    const got = read(fixture('qwen3-vl-8b-instruct.json'));
    assert.deepEqual(got, {
      headDim: 128,
      rotaryDim: 128,
      options: { ropeType: 'default', base: 5e6, mropeSection: [24, 20, 20], ropeAxes: 'interleaved' },
      layout: 'half',
    });
    // The same under v5's name for the object. Qwen3VLTextRotaryEmbedding interleaves whatever
    // mrope_interleaved says; another model type with mrope_interleaved false is sectioned.
    const v5 = fixture('qwen3-vl-8b-instruct.json');
    v5.text_config.rope_parameters = { ...v5.text_config.rope_scaling, rope_theta: 5000000, mrope_interleaved: false };
    delete v5.text_config.rope_scaling;
    delete v5.text_config.rope_theta;
    assert.deepEqual(read(v5).options, { ropeType: 'default', base: 5e6, mropeSection: [24, 20, 20], ropeAxes: 'interleaved' });
    v5.text_config.model_type = 'qwen2_vl_text';
    assert.deepEqual(read(v5).options, { ropeType: 'default', base: 5e6, mropeSection: [24, 20, 20] });
  });
  // Qwen3VLTextRotaryEmbedding.__init__ reads rope_parameters.get("mrope_section", [24, 20, 20])
  // and always interleaves (transformers, models/qwen3_vl/modeling_qwen3_vl.py): a Qwen3-VL
  // file without the key is M-RoPE with that section, not one-axis RoPE; other model types
  // have no such default.
  test('Qwen3-VL without mrope_section: its class default [24, 20, 20], interleaved', () => {
    for (const withInterleaved of [true, false]) {
      const c = fixture('qwen3-vl-8b-instruct.json');
      delete c.text_config.rope_scaling.mrope_section;
      if (!withInterleaved) delete c.text_config.rope_scaling.mrope_interleaved;
      assert.deepEqual(read(c).options, { ropeType: 'default', base: 5e6, mropeSection: [24, 20, 20], ropeAxes: 'interleaved' });
      c.text_config.model_type = 'qwen2_vl_text';
      if (withInterleaved) assert.throws(() => read(c), /mrope_interleaved is true but config\.text_config\.rope_scaling\.mrope_section is missing/);
      else assert.deepEqual(read(c).options, { ropeType: 'default', base: 5e6 });
    }
  });
  test('text_config wins over top-level keys (PreTrainedConfig.get_text_config)', () => {
    const config = { ...fixture('llama-3.1-8b.json'), text_config: fixture('qwen2-vl-7b-instruct.json') };
    assert.equal(read(config).options.base, 1e6);
  });
});

describe('ropeOptionsFromConfig: bad per-layer-type and multimodal keys name the key', () => {
  const gemma = () => fixture('gemma-3-4b-it.json');
  const qwen3 = () => fixture('qwen3-vl-8b-instruct.json');
  const cases = [
    ['rope_local_base_freq a string', () => ({ ...fixture('gemma-7b.json'), rope_local_base_freq: '10000' }), TypeError, /config\.rope_local_base_freq/],
    ['rope_local_base_freq 1', () => ({ ...fixture('gemma-7b.json'), rope_local_base_freq: 1 }), RangeError, /config\.rope_local_base_freq must be greater than 1/],
    ['a layer type’s parameters not an object', () => ({ head_dim: 64, layer_types: ['full_attention'], rope_parameters: { full_attention: 5 } }), TypeError, /config\.rope_parameters\.full_attention must be an object/],
    ['a layer type’s unknown rope type', () => ({ head_dim: 64, layer_types: ['full_attention'], rope_parameters: { full_attention: { rope_type: 'ntk' } } }), RangeError, /config\.rope_parameters\.full_attention\.rope_type is 'ntk'/],
    ['a layer type’s linear without factor', () => ({ head_dim: 64, layer_types: ['full_attention'], rope_parameters: { full_attention: { rope_type: 'linear' } } }), TypeError, /config\.rope_parameters\.full_attention\.factor is missing/],
    ['Gemma 3 rope_scaling factor negative', () => {
      const c = gemma();
      c.text_config.rope_scaling.factor = -8;
      return c;
    }, RangeError, /config\.text_config\.rope_scaling\.factor must be a positive finite number, got -8/],
    ['layer_types not an array', () => ({ head_dim: 64, layer_types: 'full_attention' }), TypeError, /config\.layer_types must be an array/],
    ['layer_types with a number', () => ({ head_dim: 64, layer_types: ['full_attention', 3] }), TypeError, /config\.layer_types\[1\]/],
    ['sliding_window_pattern 0', () => ({ ...fixture('gemma-7b.json'), rope_local_base_freq: 10000, num_hidden_layers: 4, sliding_window_pattern: 0 }), RangeError, /config\.sliding_window_pattern/],
    ['global_head_dim fractional', () => ({ head_dim: 64, global_head_dim: 12.5, layer_types: ['full_attention'], rope_parameters: { full_attention: { rope_type: 'default' } } }), RangeError, /config\.global_head_dim/],
    ['rope_interleave a string', () => ({ ...fixture('deepseek-v3.json'), rope_interleave: 'yes' }), TypeError, /config\.rope_interleave must be true or false/],
    ['mrope_section not adding up to rotaryDim / 2', () => {
      const c = qwen3();
      c.text_config.rope_scaling.mrope_section = [24, 20, 16];
      return c;
    }, RangeError, /config\.text_config\.rope_scaling\.mrope_section must have 1 to 4 entries adding up to rotaryDim\/2 \(rotaryDim 128\), got \[24, 20, 16\]/],
    ['mrope_section with five axes', () => ({ head_dim: 20, rope_scaling: { type: 'mrope', mrope_section: [2, 2, 2, 2, 2] } }), RangeError, /config\.rope_scaling\.mrope_section must have 1 to 4 entries/],
    ['mrope_section with a fraction', () => ({ head_dim: 128, rope_scaling: { type: 'mrope', mrope_section: [16, 23.5, 24.5] } }), RangeError, /config\.rope_scaling\.mrope_section must be an array of integers in \[1, 2\^24\), got config\.rope_scaling\.mrope_section\[1\] = 23\.5/],
    ['mrope_section a number', () => ({ head_dim: 128, rope_scaling: { type: 'mrope', mrope_section: 64 } }), TypeError, /config\.rope_scaling\.mrope_section must be an array/],
    ['mrope_interleaved a string', () => {
      const c = qwen3();
      c.text_config.rope_scaling.mrope_interleaved = 'true';
      return c;
    }, TypeError, /config\.text_config\.rope_scaling\.mrope_interleaved must be true or false/],
    ['mrope_interleaved without mrope_section', () => ({ head_dim: 128, rope_scaling: { rope_type: 'default', mrope_interleaved: true } }), RangeError, /config\.rope_scaling\.mrope_interleaved is true but config\.rope_scaling\.mrope_section is missing/],
    ['text_config not an object', () => ({ ...fixture('llama-3.1-8b.json'), text_config: 'llama' }), TypeError, /config\.text_config must be an object/],
  ];
  for (const [label, make, ErrorClass, pattern] of cases) {
    test(label, () => {
      for (const f of [ropeOptionsFromConfig, (c) => pe.ropeOptionsFromConfig(c)]) {
        assert.throws(
          () => f(make()),
          (e) => {
            assert.ok(e instanceof ErrorClass, `${label}: ${e?.constructor?.name}: ${e?.message}`);
            assert.match(e.message, pattern, label);
            return true;
          },
          label,
        );
      }
    });
  }
  test('the package still works after every refusal', () => {
    assert.equal(read(fixture('qwen2-vl-7b-instruct.json')).rotaryDim, 128);
    assert.equal(clone(read(fixture('gemma-3-4b-it.json'))).layerTypes.sliding_attention.options.base, 10000);
  });
});

// Where a value lives, per model family (js/rope-config-keys.js), each case
// from the transformers class that decides it.
describe('ropeOptionsFromConfig: key locations per model family', () => {
  const perType = (full, sliding, extra = {}) => ({
    head_dim: 64,
    layer_types: ['full_attention', 'sliding_attention'],
    ...extra,
    rope_parameters: { full_attention: full, sliding_attention: sliding },
  });

  test('a per-layer-type set keeps its own original_max_position_embeddings over the top level’s (standardize_rope_params: setdefault)', () => {
    const got = read(
      perType(
        { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096, rope_theta: 1e6 },
        { rope_type: 'default', rope_theta: 1e4 },
        { original_max_position_embeddings: 8192 },
      ),
    );
    assert.equal(got.layerTypes.full_attention.options.originalMaxPositions, 4096);
    // A single set: the top level's takes precedence (Phi-3).
    const flat = read({ head_dim: 64, original_max_position_embeddings: 8192, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 } });
    assert.equal(flat.options.originalMaxPositions, 8192);
  });

  test('a per-layer-type set may spell its rope type `type`, and hold mrope_interleaved', () => {
    const got = read(perType({ type: 'linear', factor: 2, rope_theta: 1e6 }, { rope_type: 'default', rope_theta: 1e4, mrope_section: [8, 12, 12], mrope_interleaved: true }));
    assert.deepEqual({ ...got.layerTypes.full_attention.options }, { ropeType: 'linear', base: 1e6, factor: 2 });
    assert.deepEqual({ ...got.layerTypes.sliding_attention.options }, { ropeType: 'default', base: 1e4, mropeSection: [8, 12, 12], ropeAxes: 'interleaved' });
  });

  // Gemma3TextConfig.default_theta = {global 1e6, local 1e4}; Gemma3nTextConfig
  // rope_theta 1e6, rope_local_base_freq 1e4: a file of these types without
  // either base gets full layers at 1e6 and sliding layers at 1e4.
  for (const modelType of ['gemma3', 'gemma3_text', 'gemma3n', 'gemma3n_text']) {
    test(`model_type ${modelType} without bases: the class's default bases per layer type`, () => {
      const got = read({ model_type: modelType, head_dim: 256 });
      assert.equal(got.layerTypes.full_attention.options.base, 1e6);
      assert.equal(got.layerTypes.sliding_attention.options.base, 1e4);
    });
  }

  test('a gemma3 file whose text_config names no model_type, head_dim or heads: Gemma3TextConfig’s head_dim 256', () => {
    const got = read({ model_type: 'gemma3', text_config: { rope_scaling: { rope_type: 'linear', factor: 8 } } });
    assert.equal(got.headDim, 256);
    assert.deepEqual({ ...got.options }, { ropeType: 'linear', base: 1e6, factor: 8 });
  });

  // Qwen3VLTextRotaryEmbedding.forward interleaves the axes whatever
  // mrope_interleaved says; Qwen3-VL-MoE's is generated from it.
  for (const modelType of ['qwen3_vl', 'qwen3_vl_text', 'qwen3_vl_moe', 'qwen3_vl_moe_text']) {
    test(`model_type ${modelType}: M-RoPE axes interleaved without mrope_interleaved`, () => {
      const got = read({ model_type: modelType, head_dim: 128, rope_scaling: { rope_type: 'default', mrope_section: [24, 20, 20] } });
      assert.equal(got.options.ropeAxes, 'interleaved');
    });
  }
  test('another model type with an mrope_section: contiguous axes', () => {
    const got = read({ model_type: 'qwen2_vl', head_dim: 128, rope_scaling: { rope_type: 'default', mrope_section: [16, 24, 24] } });
    assert.equal(got.options.ropeAxes, undefined);
  });
});

// Which object holds the parameters and how it is read, each rule from the
// transformers code that decides it, and the bad values around them: every
// refusal names the config key (message, error.code, error.configKey,
// error.values), none is read as "no parameters".
// Both entry points (the named export and the module's method) throw the same
// refusal: its class, its message (a string: exactly "sinpe: " and it; a
// RegExp: matching it) and the given fields of the error (`values` compared
// as a plain object).
const refusedConfig = (config, ErrorClass, message, fields) => {
  for (const f of [ropeOptionsFromConfig, (c) => pe.ropeOptionsFromConfig(c)]) {
    assert.throws(
      () => f(clone(config)),
      (e) => {
        assert.equal(e?.constructor?.name, ErrorClass.name, `${e?.constructor?.name}: ${e?.message}`);
        if (message instanceof RegExp) assert.match(e.message, message);
        else assert.equal(e.message, `sinpe: ${message}`);
        for (const [k, v] of Object.entries(fields)) assert.deepEqual(k === 'values' ? { ...e.values } : e[k], v, k);
        return true;
      },
    );
  }
};

describe('ropeOptionsFromConfig: the parameters object, and what is refused around it', () => {
  const gemmaLayerTypes = ['sliding_attention', 'full_attention'];

  // standardize_rope_params: `setdefault("rope_type", get("type", "default"))`:
  // a set's rope_type is kept when it has one; `type` only fills it in.
  test('a set with both rope_type and type is of its rope_type', () => {
    const got = read({ head_dim: 64, rope_scaling: { rope_type: 'linear', type: 'dynamic', factor: 2 } });
    assert.deepEqual({ ...got.options }, { ropeType: 'linear', factor: 2 });
  });

  // convert_rope_params_to_dict: `self.rope_parameters = rope_scaling or
  // self.rope_parameters`: an empty rope_scaling is falsy, a non-empty one wins.
  test('an empty rope_scaling gives way to rope_parameters; a non-empty one wins over it', () => {
    const params = { rope_type: 'linear', factor: 4, rope_theta: 5e5 };
    assert.deepEqual({ ...read({ head_dim: 64, rope_scaling: {}, rope_parameters: params }).options }, { ropeType: 'linear', base: 5e5, factor: 4 });
    const got = read({ head_dim: 64, rope_scaling: { rope_type: 'linear', factor: 2 }, rope_parameters: params });
    assert.deepEqual({ ...got.options }, { ropeType: 'linear', factor: 2 });
  });

  // Neither object (or an empty one) is the default rope type, one flat set.
  test('an empty rope_scaling or rope_parameters alone is one default set, not an empty set per layer type', () => {
    for (const config of [{ head_dim: 64, rope_scaling: {} }, { head_dim: 64, rope_parameters: {} }, { head_dim: 64, rope_scaling: {}, rope_parameters: null }]) {
      const got = read(config);
      assert.deepEqual({ ...got.options }, { ropeType: 'default' }, JSON.stringify(config));
      assert.equal(got.layerTypes, undefined);
      assert.equal(got.rotaryDim, 64);
    }
  });

  // standardize_rope_params reads the object per layer type only when every
  // key is a layer type; an object with other keys is one set.
  test('a set with a layer type among its other keys is one flat set', () => {
    const got = read({ head_dim: 64, rope_scaling: { rope_type: 'linear', factor: 2, full_attention: { rope_type: 'default' } } });
    assert.deepEqual({ ...got.options }, { ropeType: 'linear', factor: 2 });
    assert.equal(got.layerTypes, undefined);
  });

  test('a head width that is no positive integer, or heads that do not divide hidden_size, name the key', () => {
    refusedConfig({ qk_rope_head_dim: 0, head_dim: 64 }, RangeError, 'config.qk_rope_head_dim must be a positive integer, got 0', { configKey: 'config.qk_rope_head_dim', code: 'not_positive_integer' });
    refusedConfig({ hidden_size: '4096', num_attention_heads: 32 }, TypeError, "config.hidden_size must be a number, got '4096'", { configKey: 'config.hidden_size', code: 'not_number' });
    refusedConfig({ hidden_size: 4096, num_attention_heads: 0 }, RangeError, 'config.num_attention_heads must be a positive integer, got 0', { configKey: 'config.num_attention_heads' });
    refusedConfig(
      { hidden_size: 10, num_attention_heads: 3 },
      RangeError,
      'config.hidden_size (10) is not a multiple of config.num_attention_heads (3); the config needs a head_dim',
      { configKey: 'config.hidden_size', code: 'heads_not_divisor' },
    );
    // A Gemma 3 file (rope_local_base_freq) without layer_types: the layer count makes them.
    refusedConfig({ head_dim: 64, rope_local_base_freq: 1e4, num_hidden_layers: 2.5 }, RangeError, 'config.num_hidden_layers must be a positive integer, got 2.5', { configKey: 'config.num_hidden_layers' });
  });

  test('a layer type whose parameters are no object is refused with that layer type’s key', () => {
    refusedConfig(
      { head_dim: 64, layer_types: ['full_attention'], rope_parameters: { full_attention: [1] } },
      TypeError,
      'config.rope_parameters.full_attention must be an object, got an array of 1',
      { code: 'layer_type_not_object', configKey: 'config.rope_parameters.full_attention', values: { configKey: 'config.rope_parameters.full_attention', value: 'an array of 1' } },
    );
  });

  // Gemma3TextConfig.convert_rope_params_to_dict indexes rope_parameters by
  // layer type and updates its full_attention set with rope_scaling: neither
  // may be anything but an object (or null, "not set").
  test('a Gemma 3 file’s rope_parameters or rope_scaling that is no object is refused naming it, never read as absent', () => {
    const scaling = { rope_type: 'linear', factor: 8 };
    for (const [value, shown] of [[5, '5'], ['linear', "'linear'"], [[], 'an array of 0'], [true, 'true']]) {
      // rope_parameters alone, and beside a rope_scaling (which is then the one read for the full-attention set)
      for (const extra of [{}, { rope_scaling: scaling }, { rope_parameters: null }]) {
        for (const key of ['rope_parameters', 'rope_scaling']) {
          if (Object.hasOwn(extra, key)) continue;
          refusedConfig({ model_type: 'gemma3_text', head_dim: 256, ...extra, [key]: value }, TypeError, `config.${key} must be an object or null, got ${shown}`, {
            code: 'not_object',
            configKey: `config.${key}`,
            values: { configKey: `config.${key}`, value: shown },
          });
        }
      }
    }
    // A bad value inside a layer type's set is named by its full path.
    refusedConfig(
      { model_type: 'gemma3_text', head_dim: 256, layer_types: gemmaLayerTypes, rope_parameters: { full_attention: { rope_type: 'linear', factor: 'x' }, sliding_attention: { rope_type: 'default' } } },
      TypeError,
      "config.rope_parameters.full_attention.factor must be a number, got 'x'",
      { configKey: 'config.rope_parameters.full_attention.factor' },
    );
    // null is "not set": the class's default bases.
    const got = read({ model_type: 'gemma3_text', head_dim: 256, rope_parameters: null, rope_scaling: null });
    assert.equal(got.layerTypes.full_attention.options.base, 1e6);
    assert.equal(got.layerTypes.sliding_attention.options.base, 1e4);
  });

  // Gemma3TextConfig: full_attention.setdefault("rope_theta", rope_theta or
  // 1e6), sliding_attention.setdefault("rope_theta", rope_local_base_freq or
  // 1e4): a set's own rope_theta stays; the file's top-level bases fill in.
  test('Gemma 3: a layer type’s own rope_theta stays; rope_theta and rope_local_base_freq fill in the others', () => {
    const got = read({
      model_type: 'gemma3_text',
      head_dim: 256,
      rope_theta: 5e5,
      rope_local_base_freq: 2e4,
      layer_types: gemmaLayerTypes,
      rope_parameters: { full_attention: { rope_type: 'default', rope_theta: 2e6 }, sliding_attention: { rope_type: 'default' } },
    });
    assert.equal(got.layerTypes.full_attention.options.base, 2e6);
    assert.equal(got.layerTypes.sliding_attention.options.base, 2e4);
    const top = read({ model_type: 'gemma3_text', head_dim: 256, rope_theta: 5e5 });
    assert.equal(top.layerTypes.full_attention.options.base, 5e5);
    assert.equal(top.layerTypes.sliding_attention.options.base, 1e4);
  });

  // rope_scaling merged into Gemma 3's full_attention set makes it a
  // per-layer-type set: its own original_max_position_embeddings stays (as in
  // "a per-layer-type set keeps its own original_max_position_embeddings").
  test('Gemma 3: rope_scaling merged into the full-attention set keeps its own original_max_position_embeddings', () => {
    const got = read({
      model_type: 'gemma3_text',
      head_dim: 256,
      original_max_position_embeddings: 8192,
      rope_scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 4096 },
    });
    assert.equal(got.layerTypes.full_attention.options.ropeType, 'yarn');
    assert.equal(got.layerTypes.full_attention.options.originalMaxPositions, 4096);
  });
});

describe('ropeOptionsFromConfig: where each key is read from, and the fraction', () => {
  // The rope-type functions of modeling_rope_utils read factor,
  // low_freq_factor, … from the parameters object only
  // (`config.rope_parameters["factor"]`): a top-level key of that name is not
  // a rope parameter.
  test('a rope parameter at the top level of the file is not read in place of the set’s', () => {
    refusedConfig({ head_dim: 64, factor: 4, rope_scaling: { rope_type: 'linear' } }, TypeError, /^sinpe: config\.rope_scaling\.factor is missing \(rope type 'linear' needs it\)$/, {
      code: 'missing',
      configKey: 'config.rope_scaling.factor',
    });
    const got = read({ head_dim: 64, beta_fast: 64, rope_scaling: { rope_type: 'yarn', factor: 4 } });
    assert.equal(got.options.betaFast, undefined);
  });

  // partial_rotary_factor is a fraction of the head in (0, 1]
  // (rotary_dim = int(head_dim * partial_rotary_factor)); outside it the file
  // is refused naming the key, before any rotary dimension is made of it.
  test('partial_rotary_factor outside (0, 1] is refused as not a fraction, naming the key', () => {
    for (const [fraction, shown] of [[0, '0'], [-0.25, '-0.25'], [-1, '-1'], [1.5, '1.5']]) {
      refusedConfig({ head_dim: 64, partial_rotary_factor: fraction }, RangeError, new RegExp(`^sinpe: config\\.partial_rotary_factor must be a number in \\(0, 1\\], got ${shown.replace('.', '\\.')}$`), {
        code: 'bad_partial_rotary_factor',
        configKey: 'config.partial_rotary_factor',
      });
    }
    // 1 and a small fraction are read: floor(64 × 1/32) = 2.
    assert.equal(read({ head_dim: 64, partial_rotary_factor: 1 }).rotaryDim, 64);
    assert.equal(read({ head_dim: 64, partial_rotary_factor: 1 / 32 }).rotaryDim, 2);
  });

  // transformers fills llama3's missing original_max_position_embeddings
  // from max_position_embeddings: a bad one is named as the key it came from.
  test('llama3’s original_max_position_embeddings taken from max_position_embeddings is checked under that key', () => {
    const llama3 = { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4 };
    refusedConfig({ head_dim: 64, max_position_embeddings: 0, rope_scaling: llama3 }, RangeError, /^sinpe: config\.max_position_embeddings must be an integer in \[1, /, {
      code: 'bad_original_max_positions',
      configKey: 'config.max_position_embeddings',
    });
    assert.equal(read({ head_dim: 64, max_position_embeddings: 8192, rope_scaling: llama3 }).options.originalMaxPositions, 8192);
  });

  test('no full_attention set: a layer type with no set is passed over for the next in layer order that has one', () => {
    const got = read({
      head_dim: 64,
      layer_types: ['chunked_attention', 'local_attention', 'global_attention'],
      rope_parameters: { global_attention: { rope_type: 'default', rope_theta: 3000 }, local_attention: { rope_type: 'default', rope_theta: 1000 } },
    });
    assert.equal(got.options.base, 1000);
    assert.deepEqual(Object.keys(got.layerTypes).sort(), ['global_attention', 'local_attention']);
  });
});

test('a layer type’s set with mrope_interleaved but no mrope_section names that set’s mrope_section', () => {
  const config = {
    head_dim: 64,
    layer_types: ['full_attention', 'sliding_attention'],
    rope_parameters: { full_attention: { rope_type: 'default' }, sliding_attention: { rope_type: 'default', mrope_interleaved: true } },
  };
  for (const f of [ropeOptionsFromConfig, (c) => pe.ropeOptionsFromConfig(c)]) {
    assert.throws(
      () => f(clone(config)),
      (e) => {
        assert.equal(e?.constructor?.name, 'RangeError', e?.message);
        assert.equal(e.message, 'sinpe: config.rope_parameters.sliding_attention.mrope_interleaved is true but config.rope_parameters.sliding_attention.mrope_section is missing');
        assert.equal(e.configKey, 'config.rope_parameters.sliding_attention.mrope_interleaved');
        return true;
      },
    );
  }
});
