// sinpe.wasm/onnx's inspectModel and extendModel as documented (docs/onnx.md;
// js/onnx/index.d.ts): their options and each refusal, the report's status
// over the sites, progress, and what extendModel writes: each cache inline
// (raw_data only, the external and typed fields cleared), of the rows asked
// for (LongRoPE's small cache keeping L), with the declared shapes of the
// replaced tensors following, the caller's model untouched. Small models
// built by tests/js/fixtures/make-genai-model.mjs with caches baked by the
// test references (rope-reference.mjs), decoded back with onnx-proto, not the
// library the package uses. onnx-extend.test.mjs runs extended models in
// onnxruntime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import sinpe from 'sinpe.wasm';
import { readModel, findRope, inspectModel, extendModel, writeModel, referenceCaches, OnnxError, TOLERANCE_ULPS } from 'sinpe.wasm/onnx';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, exactCache, float32Cache, makeGenaiModel, makeInvFreqModel } from './fixtures/make-genai-model.mjs';
import { ropeInvFreq } from './rope-reference.mjs';
import { halfValue } from './mrope-reference.mjs';
import { tensorInfo } from './fixtures/make-rotary-model.mjs';

const pe = await sinpe();
const r = ROTARY_DIM;
const { onnx } = onnxProto;
const decode = (bytes) => onnx.ModelProto.decode(bytes);
const encode = (m) => onnx.ModelProto.encode(m).finish();
const llama = (rows, how = 'exact', dtype = 'float32') => makeGenaiModel({ caches: { default: { ...bake(how, rows, r, OPTIONS.llama31.default, dtype), rows } }, dtype }).model;
const gemma = (rows) => makeGenaiModel({ caches: { global: { ...bake('exact', rows, r, OPTIONS.gemma3.global, 'float32'), rows }, local: { ...bake('exact', rows, r, OPTIONS.gemma3.local, 'float32'), rows } } }).model;
/**
 * Whether a stored cache is the reference's exact one: half types bit for
 * bit; float32 within the package's documented 2.5e-7·max(1, att) of the
 * float64 values (docs/onnx.md: its float32 cache is not correctly rounded).
 */
function assertExact(bits, rows, o, dtype, what) {
  const ref = exactCache(rows, r, o, dtype);
  const which = what.includes('sin') ? 'sin' : 'cos';
  if (dtype !== 'float32') return assert.deepEqual(bits, ref[which], what);
  const got = new Float32Array(bits.buffer, bits.byteOffset, bits.length);
  const want = ref.values[which];
  assert.equal(got.length, want.length, what);
  const tol = 2.5e-7 * Math.max(1, Math.abs(ref.values.cos[0]));
  const bad = want.findIndex((v, i) => !(Math.abs(got[i] - v) <= tol));
  assert.equal(bad, -1, `${what}[${bad}]: ${got[bad]} vs ${want[bad]}`);
}
/** A cache tensor's bits as stored (raw_data only). */
const bitsOf = (t, dtype) => {
  assert.ok(t.rawData.length > 0, `${t.name}: inline raw_data`);
  const b = Uint8Array.from(t.rawData);
  return dtype === 'float32' ? new Uint32Array(b.buffer) : new Uint16Array(b.buffer);
};
const refused = (promise, Type, message) =>
  assert.rejects(promise, (e) => {
    assert.ok(e instanceof Type, `${Type.name}, got ${e}`);
    typeof message === 'string' ? assert.equal(e.message, message) : assert.match(e.message, message);
    return true;
  });
