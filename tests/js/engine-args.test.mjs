// Argument reading of the newest API (issue 23, item 2): one regression test
// per defect a hostile caller found, each run on both flavours. Every refusal
// must be a TypeError or RangeError whose message starts with `sinpe: `,
// names the argument at fault and leaves no `{placeholder}`; nothing the
// caller passed may be written. Expected values come from IEEE binary16 facts
// and tests/js/rope-reference.mjs, never from sinpe.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { refused } from './refused.mjs';
import { spawnSync } from 'node:child_process';
import sinpe, { ropeOptionsFromConfig, vocabulary } from 'sinpe.wasm';
import { ropeCache as referenceRopeCache } from './rope-reference.mjs';

const FLAVOURS = ['simd', 'baseline'];
const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});


const filled = (Type, n, v) => new Type(n).fill(v);
const untouched = (a, v) => assert.ok(a.every((x) => (Number.isNaN(v) ? Number.isNaN(x) : x === v)), 'the caller\'s array was written');

// 1. An `out` that is not { cos, sin } is an error, never ignored.
for (const flavour of FLAVOURS) {
  test(`defect 1 (${flavour}): a cache out that is not { cos, sin } is a TypeError naming it; nothing written`, () => {
    const pe = flavours[flavour];
    const rope = pe.prepareRope(8);
    const f32 = filled(Float32Array, 16, NaN);
    refused(() => rope.cache([0, 1], f32), TypeError, /\bout must be an object \{ cos, sin \}/, /got Float32Array/);
    untouched(f32, NaN);
    refused(() => rope.cacheRows(0, 2, f32), TypeError, /\bout must be an object \{ cos, sin \}/);
    refused(() => pe.prepareRope(8, { mropeSection: [2, 2] }).grid(1, 2, f32), TypeError, /\bout must be an object \{ cos, sin \}/);
    untouched(f32, NaN);
    const u16 = filled(Uint16Array, 8, 7);
    refused(() => pe.ropeCacheRows(0, 1, 8, { dtype: 'float16', out: u16 }), TypeError, /options\.out must be an object \{ cos, sin \}/, /got Uint16Array/);
    untouched(u16, 7);
    refused(() => pe.ropeCache([0], 8, { out: {} }), TypeError, /options\.out\.cos is missing/);
    refused(() => pe.ropeCache([0], 8, { out: [] }), TypeError, /options\.out must be an object \{ cos, sin \}/, /got Array/);
    const cos = filled(Float32Array, 4, NaN);
    refused(() => pe.ropeCache([0], 8, { out: { cos } }), TypeError, /options\.out\.sin is missing/);
    untouched(cos, NaN);
    refused(() => pe.ropeCacheGrid(1, 2, 8, { mropeSection: [2, 2], out: { cos, sin: filled(Float32Array, 4, NaN), extra: 1 } }), TypeError, /unknown key "extra"/);
    untouched(cos, NaN);
    // The right shape is written, with the reference's values.
    const out = { cos: filled(Float32Array, 8, NaN), sin: filled(Float32Array, 8, NaN) };
    const got = rope.cache([0, 3], out);
    assert.equal(got.cos, out.cos);
    assert.equal(got.sin, out.sin);
    const want = referenceRopeCache([0, 3], 8);
    for (let i = 0; i < 8; i++) {
      assert.ok(Math.abs(out.cos[i] - want.cos[i]) < 1e-6, `cos[${i}]`);
      assert.ok(Math.abs(out.sin[i] - want.sin[i]) < 1e-6, `sin[${i}]`);
    }
  });
}

