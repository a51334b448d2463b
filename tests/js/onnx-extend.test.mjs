// sinpe.wasm/onnx beyond verdicts: the package's float32 recipe against the
// test's Math.fround emulation of torch's steps; a model with external data
// extended past its baked length (every other field and byte unchanged) and
// run in onnxruntime-node against the float64 reference; what onnxruntime does
// with the original model past its length; inv_freq graphs; bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sinpe from 'sinpe.wasm';
import { readModel, findRope, inspectModel, extendModel } from 'sinpe.wasm/onnx';
import ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel, makeInvFreqModel, float32Cache, round } from './fixtures/make-genai-model.mjs';
import { ropeRotate, ropeInvFreq, pairMagnitudes } from './rope-reference.mjs';
import { mulberry32 } from './fixtures/random.mjs';

const pe = await sinpe();
const r = ROTARY_DIM;
const { onnx } = onnxProto;

test('recipe float32: bit-identical to torch\'s float32 steps emulated with Math.fround, every rope type, float32 and float16', () => {
  const cases = [
    { ropeType: 'default', base: 10000 },
    { ropeType: 'linear', base: 1000000, factor: 8 },
    ...Object.values(OPTIONS).flatMap((g) => Object.values(g)),
  ];
  for (const o of cases)
    for (const dtype of ['float32', 'float16']) {
      const got = pe.ropeCacheRows(0, 3000, r, { ...o, dtype, recipe: 'float32' });
      const want = float32Cache(3000, r, o, dtype);
      const bits = (a) => (a instanceof Float32Array ? new Uint32Array(a.buffer) : a);
      for (const w of ['cos', 'sin']) {
        const g = bits(got[w]);
        const bad = want[w].findIndex((v, i) => v !== g[i]);
        assert.equal(bad, -1, `${o.ropeType} ${dtype} ${w}[${bad}]: ${g[bad]} vs ${want[w][bad]}`);
      }
    }
  // prepareRope and ropeCache take it too; exact is the default and differs.
  const prepared = pe.prepareRope(r, { ...OPTIONS.llama31.default, recipe: 'float32' });
  assert.equal(prepared.recipe, 'float32');
  assert.deepEqual(prepared.cacheRows(0, 3000).cos, pe.ropeCacheRows(0, 3000, r, { ...OPTIONS.llama31.default, recipe: 'float32' }).cos);
  assert.deepEqual(pe.ropeCache([5, 2999.5], r, { recipe: 'float32' }).sin, pe.ropeCacheRows(0, 3000, r, { recipe: 'float32' }).sin.slice(5 * 8, 6 * 8).length === 8 ? pe.ropeCache([5, 2999.5], r, { recipe: 'float32' }).sin : null);
  assert.notDeepEqual(pe.ropeCacheRows(0, 3000, r, {}).cos, pe.ropeCacheRows(0, 3000, r, { recipe: 'float32' }).cos);
  assert.throws(() => pe.ropeCacheRows(0, 3, r, { recipe: 'float64' }), (e) => e instanceof RangeError && /options\.recipe/.test(e.message));
  assert.throws(() => pe.ropeCacheRows(0, 3, r, { recipe: 1 }), (e) => e instanceof TypeError && /options\.recipe/.test(e.message));
  assert.throws(() => pe.rows(0, 3, 16, { recipe: 'float32' }), (e) => e instanceof TypeError && /recipe/.test(e.message));
});

test('recipe float32: how far it is from exact (r = 128, base 500000), as measured against the float64 reference', async () => {
  const { ropeCache } = await import('./rope-reference.mjs');
  const lines = [];
  for (const p of [4096, 32768, 131072]) {
    const got = pe.ropeCache([p], 128, { base: 500000, recipe: 'float32' });
    const ref = ropeCache([p], 128, { base: 500000 });
    let max = 0;
    for (const w of ['cos', 'sin']) for (let j = 0; j < 64; j++) max = Math.max(max, Math.abs(got[w][j] - ref[w][j]));
    // The float32 angle's rounding, |p·inv_0|·2^-24 at most (inv_0 = 1), is what makes it drift.
    assert.ok(max > 0.1 * p * 2 ** -24 && max <= p * 2 ** -24 + 1e-7, `position ${p}: max |Δ| ${max}`);
    lines.push(`position ${p}: max |recipe − exact| = ${max.toExponential(2)}`);
  }
  console.log(lines.join('\n'));
});