const onnxError = (promise, code, pattern) =>
  assert.rejects(promise, (e) => {
    assert.ok(e instanceof OnnxError, `an OnnxError, got ${e}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, pattern);
    return true;
  });

test('options: an object of the documented keys; anything else is a TypeError naming it, before any work', async () => {
  const model = llama(8);
  const inspectKeys = ['config', 'encoder', 'externalData', 'name', 'onProgress'];
  const extendKeys = ['config', 'rows', 'recipe', 'encoder', 'externalData', 'name', 'onProgress'];
  for (const [call, keys] of [
    [inspectModel, inspectKeys],
    [extendModel, extendKeys],
  ]) {
    await refused(call(model, null), TypeError, 'options must be an object, got null');
    await refused(call(model, 5), TypeError, 'options must be an object, got number');
    await refused(call(model, 'config'), TypeError, 'options must be an object, got string');
    await refused(call(model, { config: CONFIGS.llama31, encoder: pe, confg: {} }), TypeError, `unknown option 'confg'; this call takes: ${keys.join(', ')}`);
    await refused(call(model, { config: [CONFIGS.llama31], encoder: pe }), TypeError, 'options.config must be a parsed config.json object, got an array');
    await refused(call(model, { config: JSON.stringify(CONFIGS.llama31), encoder: pe }), TypeError, 'options.config must be a parsed config.json object, got string');
    await refused(call(model, { config: 7, encoder: pe }), TypeError, 'options.config must be a parsed config.json object, got number');
    await refused(call(model, { config: CONFIGS.llama31, encoder: pe, onProgress: null }), TypeError, 'options.onProgress must be a function, got null');
    await refused(call(model, { config: CONFIGS.llama31, encoder: pe, onProgress: {} }), TypeError, 'options.onProgress must be a function, got object');
    // a config the package refuses: its error, before the model is read
    await refused(call(new Uint8Array([0xff]), { config: { ...CONFIGS.llama31, rope_theta: -1 }, encoder: pe }), RangeError, /rope_theta|base/);
  }
  // inspectModel's options are optional; a null config is no config
  for (const options of [undefined, {}, { config: null }, { config: undefined }]) {
    const rep = await inspectModel(model, options);
    assert.equal(rep.config, false);
    assert.equal(rep.status, 'unchecked');
    assert.equal(rep.sites[0].verdict, 'unchecked');
  }
});

test('inspectModel: the model by bytes, by an OnnxModel, with external data and a name; status match / mismatch / unchecked over the sites', async () => {
  const good = await inspectModel(gemma(16), { config: CONFIGS.gemma3, encoder: pe, name: 'g.onnx' });
  assert.deepEqual([good.model, good.config, good.status], ['g.onnx', true, 'match']);
  assert.deepEqual(good.sites.map((s) => [s.cos.name, s.verdict]), [['cos_cache_global', 'exact'], ['cos_cache_local', 'exact']]);
  // the live tensor is not in the report (a plain, JSON-able object)
  assert.equal(good.sites[0].cos.tensor, undefined);
  assert.equal(good.sites[0].sin.tensor, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(good.sites[0].cos)), good.sites[0].cos);
  // one mismatching site of two: mismatch
  const mixed = makeGenaiModel({ caches: { global: { ...bake('exact', 16, r, OPTIONS.gemma3.global, 'float32'), rows: 16 }, local: { ...bake('wrong-base', 16, r, OPTIONS.gemma3.local, 'float32'), rows: 16 } } }).model;
  const bad = await inspectModel(mixed, { config: CONFIGS.gemma3, encoder: pe });
  assert.deepEqual([bad.model, bad.status, bad.sites.map((s) => s.verdict)], ['model.onnx', 'mismatch', ['exact', 'mismatch']]);
  // an OnnxModel is used as it is (its name, its external data)
  const built = makeGenaiModel({ caches: { default: { ...bake('exact', 8, r, OPTIONS.llama31.default, 'float32'), rows: 8 } }, external: true });
  const read = await readModel(built.model, { externalData: { [built.location]: built.data }, name: 'read.onnx' });
  const viaModel = await inspectModel(read, { config: CONFIGS.llama31, encoder: pe, name: 'ignored.onnx' });
  assert.deepEqual([viaModel.model, viaModel.status], ['read.onnx', 'match']);
  // bytes with external data through the options
  const viaBytes = await inspectModel(built.model, { config: CONFIGS.llama31, encoder: pe, externalData: { [built.location]: new Blob([built.data]) }, name: 'b.onnx' });
  assert.deepEqual([viaBytes.model, viaBytes.status], ['b.onnx', 'match']);
  // a model with no RoPE: without a config nothing is checked; with a config
  // that has RoPE, finding none is a mismatch (onnx-find-sites.test.mjs)
  const none = makeInvFreqModel(new Uint32Array(2));
  const noSites = decode(none);
  noSites.graph.node = noSites.graph.node.filter((n) => n.opType !== 'Sin');
  const empty = await inspectModel(encode(noSites), { config: CONFIGS.llama31, encoder: pe });
  assert.deepEqual([empty.sites.length, empty.config, empty.status, empty.finding?.mistake], [0, true, 'mismatch', 'no-rope-found']);
  const emptyNoConfig = await inspectModel(encode(noSites), { encoder: pe });
  assert.deepEqual([emptyNoConfig.sites.length, emptyNoConfig.config, emptyNoConfig.status, emptyNoConfig.finding], [0, false, 'unchecked', undefined]);
  // an object that only looks like a model is read as a source, and refused; so are null and undefined
  for (const fake of [{ proto: {} }, { tensorBytes: () => new Uint8Array(0) }, null, undefined])
    for (const call of [inspectModel, extendModel]) await refused(call(fake, { encoder: pe, config: CONFIGS.llama31 }), TypeError, /^model must be a Uint8Array/);
  // without an encoder one is loaded
  const own = await inspectModel(llama(8), { config: CONFIGS.llama31 });
  assert.equal(own.status, 'match');
  assert.equal(TOLERANCE_ULPS, 1);
});

test('onProgress: (done, total) after each site, for inspectModel and extendModel', async () => {
  const calls = [];
  await inspectModel(gemma(8), { config: CONFIGS.gemma3, encoder: pe, onProgress: (...a) => calls.push(a) });
  assert.deepEqual(calls, [
    [1, 2],
    [2, 2],
  ]);
  calls.length = 0;
  await extendModel(gemma(8), { config: CONFIGS.gemma3, encoder: pe, rows: 12, onProgress: (...a) => calls.push(a) });
  assert.deepEqual(calls, [
    [1, 2],
    [2, 2],
  ]);
  // the callback is optional, and so is the encoder (one is loaded)
  assert.equal((await extendModel(gemma(8), { config: CONFIGS.gemma3, rows: 12 })).replaced.length, 2);
});

test('extendModel: config required; recipe exact or float32; rows an integer in [1, 2^24]; each refusal before any work', async () => {
  const model = llama(8);
  await refused(extendModel(model, { encoder: pe }), TypeError, "options.config is required: the caches are rebuilt from the model's config.json");
  await refused(extendModel(model, undefined), TypeError, "options.config is required: the caches are rebuilt from the model's config.json");
  await refused(extendModel(model, { config: null, encoder: pe }), TypeError, /^options\.config is required/);
  for (const recipe of ['float64', 'EXACT', '', 32])
    await refused(extendModel(model, { config: CONFIGS.llama31, encoder: pe, recipe }), RangeError, `options.recipe must be one of 'exact', 'float32'; got ${JSON.stringify(recipe)}`);
  for (const rows of [0, -1, 1.5, 2 ** 24 + 1, NaN, Infinity, '8', 8n, null])
    await refused(extendModel(model, { config: CONFIGS.llama31, encoder: pe, rows }), RangeError, `options.rows must be an integer in [1, 16777216], got ${String(rows)}`);
  // refused before the model is read: an unreadable model is not what is reported
  await refused(extendModel(new Uint8Array([0xff]), { config: CONFIGS.llama31, encoder: pe, rows: 0 }), RangeError, /options\.rows/);
  // rows 1 is fine
  const one = await extendModel(model, { config: CONFIGS.llama31, encoder: pe, rows: 1 });
  assert.deepEqual(one.replaced.map((x) => x.rows), [1]);
  // the config's max_position_embeddings is the default; without it rows is required
  const { max_position_embeddings: _, ...noMax } = CONFIGS.llama31;
  void _;
  await refused(extendModel(model, { config: noMax, encoder: pe }), TypeError, 'options.rows is required: the config has no max_position_embeddings');
  assert.deepEqual((await extendModel(model, { config: noMax, encoder: pe, rows: 20 })).replaced.map((x) => x.rows), [20]);
  assert.deepEqual((await extendModel(model, { config: CONFIGS.llama31, encoder: pe })).replaced.map((x) => x.rows), [CONFIGS.llama31.max_position_embeddings]);
  // a multimodal config: its text_config's max_position_embeddings, else the top level's (as transformers reads it)
  const rowsFor = async (config) => (await extendModel(model, { config, encoder: pe })).replaced.map((x) => x.rows);
  assert.deepEqual(await rowsFor({ model_type: 'llava', text_config: { ...CONFIGS.llama31, max_position_embeddings: 96 } }), [96]);
  assert.deepEqual(await rowsFor({ model_type: 'llava', text_config: noMax, max_position_embeddings: 40 }), [40]);
  // a max_position_embeddings that is no positive integer is none
  for (const max of [0, 1.5, -8, '64'])
    await refused(extendModel(model, { config: { ...noMax, max_position_embeddings: max }, encoder: pe }), TypeError, 'options.rows is required: the config has no max_position_embeddings');
});

test('extendModel: the exact and float32 caches of the reference, inline (raw_data only) with dims [rows, r/2]; every other tensor as it was; the caller\'s model untouched', async () => {
  const o = OPTIONS.llama31.default;
  // caches stored in float_data and external data, a float16 model, a float32 one
  for (const dtype of ['float32', 'float16']) {
    const built = makeGenaiModel({ caches: { default: { ...bake('exact', 8, r, o, dtype), rows: 8 } }, dtype, external: true });
    const read = await readModel(built.model, { externalData: { [built.location]: built.data } });
    const before = [...read.bytes];
    for (const recipe of ['exact', 'float32']) {
      const out = await extendModel(read, { config: CONFIGS.llama31, encoder: pe, rows: 24, recipe });
      // the 8 rows match both recipes: they are kept byte for byte, and the float32 recipe continues with the inv_freq fitted to them
      const [{ kept, variant, ...rest }] = out.replaced;
      assert.deepEqual(rest, { cos: 'cos_cache', sin: 'sin_cache', group: 'default', rowsBefore: 8, rows: 24, rotaryDim: 16, dtype, recipe });
      // exact: kept; float32: kept where the exact rows fit the float32 recipe too (the float16 ones do), else rebuilt
      assert.deepEqual([kept, variant], recipe === 'exact' ? [8, null] : kept === 8 ? [8, 'float64-inv'] : [0, null], `${dtype} ${recipe}`);
      if (recipe === 'float32' && dtype === 'float16') assert.equal(kept, 8);
      const m = decode(out.bytes);
      const want = recipe === 'float32' && float32Cache(24, r, o, dtype);
      for (const which of ['cos', 'sin']) {
        const t = m.graph.initializer.find((x) => x.name === `${which}_cache`);
        assert.deepEqual(t.dims.map(Number), [24, 8]);
        assert.equal(t.dataLocation, onnx.TensorProto.DataLocation.DEFAULT);
        assert.deepEqual([t.externalData.length, t.floatData.length, t.int32Data.length, t.doubleData.length], [0, 0, 0, 0]);
        if (recipe === 'float32') assert.deepEqual(bitsOf(t, dtype), want[which], `${dtype} ${recipe} ${which}`);
        else assertExact(bitsOf(t, dtype), 24, o, dtype, `${dtype} ${which}`);
      }
      // 'scale' still lives in the data file, as before
      const scale = m.graph.initializer.find((x) => x.name === 'scale');
      assert.equal(scale.dataLocation, onnx.TensorProto.DataLocation.EXTERNAL);
      assert.deepEqual(scale.externalData.map((e) => e.key), ['location', 'offset', 'length']);
    }
    // the OnnxModel given is as it was: its bytes, its tensors, its sites
    assert.deepEqual([...read.bytes], before);
    const sites = findRope(read);
    assert.deepEqual([sites[0].rows, sites[0].cos.storage.kind, read.proto.graph.initializer.find((t) => t.name === 'cos_cache').dims], [8, 'external', [8n, 8n]]);
  }
  // bfloat16 caches are rebuilt too
  const bf = decode((await extendModel(llama(8, 'exact', 'bfloat16'), { config: CONFIGS.llama31, encoder: pe, rows: 12 })).bytes);
  for (const t of bf.graph.initializer.filter((x) => /_cache$/.test(x.name))) {
    assert.equal(t.dataType, 16);
    assertExact(bitsOf(t, 'bfloat16'), 12, o, 'bfloat16', `bfloat16 ${t.name}`);
  }
  // a cache named _small of a model that is not LongRoPE gets the rows asked for
  const small = decode(llama(8));
  for (const t of small.graph.initializer) if (/_cache$/.test(t.name)) t.name += '_small';
  for (const n of small.graph.node) n.input = n.input.map((i) => (/_cache$/.test(i) ? `${i}_small` : i));
  const smallOut = await extendModel(encode(small), { config: CONFIGS.llama31, encoder: pe, rows: 12 });
  assert.deepEqual(smallOut.replaced.map((x) => [x.cos, x.group, x.rows]), [['cos_cache_small', 'small', 12]]);
  // a cache held in float_data / int32_data (onnx.proto's typed fields) is written as raw_data, the typed field emptied
  for (const dtype of ['float32', 'float16']) {
    const m = decode(llama(8, 'exact', dtype));
    for (const t of m.graph.initializer.filter((x) => /_cache$/.test(x.name))) {
      const raw = Uint8Array.from(t.rawData);
      if (dtype === 'float32') t.floatData = [...new Float32Array(raw.buffer)];
      else t.int32Data = [...new Uint16Array(raw.buffer)];
      t.rawData = new Uint8Array(0);
    }
    // a stray double_data beside it (one storage field per tensor, onnx.proto) is dropped as well
    m.graph.initializer.find((x) => x.name === 'cos_cache').doubleData = [1, 2];
    const out = decode((await extendModel(encode(m), { config: CONFIGS.llama31, encoder: pe, rows: 10 })).bytes);
    for (const t of out.graph.initializer.filter((x) => /_cache$/.test(x.name))) {
      assert.deepEqual([t.floatData.length, t.int32Data.length, t.doubleData.length], [0, 0, 0], `${dtype} ${t.name}`);
      assertExact(bitsOf(t, dtype), 10, o, dtype, `${dtype} ${t.name}`);
    }
  }
});

test('extendModel: LongRoPE\'s small cache keeps L rows, the large one gets the rows asked for; the shapes declared for the caches follow (subgraphs too), other shapes unchanged', async () => {
  const p = OPTIONS.phi3;
  const model = makeGenaiModel({ caches: { small: { ...bake('exact', 64, r, p.small, 'float32'), rows: 64 }, large: { ...bake('exact', 100, r, p.large, 'float32'), rows: 100 } } }).model;
  // declared shapes: one of a cache with a symbolic first dim (kept), and an unrelated one
  const m = decode(model);
  m.graph.valueInfo = [tensorInfo('cos_cache_large', 1, ['rows', 8]), tensorInfo('scaled', 1, [100, 8])];
  const out = await extendModel(encode(m), { config: CONFIGS.phi3, encoder: pe, rows: 300 });
  assert.deepEqual(
    out.replaced.map((x) => [x.cos, x.group, x.rowsBefore, x.rows]),
    [
      ['cos_cache_large', 'large', 100, 300],
      ['cos_cache_small', 'small', 64, 64],
    ],
  );
  const back = decode(out.bytes);
  const dims = (vi) => vi.type.tensorType.shape.dim.map((d) => (d.dimParam ? d.dimParam : Number(d.dimValue)));
  assert.deepEqual(back.graph.valueInfo.map(dims), [
    ['rows', 8],
    [100, 8],
  ]);
  const branches = Object.fromEntries(back.graph.node.find((n) => n.opType === 'If').attribute.map((a) => [a.name, a.g]));
  assert.deepEqual(branches.then_branch.output.map((o) => [o.name, dims(o)]), [
    ['cos_cache_large', [300, 8]],
    ['sin_cache_large', [300, 8]],
  ]);
  assert.deepEqual(branches.else_branch.output.map((o) => [o.name, dims(o)]), [
    ['cos_cache_small', [64, 8]],
    ['sin_cache_small', [64, 8]],
  ]);
  // each branch holds the reference's cache for its factors
  const constBits = (g, which) => new Uint32Array(Uint8Array.from(g.node.find((n) => n.output[0].startsWith(which)).attribute[0].t.rawData).buffer);
  assertExact(constBits(branches.then_branch, 'cos'), 300, p.large, 'float32', 'large cos');
  assertExact(constBits(branches.else_branch, 'sin'), 64, p.small, 'float32', 'small sin');
  // the extended model inspects as exact
  const rep = await inspectModel(out.bytes, { config: CONFIGS.phi3, encoder: pe });
  assert.deepEqual(rep.sites.map((s) => [s.cos.name, s.verdict, s.rows]), [
    ['cos_cache_large', 'exact', 300],
    ['cos_cache_small', 'exact', 64],
  ]);
  // shapes declared in the main graph for a replaced initializer (inputs, outputs, value_info) follow it
  const g = decode(llama(8));
  g.graph.input.push(tensorInfo('cos_cache', 1, [8, 8]));
  g.graph.output.push(tensorInfo('sin_cache', 1, [8, 8]));
  g.graph.valueInfo.push(tensorInfo('cos_cache', 1, [8, 8]));
  // declared with no type, no shape, or no dims: left as they are
  g.graph.valueInfo.push(onnx.ValueInfoProto.create({ name: 'sin_cache' }), onnx.ValueInfoProto.create({ name: 'sin_cache', type: { tensorType: { elemType: 1 } } }), tensorInfo('cos_cache', 1, []));
  const grown = decode((await extendModel(encode(g), { config: CONFIGS.llama31, encoder: pe, rows: 40 })).bytes);
  const vis = grown.graph.valueInfo;
  assert.deepEqual([vis.at(-3).type, vis.at(-2).type.tensorType.shape, vis.at(-1).type.tensorType.shape.dim], [null, null, []]);
  assert.deepEqual([grown.graph.input.at(-1), grown.graph.output.at(-1), vis.at(-4)].map(dims), [
    [40, 8],
    [40, 8],
    [40, 8],
  ]);
  assert.deepEqual(grown.graph.input[0].type.tensorType.shape.dim.map((d) => d.dimParam), ['batch', 'seq', 'hidden']);
  // …and in the graphs of a GRAPHS attribute (the llama model's graph as the second of two bodies)
  const inner = decode(llama(8)).graph;
  inner.output.push(tensorInfo('cos_cache', 1, [8, 8]));
  const outer = decode(llama(8));
  outer.graph = onnx.GraphProto.create({
    name: 'outer',
    node: [onnx.NodeProto.create({ name: 'multi', opType: 'Scan', domain: 'my.domain', attribute: [onnx.AttributeProto.create({ name: 'bodies', type: onnx.AttributeProto.AttributeType.GRAPHS, graphs: [onnx.GraphProto.create({ name: 'empty' }), inner] })] })],
  });
  const nested = await extendModel(encode(outer), { config: CONFIGS.llama31, encoder: pe, rows: 30 });
  assert.deepEqual(nested.replaced.map((x) => [x.cos, x.rows]), [['cos_cache', 30]]);
  assert.deepEqual(dims(decode(nested.bytes).graph.node[0].attribute[0].graphs[1].output.at(-1)), [30, 8]);
});

test('extendModel refuses what it cannot rebuild: no cache (inv_freq only), a cache not 2-D, of another type, of different types, or of another width than the config\'s', async () => {
  const o = OPTIONS.llama31.default;
  await onnxError(extendModel(makeInvFreqModel(new Uint32Array(Float32Array.from(ropeInvFreq(r, o)).buffer)), { config: CONFIGS.llama31, encoder: pe, name: 'freq.onnx' }), 'no_rope', /^freq\.onnx: no RoPE cache found/);
  const edit = (f) => {
    const m = decode(llama(8));
    const t = (n) => m.graph.initializer.find((x) => x.name === n);
    f(t('cos_cache'), t('sin_cache'));
    return encode(m);
  };
  const call = (bytes) => extendModel(bytes, { config: CONFIGS.llama31, encoder: pe, name: 'x.onnx' });
  await onnxError(call(edit((c) => (c.dims = [64]))), 'bad_tensor', /^x\.onnx: cache 'cos_cache' \/ 'sin_cache' must be 2-D \(rows, rotaryDim\/2\), got \[64\] and \[8,8\]$/);
  await onnxError(call(edit((c, s) => (s.dims = [64]))), 'bad_tensor', /got \[8,8\] and \[64\]$/);
  await onnxError(call(edit((c, s) => (s.dims = [16, 4]))), 'bad_tensor', /got \[8,8\] and \[16,4\]$/);
  await onnxError(call(edit((c, s) => (s.dims = [2, 8, 4]))), 'bad_tensor', /got \[8,8\] and \[2,8,4\]$/);
  await onnxError(call(edit((c) => (c.dims = [8, 8, 1]))), 'bad_tensor', /got \[8,8,1\] and \[8,8\]$/);
  // element types: int32, float64 (onnx.proto DOUBLE 11), and sin of another type than cos
  await onnxError(call(edit((c) => (c.dataType = 6))), 'bad_tensor', /^x\.onnx: cache 'cos_cache' has element type onnx type 6; a RoPE cache is float32, float16 or bfloat16$/);
  await onnxError(
    call(
      edit((c, s) => {
        for (const t of [c, s]) {
          t.dataType = 11;
          t.dims = [4, 8];
        }
      }),
    ),
    'bad_tensor',
    /element type float64; a RoPE cache is float32, float16 or bfloat16$/,
  );
  await onnxError(
    call(
      edit((c, s) => {
        s.dataType = 10;
        s.dims = [16, 8];
      }),
    ),
    'bad_tensor',
    /^x\.onnx: cache 'cos_cache' has element type float32/,
  );
  // a cache 4 wide (rotary dim 8) for a config of rotary dim 16
  await onnxError(
    call(
      edit((c, s) => {
        c.dims = [16, 4];
        s.dims = [16, 4];
      }),
    ),
    'bad_tensor',
    /^x\.onnx: cache 'cos_cache' is 4 wide \(rotary dim 8\) but the config says rotary dim 16$/,
  );
});

test('writeModel writes the bytes to a path; a folder that does not exist is an error, nothing written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-onnx-write-'));
  try {
    const { bytes } = await extendModel(llama(8), { config: CONFIGS.llama31, encoder: pe, rows: 16 });
    await writeModel(bytes, join(dir, 'out.onnx'));
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'out.onnx'))), bytes);
    writeFileSync(join(dir, 'keep'), 'x');
    await assert.rejects(writeModel(bytes, join(dir, 'missing', 'out.onnx')), (e) => e.code === 'ENOENT');
    const rep = await inspectModel(join(dir, 'out.onnx'), { config: CONFIGS.llama31, encoder: pe });
    assert.deepEqual([rep.model, rep.status, rep.sites[0].rows], [join(dir, 'out.onnx'), 'match', 16]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('referenceCaches: the exact cache (float64 rounded once to the dtype) and the float32 recipe (torch\'s float32 steps, cast), as the test\'s references make them', () => {
  const o = OPTIONS.qwen25.default;
  for (const dtype of ['float32', 'float16']) {
    const got = referenceCaches(pe, r, o, 300, dtype);
    const wantExact = exactCache(300, r, o, dtype);
    const wantRecipe = float32Cache(300, r, o, dtype);
    const value = (bits) => (dtype === 'float32' ? new Float32Array(Uint32Array.of(bits).buffer)[0] : halfValue(bits));
    for (const which of ['cos', 'sin']) {
      const e = got.exact[which].findIndex((v, i) => v !== value(wantExact[which][i]));
      assert.equal(e, -1, `${dtype} exact ${which}[${e}]`);
      const f = got.recipe[which].findIndex((v, i) => v !== value(wantRecipe[which][i]));
      assert.equal(f, -1, `${dtype} recipe ${which}[${f}]`);
    }
  }
  assert.throws(() => referenceCaches(pe, r, o, 3, 'float64'), /^RangeError: dtype must be 'float32', 'float16' or 'bfloat16', got "float64"$/);
});