// 2. float16 overflow is a RangeError, as float32's is; the largest value
// that rounds to a finite binary16 (65519 -> 65504, 0x7bff) still passes.
const yarn = (attentionFactor, dtype) => ({ ropeType: 'yarn', factor: 2, originalMaxPositions: 512, attentionFactor, dtype });
for (const flavour of FLAVOURS) {
  test(`defect 2 (${flavour}): a float16 cache that would overflow is a RangeError, like float32's`, () => {
    const pe = flavours[flavour];
    refused(() => pe.ropeCacheRows(0, 1, 8, yarn(65520, 'float16')), RangeError, /float16/, /65504/);
    refused(() => pe.ropeCache([0, 1], 8, yarn(1e6, 'float16')), RangeError, /float16/);
    refused(() => pe.ropeCacheGrid(1, 2, 8, { ...yarn(65520, 'float16'), mropeSection: [2, 2] }), RangeError, /float16/);
    const prepared = pe.prepareRope(8, yarn(65520, 'float16'));
    const out = { cos: filled(Uint16Array, 4, 1), sin: filled(Uint16Array, 4, 1) };
    refused(() => prepared.cacheRows(0, 1, out), RangeError, /float16/);
    refused(() => prepared.cache([0], out), RangeError, /float16/);
    untouched(out.cos, 1);
    // float32 refuses an attention factor past its own range the same way
    refused(() => pe.ropeCacheRows(0, 1, 8, yarn(1e39)), RangeError, /options\.attentionFactor/);
    // the edge: 65519 rounds to binary16's largest finite value 65504 = 0x7bff
    const edge = pe.ropeCacheRows(0, 1, 8, yarn(65519, 'float16'));
    assert.equal(edge.cos[0], 0x7bff);
    // bfloat16 holds 65520 (finite: its exponent field is not all ones)
    const bf = pe.ropeCacheRows(0, 1, 8, yarn(65520, 'bfloat16'));
    assert.notEqual(bf.cos[0] & 0x7f80, 0x7f80);
  });
}

// 3. A layer_types of length 2^32 - 1 (sparse) is refused by its length before
// anything is iterated. In a child process: before the fix it killed the
// process with V8's uncatchable "invalid size" error.
test('defect 3: a sparse layer_types of length 2^32 - 1 is a RangeError naming it, before iterating', () => {
  const script = `
    import { ropeOptionsFromConfig } from 'sinpe.wasm';
    const layerTypes = [];
    layerTypes.length = 2 ** 32 - 1;
    try {
      ropeOptionsFromConfig({ hidden_size: 64, num_attention_heads: 4, layer_types: layerTypes });
      console.log(JSON.stringify({ accepted: true }));
    } catch (e) {
      console.log(JSON.stringify({ name: e.constructor.name, message: e.message }));
    }`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, `the process died: ${run.signal ?? ''} ${run.stderr.slice(0, 400)}`);
  const result = JSON.parse(run.stdout.trim());
  assert.equal(result.name, 'RangeError', run.stdout);
  assert.match(result.message, /^sinpe: config\.layer_types has 4294967295 entries, more than the 2\^29/);
});

// 4. An mropeSection far longer than the axis limit names the option and the limit.
for (const flavour of FLAVOURS) {
  test(`defect 4 (${flavour}): a 10^5-entry mropeSection names options.mropeSection and the limit`, () => {
    const pe = flavours[flavour];
    const most = vocabulary.limits.maxRopeAxes;
    const long = Array(100_000).fill(1);
    for (const section of [long, new Float64Array(long)]) {
      const error = refused(() => pe.ropeCache([0], 8, { mropeSection: section }), RangeError, /^sinpe: options\.mropeSection must have 1 to 4 entries/, /100000 values/);
      assert.equal(most, 4);
      assert.equal(error.status, 'mrope_section_sum');
    }
    refused(() => pe.ropeCacheRows(0, 1, 8, { ropeType: 'longrope', shortFactor: long, longFactor: [1, 1, 1, 1] }), RangeError, /^sinpe: options\.shortFactor must be/, /100000 values/);
  });
}

// 5. A grid of a plan without two axes names mropeSection / ropeAxes, not positions.
for (const flavour of FLAVOURS) {
  test(`defect 5 (${flavour}): ropeCacheGrid of a plan without 2 axes names options.mropeSection and says a grid needs 2`, () => {
    const pe = flavours[flavour];
    for (const [options, axes] of [[{}, 1], [{ mropeSection: [2, 1, 1] }, 3]]) {
      const error = refused(() => pe.ropeCacheGrid(2, 2, 8, options), RangeError, /options\.mropeSection/, /options\.ropeAxes/, /a grid needs a plan with 2 position axes/, new RegExp(`has ${axes}\\b`));
      assert.doesNotMatch(error.message, /\bpositions\b/);
    }
    refused(() => pe.prepareRope(8).grid(2, 2), RangeError, /a grid needs a plan with 2 position axes/);
  });
}

// 6. A Gemma 3 file's missing factor is named where the file has it: rope_scaling.
test('defect 6: a Gemma 3 file without factor is told the rope_scaling key it has', () => {
  const text = { model_type: 'gemma3_text', head_dim: 16, rope_scaling: { rope_type: 'linear' } };
  const e1 = refused(() => ropeOptionsFromConfig({ model_type: 'gemma3', text_config: text }), TypeError, /^sinpe: config\.text_config\.rope_scaling\.factor is missing/);
  assert.equal(e1.configKey, 'config.text_config.rope_scaling.factor');
  refused(() => ropeOptionsFromConfig(text), TypeError, /^sinpe: config\.rope_scaling\.factor is missing/);
});