// Decoded with onnx-proto (not the library the package uses), as plain objects.
const decode = (bytes) => onnx.ModelProto.toObject(onnx.ModelProto.decode(bytes), { longs: String, bytes: Array, defaults: false });

test('extend: a short float16 model with external data, to 2048 rows; every other field and data byte unchanged; onnxruntime runs it past the old length', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-onnx-'));
  try {
    const o = OPTIONS.llama31.default;
    const baked = { ...bake('exact', 512, r, o, 'float16'), rows: 512 };
    const built = makeGenaiModel({ caches: { default: baked }, dtype: 'float16', external: true });
    writeFileSync(join(dir, 'model.onnx'), built.model);
    writeFileSync(join(dir, built.location), built.data);
    const model = await readModel(join(dir, 'model.onnx'));
    const sites = findRope(model);
    assert.equal(sites.length, 1);
    assert.equal(sites[0].cos.storage.kind, 'external');
    assert.equal(sites[0].cos.storage.location, 'model.onnx.data');
    assert.equal(sites[0].rows, 512);
    const before = await inspectModel(model, { config: CONFIGS.llama31, encoder: pe });
    assert.equal(before.sites[0].verdict, 'exact');
    assert.equal(before.sites[0].short, true, before.sites[0].message);

    const out = await extendModel(model, { config: CONFIGS.llama31, rows: 2048, encoder: pe });
    assert.deepEqual(out.replaced.map((x) => [x.cos, x.rowsBefore, x.rows]), [['cos_cache', 512, 2048]]);
    // Every field but the two caches is as it was.
    const a = decode(built.model);
    const b = decode(out.bytes);
    const caches = (m) => m.graph.initializer.filter((t) => /_cache$/.test(t.name));
    const rest = (m) => ({ ...m, graph: { ...m.graph, initializer: m.graph.initializer.filter((t) => !/_cache$/.test(t.name)) } });
    assert.deepEqual(rest(b), rest(a));
    assert.equal(caches(a).length, 2);
    for (const t of caches(b)) {
      assert.deepEqual(t.dims, ['2048', '8']);
      assert.equal(t.externalData, undefined);
      const want = bake('exact', 2048, r, o, 'float16')[t.name.slice(0, 3)];
      assert.deepEqual(new Uint16Array(Uint8Array.from(t.rawData).buffer), want, `${t.name}: the exact float16 cache`);
    }
    // The data file is not touched: the new model still reads 'scale' from it.
    writeFileSync(join(dir, 'extended.onnx'), out.bytes);
    assert.deepEqual(readFileSync(join(dir, built.location)), Buffer.from(built.data));

    // onnxruntime: positions 1536 … 2047, past the old 512 rows.
    const seq = 512;
    const rand = mulberry32(7);
    const x32 = Float32Array.from({ length: seq * 64 }, () => rand() * 2 - 1);
    const x16 = round(x32, 'float16');
    const xv = Float64Array.from(x16, (h) => new Float32Array(new Uint32Array([halfToFloat32Bits(h)]).buffer)[0]);
    const positions = Array.from({ length: seq }, (_, i) => 1536 + i);
    const feeds = {
      input: new ort.Tensor('float16', x16, [1, seq, 64]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from(positions, BigInt), [1, seq]),
    };
    const session = await ort.InferenceSession.create(join(dir, 'extended.onnx'));
    const got = (await session.run(feeds)).rotated.data;
    const want = ropeRotate(xv, positions, 16, o);
    const mags = pairMagnitudes(xv, 16, 16, 'half');
    let worst = 0;
    for (let i = 0; i < want.length; i++) {
      const v = new Float32Array(new Uint32Array([halfToFloat32Bits(got[i])]).buffer)[0];
      // float16 in and out: the cache's and the output's rounding (2^-11 each, relative) bound it.
      worst = Math.max(worst, Math.abs(v - want[i]) / (mags[i] || 1));
    }
    assert.ok(worst <= 2 ** -9, `float16 rotation past the old length within 2^-9·(|x_a|+|x_b|), got ${worst}`);
    console.log(`extended float16 model, positions 1536…2047 in onnxruntime-node: worst error ${worst.toExponential(2)}·(|x_a|+|x_b|)`);

    // The original model past its 512 rows: onnxruntime refuses the positions.
    const original = await ort.InferenceSession.create(join(dir, 'model.onnx'));
    await assert.rejects(original.run(feeds), (e) => {
      console.log(`original model at positions 1536…2047: onnxruntime-node says: ${e.message.split('\n')[0]}`);
      return /position|cache|out of range|exceed|invalid/i.test(e.message);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('extend a float32 model by the exact recipe: onnxruntime-node within the contract 5e-7·max(1, att)·(|x_a|+|x_b|) past the old length', async () => {
  const o = OPTIONS.qwen25.default;
  const built = makeGenaiModel({ caches: { default: { ...bake('float32', 256, r, o, 'float32'), rows: 256 } }, dtype: 'float32' });
  const report = await inspectModel(built.model, { config: CONFIGS.qwen25, encoder: pe });
  assert.equal(report.sites[0].verdict, 'float32', report.sites[0].message);
  // recipe 'exact' given: without it a cache that is the float32 recipe keeps its rows and continues by that recipe
  const out = await extendModel(built.model, { config: CONFIGS.qwen25, encoder: pe, recipe: 'exact' });
  assert.equal(out.replaced[0].rows, 1024, 'default rows: max_position_embeddings');
  const after = await inspectModel(out.bytes, { config: CONFIGS.qwen25, encoder: pe });
  assert.equal(after.sites[0].verdict, 'exact', after.sites[0].message);
  assert.equal(after.sites[0].short, false);
  const seq = 256;
  const rand = mulberry32(11);
  const x = Float32Array.from({ length: seq * 64 }, () => rand() * 2 - 1);
  const positions = Array.from({ length: seq }, (_, i) => 768 + i);
  const session = await ort.InferenceSession.create(out.bytes);
  const got = (await session.run({ input: new ort.Tensor('float32', x, [1, seq, 64]), position_ids: new ort.Tensor('int64', BigInt64Array.from(positions, BigInt), [1, seq]) })).rotated.data;
  const want = ropeRotate(x, positions, 16, o);
  const mags = pairMagnitudes(x, 16, 16, 'half');
  const att = pe.prepareRope(16, o).attentionFactor;
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / (5e-7 * Math.max(1, att) * mags[i] || 1));
  assert.ok(worst <= 1, `within the contract (worst ${worst.toFixed(3)} of it)`);
  // And by the float32 recipe, when asked: the values of the test's own emulation.
  const f32 = await extendModel(built.model, { config: CONFIGS.qwen25, encoder: pe, recipe: 'float32', rows: 700 });
  const t = decode(f32.bytes).graph.initializer.find((i) => i.name === 'sin_cache');
  assert.deepEqual(new Uint32Array(Uint8Array.from(t.rawData).buffer), float32Cache(700, r, o, 'float32').sin);
});

test('LongRoPE If branches: extend rebuilds the large cache to N rows and the small one at L, inside the branches', async () => {
  const caches = { small: { ...bake('exact', 64, r, OPTIONS.phi3.small, 'float32'), rows: 64 }, large: { ...bake('float32', 300, r, OPTIONS.phi3.large, 'float32'), rows: 300 } };
  const built = makeGenaiModel({ caches, dtype: 'float32' });
  // onProgress: (done, total) after each cache is computed, the last one (total, total)
  const calls = [];
  // recipe 'exact': the large cache (the float32 recipe) is rebuilt exact, the small one (exact) kept
  const out = await extendModel(built.model, { config: CONFIGS.phi3, encoder: pe, recipe: 'exact', onProgress: (done, total) => calls.push([done, total]) });
  assert.deepEqual(out.replaced.map((x) => [x.group, x.rows]).sort(), [['large', 512], ['small', 64]]);
  assert.deepEqual(calls, [[1, 2], [2, 2]], 'extendModel reports its progress');
  assert.deepEqual(out.replaced.map((x) => [x.group, x.kept, x.recipe]).sort(), [['large', 0, 'exact'], ['small', 64, 'exact']]);
  const after = await inspectModel(out.bytes, { config: CONFIGS.phi3, encoder: pe });
  assert.deepEqual(after.sites.map((s) => [s.group, s.verdict, s.cos.holder, s.short]).sort(), [['large', 'exact', 'Constant', false], ['small', 'exact', 'Constant', false]]);
  const session = await ort.InferenceSession.create(out.bytes);
  const x = Float32Array.from({ length: 4 * 64 }, (_, i) => Math.sin(i));
  const positions = [400, 450, 500, 511];
  const res = await session.run({ input: new ort.Tensor('float32', x, [1, 4, 64]), position_ids: new ort.Tensor('int64', BigInt64Array.from(positions, BigInt), [1, 4]), long_context: new ort.Tensor('bool', [true], []) });
  const want = ropeRotate(x, positions, 16, OPTIONS.phi3.large);
  const mags = pairMagnitudes(x, 16, 16, 'half');
  const att = pe.prepareRope(16, OPTIONS.phi3.large).attentionFactor;
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(res.rotated.data[i] - want[i]) <= 5e-7 * Math.max(1, att) * mags[i] + 1e-30, `element ${i}`);
});

test('inv_freq graphs: found, verified, and a wrong base diagnosed', async () => {
  const o = OPTIONS.llama31.default;
  const good = makeInvFreqModel(new Uint32Array(Float32Array.from(ropeInvFreq(r, o)).buffer));
  const rep = await inspectModel(good, { config: CONFIGS.llama31, encoder: pe });
  assert.equal(rep.sites.length, 1);
  assert.equal(rep.sites[0].kind, 'inv_freq');
  assert.deepEqual(rep.sites[0].consumers.map((c) => c.opType).sort(), ['Cos', 'Sin']);
  assert.equal(rep.sites[0].verdict, 'exact', rep.sites[0].message);
  const plain = makeInvFreqModel(new Uint32Array(Float32Array.from(ropeInvFreq(r, { base: 500000 })).buffer));
  const bad = await inspectModel(plain, { config: CONFIGS.llama31, encoder: pe });
  assert.equal(bad.sites[0].verdict, 'mismatch');
  assert.equal(bad.sites[0].diagnosis.mistake, 'default-rope-type', bad.sites[0].message);
  const based = makeInvFreqModel(new Uint32Array(Float32Array.from(ropeInvFreq(r, { ...o, base: 10000 })).buffer));
  const b2 = await inspectModel(based, { config: CONFIGS.llama31, encoder: pe });
  assert.equal(b2.sites[0].diagnosis.mistake, 'wrong-base', b2.sites[0].message);
});

test('bad input: each a clear error naming the file and the tensor, nothing returned', async () => {
  const o = OPTIONS.llama31.default;
  const built = makeGenaiModel({ caches: { default: { ...bake('exact', 64, r, o, 'float32'), rows: 64 } }, dtype: 'float32', external: true });
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-onnx-bad-'));
  try {
    // Truncated protobuf.
    await assert.rejects(readModel(built.model.subarray(0, built.model.length - 7), { name: 'cut.onnx' }), (e) => e.code === 'bad_protobuf' && /cut\.onnx/.test(e.message));
    await assert.rejects(readModel(new Uint8Array([0xff, 0xff, 0xff]), { name: 'junk.onnx' }), (e) => e.code === 'bad_protobuf' && /junk\.onnx/.test(e.message));
    // Missing external data file.
    writeFileSync(join(dir, 'model.onnx'), built.model);
    await assert.rejects(inspectModel(join(dir, 'model.onnx'), { config: CONFIGS.llama31, encoder: pe }), (e) => e.code === 'missing_external' && /model\.onnx\.data/.test(e.message) && /cos_cache|scale|sin_cache/.test(e.message));
    // A short data file: the tensor's slice is past its end (nothing is allocated for the claim).
    writeFileSync(join(dir, 'model.onnx.data'), built.data.subarray(0, 100));
    await assert.rejects(inspectModel(join(dir, 'model.onnx'), { config: CONFIGS.llama31, encoder: pe }), (e) => e.code === 'external_out_of_range' && /model\.onnx\.data/.test(e.message) && /cos_cache|sin_cache/.test(e.message) && /holds 100 bytes/.test(e.message));
    // A 4 GB claim in a small file.
    const huge = onnx.ModelProto.decode(built.model);
    for (const t of huge.graph.initializer.filter((x) => /_cache$/.test(x.name))) {
      t.dims = [134217728, 8];
      t.externalData.find((e) => e.key === 'length').value = String(134217728 * 32);
    }
    writeFileSync(join(dir, 'model.onnx.data'), built.data);
    writeFileSync(join(dir, 'huge.onnx'), onnx.ModelProto.encode(huge).finish());
    await assert.rejects(inspectModel(join(dir, 'huge.onnx'), { config: CONFIGS.llama31, encoder: pe }), (e) => e.code === 'external_out_of_range' && /cos_cache/.test(e.message) && /4294967360/.test(e.message) && /holds 4160 bytes/.test(e.message));
    // A cache of an integer type, and of the wrong shape.
    const ints = onnx.ModelProto.decode(makeGenaiModel({ caches: { default: { ...bake('exact', 8, r, o, 'float32'), rows: 8 } } }).model);
    ints.graph.initializer.find((t) => t.name === 'sin_cache').dataType = onnx.TensorProto.DataType.INT32;
    await assert.rejects(inspectModel(onnx.ModelProto.encode(ints).finish(), { config: CONFIGS.llama31, encoder: pe, name: 'ints.onnx' }), (e) => e.code === 'bad_tensor' && /ints\.onnx/.test(e.message) && /cos_cache/.test(e.message));
    const flat = onnx.ModelProto.decode(makeGenaiModel({ caches: { default: { ...bake('exact', 8, r, o, 'float32'), rows: 8 } } }).model);
    flat.graph.initializer.find((t) => t.name === 'cos_cache').dims = [64];
    const flatBytes = onnx.ModelProto.encode(flat).finish();
    await assert.rejects(inspectModel(flatBytes, { config: CONFIGS.llama31, encoder: pe, name: 'flat.onnx' }), (e) => e.code === 'bad_tensor' && /flat\.onnx/.test(e.message) && /cos_cache/.test(e.message));
    await assert.rejects(extendModel(flatBytes, { config: CONFIGS.llama31, encoder: pe, name: 'flat.onnx' }), (e) => e.code === 'bad_tensor' && /flat\.onnx/.test(e.message) && /cos_cache/.test(e.message));
    // Arguments.
    await assert.rejects(readModel(42), (e) => e instanceof TypeError && /model/.test(e.message));
    await assert.rejects(extendModel(built.model, { config: CONFIGS.llama31, recipe: 'float64', encoder: pe }), (e) => e instanceof RangeError && /options\.recipe/.test(e.message));
    await assert.rejects(extendModel(built.model, { config: CONFIGS.llama31, rows: 0.5, encoder: pe }), (e) => e instanceof RangeError && /options\.rows/.test(e.message));
    // an onProgress that is not a function: refused before any work, naming it
    for (const call of [extendModel, inspectModel])
      await assert.rejects(call(built.model, { config: CONFIGS.llama31, encoder: pe, onProgress: 5 }), (e) => e instanceof TypeError && e.message === 'options.onProgress must be a function, got number');
    await assert.rejects(inspectModel(built.model, { confg: {} }), (e) => e instanceof TypeError && /confg/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// binary16 bits → float32 bits (exact).
function halfToFloat32Bits(h) {
  const s = (h & 0x8000) << 16;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) {
    if (m === 0) return s >>> 0;
    const v = m * 2 ** -24;
    return (new Uint32Array(new Float32Array([v]).buffer)[0] | s) >>> 0;
  }
  if (e === 31) return (s | 0x7f800000 | (m << 13)) >>> 0;
  return (s | ((e - 15 + 127) << 23) | (m << 13)) >>> 0;
}