// 7. A method called on another object is a TypeError naming the method.
for (const flavour of FLAVOURS) {
  test(`defect 7 (${flavour}): methods called on a foreign this are TypeErrors naming the method`, () => {
    const pe = flavours[flavour];
    const enc = pe.prepare(8);
    const rope = pe.prepareRope(8);
    const calls = [
      [Object.getPrototypeOf(pe), ['encode', 'rows', 'table', 'grid2d', 'addTo', 'frequencies', 'heatmap', 'prepare', 'ropeFrequencies', 'ropeCache', 'ropeCacheRows', 'ropeCacheGrid', 'prepareRope', 'applyRope'], [{}, rope, enc]],
      [Object.getPrototypeOf(enc), ['rows', 'encode', 'chunks'], [{}, rope, pe]],
      [Object.getPrototypeOf(rope), ['cache', 'cacheRows', 'grid', 'apply'], [{}, enc, pe]],
    ];
    for (const [proto, names, others] of calls)
      for (const name of names)
        for (const other of [...others, undefined, 1]) {
          refused(() => proto[name].call(other, 0, 1, 8), TypeError, new RegExp(`^sinpe: ${name} must be called on `));
        }
    // the bound methods still work
    assert.equal(enc.rows.call({}, 0, 1).length, 8);
    assert.equal(rope.cache.call({}, [0]).cos.length, 4);
  });
}

// 8. A layer type named __proto__ (JSON.parse makes it an own key) is kept.
test('defect 8: a layer type named __proto__ is kept as an own key of layerTypes', () => {
  const config = JSON.parse(
    '{"hidden_size":64,"num_attention_heads":4,"layer_types":["__proto__","full_attention"],' +
      '"rope_parameters":{"__proto__":{"rope_type":"default","rope_theta":500},"full_attention":{"rope_type":"default","rope_theta":20000}}}',
  );
  const read = ropeOptionsFromConfig(config);
  assert.ok(Object.hasOwn(read.layerTypes, '__proto__'), 'layerTypes lost __proto__');
  assert.deepEqual(Object.keys(read.layerTypes).sort(), ['__proto__', 'full_attention']);
  assert.equal(Object.getOwnPropertyDescriptor(read.layerTypes, '__proto__').value.options.base, 500);
  assert.equal(read.layerTypes.full_attention.options.base, 20000);
  assert.equal(read.options.base, 20000);
});

// 9. A Gemma 3 file recognised by rope_local_base_freq alone gets the class's
// default full-attention base (Gemma3TextConfig: rope_theta 1_000_000).
test('defect 9: a file recognised as Gemma 3 by rope_local_base_freq alone gets full-attention base 1e6', () => {
  const read = ropeOptionsFromConfig({ hidden_size: 64, num_attention_heads: 4, rope_local_base_freq: 10_000 });
  assert.equal(read.layerTypes.full_attention.options.base, 1_000_000);
  assert.equal(read.layerTypes.sliding_attention.options.base, 10_000);
  assert.equal(read.options.base, 1_000_000);
});

// 10. A cycle (or deep nesting) where the reader never looks is irrelevant; one
// in a key it reads is refused, naming the key.
test('defect 10: a cycle in a key the reader does not need is irrelevant; one in a key it reads is refused', () => {
  const plain = { hidden_size: 64, num_attention_heads: 4, rope_scaling: { rope_type: 'linear', factor: 2 } };
  const want = ropeOptionsFromConfig(plain);
  const cyclic = { ...plain, rope_scaling: { ...plain.rope_scaling } };
  cyclic.self = cyclic;
  cyclic.rope_scaling.note = { back: cyclic };
  let deep = 1;
  for (let i = 0; i < 100; i++) deep = { a: deep };
  cyclic.extra = deep;
  assert.deepEqual(ropeOptionsFromConfig(cyclic), want);
  const wrapped = { text_config: cyclic };
  cyclic.text_config = wrapped; // only the outer config's text_config is read
  assert.deepEqual(ropeOptionsFromConfig(wrapped), want);
  const loop = { ...plain };
  loop.rope_parameters = loop;
  delete loop.rope_scaling;
  const error = refused(() => ropeOptionsFromConfig(loop), RangeError, /^sinpe: config\.rope_parameters refers back/);
  assert.equal(error.code, 'cycle');
});
