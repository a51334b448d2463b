// The RoPE sites today's exporters make, each model built node for node as
// the exporter writes it (onnx-proto, not the package's reader), its caches
// baked by the tests' own float64 reference (fixtures/make-genai-model.mjs):
// (a) ONNX's own RotaryEmbedding (opset 23: X, cos_cache, sin_cache,
//     position_ids; interleaved, num_heads, rotary_embedding_dim): 2-D caches
//     with position_ids, and onnxruntime's mobius layout (components/
//     _rotary_embedding.py get_rotary_pos_emb / apply_rotary_pos_emb: 3-D cos
//     and sin = Gather(cos_cache, position_ids), no position_ids input);
// (b) mobius' BaseRope._cast_embeddings: the float32 cache gathered, then Cast
//     to float16 — the site is the float32 initializer;
// (c) onnxruntime-genai's Qwen3.5 (builders/qwen.py Qwen35TextModel
//     _make_rotary_caches, _make_mrope_cos_sin, _apply_mrope_rotation): one
//     float32 cache gathered per axis (Gather of position_ids[dim], Squeeze,
//     Gather of the cache), combined by Where(h_mask, h, Where(w_mask, w, t)),
//     Reshape [-1, r/2], Cast, into com.microsoft RotaryEmbedding;
// (d) LongRoPE's short and long caches concatenated into one initializer
//     (base.py make_rotary_embedding_multi_cache for EPs without If:
//     torch.cat((cos_cache_small, cos_cache_large), dim=0)): group 'concat' and
//     its segments;
// (e) a config with RoPE and a model where none is found: status mismatch,
//     finding 'no-rope-found' (mobius' DecomposeRotaryEmbedding rewrite for
//     EPs without the op: the cache gathered and multiplied by hand).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import onnxProto from 'onnx-proto';
import sinpe from 'sinpe.wasm';
import { readModel, findRope, inspectModel, extendModel } from 'sinpe.wasm/onnx';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, exactCache, makeGenaiModel } from './fixtures/make-genai-model.mjs';
import { intAttribute, tensorInfo } from './fixtures/make-rotary-model.mjs';

const { onnx } = onnxProto;
const DT = onnx.TensorProto.DataType;
const pe = await sinpe();
const r = ROTARY_DIM;
const half = r / 2;
const llama = OPTIONS.llama31.default;

const bytesOf = (bits) => new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength);
const init = (name, dataType, dims, bits) => onnx.TensorProto.create({ name, dataType, dims, rawData: bytesOf(bits) });
const int64s = (name, values) => onnx.TensorProto.create({ name, dataType: DT.INT64, dims: [values.length], int64Data: values });
const node = (opType, name, input, output, attribute = [], domain = '') => onnx.NodeProto.create({ opType, name, input, output, attribute, domain });
function encode(nodes, initializer, inputs, outputs, opset = [{ domain: '', version: 23 }]) {
  const graph = onnx.GraphProto.create({ name: 'g', node: nodes, initializer, input: inputs, output: outputs });
  return onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 10, producerName: 'sinpe tests', opsetImport: opset.map((o) => onnx.OperatorSetIdProto.create(o)), graph })).finish();
}
// The sinpe command on a model (and a config), in a folder of its own.
function cli(model, config) {
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-sites-'));
  try {
    writeFileSync(join(dir, 'model.onnx'), model);
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    const res = spawnSync(process.execPath, [join('node_modules', '.bin', 'sinpe'), 'inspect', join(dir, 'model.onnx'), '--config', join(dir, 'config.json')], { encoding: 'utf8', timeout: 120000 });
    return { code: res.status, out: res.stdout, err: res.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const siteSummary = (s) => ({ cos: s.cos.name, sin: s.sin.name, rows: s.rows, rotaryDim: s.rotaryDim, dtype: s.dtype, group: s.group, through: s.through, consumers: s.consumers.map((c) => `${c.domain || '(onnx)'}:${c.opType}:${c.node}:${c.interleaved}`) });

// The ONNX RotaryEmbedding node (opset 23) as mobius' apply_rotary_pos_emb writes it.
const onnxRotary = (name, x, cos, sin, positionIds, interleaved = 0) =>
  node('RotaryEmbedding', name, positionIds ? [x, cos, sin, positionIds] : [x, cos, sin], [`${name}/output_0`], [intAttribute('interleaved', interleaved), intAttribute('num_heads', 4), intAttribute('rotary_embedding_dim', 0)]);

function onnx2dModel() {
  const c = bake('exact', 1024, r, llama, 'float32');
  return encode(
    [onnxRotary('/model/layers.0/attn/q_rotary/RotaryEmbedding', 'q', 'cos_cache', 'sin_cache', 'position_ids')],
    [init('cos_cache', DT.FLOAT, [1024, half], c.cos), init('sin_cache', DT.FLOAT, [1024, half], c.sin)],
    [tensorInfo('q', DT.FLOAT, ['batch', 'seq', 64]), tensorInfo('position_ids', DT.INT64, ['batch', 'seq'])],
    [tensorInfo('/model/layers.0/attn/q_rotary/RotaryEmbedding/output_0', DT.FLOAT, ['batch', 'seq', 64])],
  );
}

test('(a) ONNX RotaryEmbedding with 2-D caches and position_ids: a site like com.microsoft\'s; inputs 1 and 2 are the caches', async () => {
  const model = onnx2dModel();
  const sites = findRope(await readModel(model));
  assert.deepEqual(sites.map(siteSummary), [{ cos: 'cos_cache', sin: 'sin_cache', rows: 1024, rotaryDim: r, dtype: 'float32', group: 'default', through: [], consumers: ['(onnx):RotaryEmbedding:/model/layers.0/attn/q_rotary/RotaryEmbedding:0'] }]);
  const report = await inspectModel(model, { config: CONFIGS.llama31, encoder: pe });
  assert.equal(report.status, 'match');
  assert.equal(report.sites[0].verdict, 'exact', report.sites[0].message);
});

// mobius: cos_cache / sin_cache parameters of the rotary module, float32
// (max_position_embeddings, r/2); get_rotary_pos_emb gathers them by
// position_ids (3-D), _cast_embeddings casts to the model dtype when it is
// not float32, apply_rotary_pos_emb passes them to RotaryEmbedding without
// position_ids.
function mobiusModel(dtype) {
  const c = bake('exact', 1024, r, llama, 'float32');
  const T = dtype === 'float16' ? DT.FLOAT16 : DT.FLOAT;
  const nodes = [node('Gather', 'node_Gather_0', ['model.rotary_emb.cos_cache', 'position_ids'], ['cos_emb']), node('Gather', 'node_Gather_1', ['model.rotary_emb.sin_cache', 'position_ids'], ['sin_emb'])];
  let [cos, sin] = ['cos_emb', 'sin_emb'];
  if (T !== DT.FLOAT) {
    nodes.push(node('Cast', 'node_Cast_2', ['cos_emb'], ['cos_cast'], [intAttribute('to', T)]), node('Cast', 'node_Cast_3', ['sin_emb'], ['sin_cast'], [intAttribute('to', T)]));
    [cos, sin] = ['cos_cast', 'sin_cast'];
  }
  nodes.push(onnxRotary('node_RotaryEmbedding_4', 'q', cos, sin, null), onnxRotary('node_RotaryEmbedding_5', 'k', cos, sin, null));
  return encode(
    nodes,
    [init('model.rotary_emb.cos_cache', DT.FLOAT, [1024, half], c.cos), init('model.rotary_emb.sin_cache', DT.FLOAT, [1024, half], c.sin)],
    [tensorInfo('q', T, ['batch', 'seq', 64]), tensorInfo('k', T, ['batch', 'seq', 64]), tensorInfo('position_ids', DT.INT64, ['batch', 'seq'])],
    [tensorInfo('node_RotaryEmbedding_4/output_0', T, ['batch', 'seq', 64]), tensorInfo('node_RotaryEmbedding_5/output_0', T, ['batch', 'seq', 64])],
    [{ domain: '', version: 24 }],
  );
}

test('(a) mobius: 3-D cos/sin pre-gathered from a baked 2-D cache by position ids: the site is the baked cache, found through the Gather', async () => {
  const model = mobiusModel('float32');
  const sites = findRope(await readModel(model));
  assert.deepEqual(sites.map(siteSummary), [
    {
      cos: 'model.rotary_emb.cos_cache',
      sin: 'model.rotary_emb.sin_cache',
      rows: 1024,
      rotaryDim: r,
      dtype: 'float32',
      group: 'default',
      through: ['Gather'],
      consumers: ['(onnx):RotaryEmbedding:node_RotaryEmbedding_4:0', '(onnx):RotaryEmbedding:node_RotaryEmbedding_5:0'],
    },
  ]);
  const report = await inspectModel(model, { config: CONFIGS.llama31, encoder: pe });
  assert.equal(report.sites[0].verdict, 'exact', report.sites[0].message);
});

test('(b) mobius float16: the float32 cache gathered then Cast to float16: the site is the float32 initializer, its dtype float32, checked as float32', async () => {
  const model = mobiusModel('float16');
  const [site] = findRope(await readModel(model));
  assert.deepEqual(siteSummary(site), {
    cos: 'model.rotary_emb.cos_cache',
    sin: 'model.rotary_emb.sin_cache',
    rows: 1024,
    rotaryDim: r,
    dtype: 'float32',
    group: 'default',
    through: ['Gather', 'Cast'],
    consumers: ['(onnx):RotaryEmbedding:node_RotaryEmbedding_4:0', '(onnx):RotaryEmbedding:node_RotaryEmbedding_5:0'],
  });
  assert.equal(site.cos.holder, 'initializer');
  assert.equal(site.cos.dataType, DT.FLOAT);
  const report = await inspectModel(model, { config: CONFIGS.llama31, encoder: pe });
  assert.equal(report.sites[0].verdict, 'exact', report.sites[0].message);
  // Wrong values are still told: a cache of the default rope type in the same layout.
  const wrong = bake('default-rope-type', 1024, r, llama, 'float32');
  const m = await readModel(model);
  for (const t of m.proto.graph.initializer) t.rawData = bytesOf(t.name.endsWith('cos_cache') ? wrong.cos : wrong.sin);
  const bad = await inspectModel(m, { config: CONFIGS.llama31, encoder: pe });
  assert.equal(bad.sites[0].diagnosis?.mistake, 'default-rope-type', bad.sites[0].message);
  // The table says what reads it and through what.
  const res = cli(model, CONFIGS.llama31);
  assert.equal(res.code, 0, res.err);
  assert.match(res.out, /\n {4}1024 rows × 8, float32, group default, interleaved 0, raw_data\n {4}read by: RotaryEmbedding node_RotaryEmbedding_4, RotaryEmbedding node_RotaryEmbedding_5 \(through Gather → Cast\)\n {4}EXACT: /);
});

// onnxruntime-genai's Qwen3.5 text model: _make_rotary_caches bakes
// model.rotary_emb.cos_cache / sin_cache (float32, [context_length, r/2]) and
// the bool masks h_mask / w_mask; _make_mrope_cos_sin gathers the cache once
// per axis; _apply_mrope_rotation reshapes to [B*S, r/2], casts to the compute
// dtype and feeds com.microsoft RotaryEmbedding with synthetic position ids
// 0 … B*S-1 (_make_synthetic_position_ids).
function qwen35Model({ rows, io = DT.FLOAT16 }) {
  const o = { ropeType: 'default', base: 10000000 };
  const c = exactCache(rows, r, o, 'float32');
  const masks = { h: Uint8Array.from({ length: half }, (_, i) => (i % 3 === 1 ? 1 : 0)), w: Uint8Array.from({ length: half }, (_, i) => (i % 3 === 2 ? 1 : 0)) };
  const nodes = [];
  const initializer = [
    init('model.rotary_emb.cos_cache', DT.FLOAT, [rows, half], c.cos),
    init('model.rotary_emb.sin_cache', DT.FLOAT, [rows, half], c.sin),
    init('model.rotary_emb.h_mask', DT.BOOL, [half], masks.h),
    init('model.rotary_emb.w_mask', DT.BOOL, [half], masks.w),
    int64s('/model/constants/INT64/[0]', [0]),
    int64s('/model/constants/INT64/[1]', [1]),
    int64s('/model/constants/INT64/[2]', [2]),
    int64s('/model/constants/INT64/[3]', [3]),
    int64s('/model/constants/INT64/[3, -1]', [3, -1]),
    int64s(`/model/constants/INT64/[-1, ${half}]`, [-1, half]),
    onnx.TensorProto.create({ name: '/model/constants/INT64/0', dataType: DT.INT64, dims: [], int64Data: [0] }),
    onnx.TensorProto.create({ name: '/model/constants/INT64/1', dataType: DT.INT64, dims: [], int64Data: [1] }),
  ];
  const basename = '/model/layers.3/attn/mrope';
  const gatherDim = (dim, cache, suffix) => {
    const g = `${basename}/${suffix}/dim${dim}/pos/Gather`;
    const sq = `${basename}/${suffix}/dim${dim}/Squeeze`;
    const gc = `${basename}/${suffix}/dim${dim}/cache/Gather`;
    nodes.push(
      node('Gather', g, ['position_ids', `/model/constants/INT64/[${dim}]`], [`${g}/output_0`], [intAttribute('axis', 0)]),
      node('Squeeze', sq, [`${g}/output_0`, '/model/constants/INT64/[0]'], [`${sq}/output_0`]),
      node('Gather', gc, [cache, `${sq}/output_0`], [`${gc}/output_0`], [intAttribute('axis', 0)]),
    );
    return `${gc}/output_0`;
  };
  const interleave = (suffix, cache) => {
    const t = gatherDim(0, cache, suffix);
    const h = gatherDim(1, cache, suffix);
    const w = gatherDim(2, cache, suffix);
    const ww = `${basename}/${suffix}/w/Where`;
    const hh = `${basename}/${suffix}/h/Where`;
    nodes.push(node('Where', ww, ['model.rotary_emb.w_mask', w, t], [`${ww}/output_0`]), node('Where', hh, ['model.rotary_emb.h_mask', h, `${ww}/output_0`], [`${hh}/output_0`]));
    return `${hh}/output_0`;
  };
  const dynCos = interleave('cos', 'model.rotary_emb.cos_cache');
  const dynSin = interleave('sin', 'model.rotary_emb.sin_cache');
  const rot = '/model/layers.3/attn/q_rotary';
  const flat = (which, from) => {
    const name = `${rot}/${which}_flat/Reshape`;
    nodes.push(node('Reshape', name, [from, `/model/constants/INT64/[-1, ${half}]`], [`${name}/output_0`]));
    if (io === DT.FLOAT) return `${name}/output_0`;
    const cast = `${rot}/${which}/Cast`;
    nodes.push(node('Cast', cast, [`${name}/output_0`], [`${cast}/output_0`], [intAttribute('to', io)]));
    return `${cast}/output_0`;
  };
  const ropeCos = flat('cos', dynCos);
  const ropeSin = flat('sin', dynSin);
  // _make_synthetic_position_ids: [B, S] = Range(0, B*S).reshape(B, S), from position_ids [3, B, S].
  const sp = '/model/attn/synthetic_pos_ids';
  nodes.push(
    node('Shape', `${sp}/Shape`, ['position_ids'], [`${sp}/Shape/output_0`]),
    node('Slice', `${sp}/bs_shape/Slice`, [`${sp}/Shape/output_0`, '/model/constants/INT64/[1]', '/model/constants/INT64/[3]', '/model/constants/INT64/[0]'], [`${sp}/bs_shape/Slice/output_0`]),
    node('Reshape', `${sp}/flat/Reshape`, ['position_ids', '/model/constants/INT64/[3, -1]'], [`${sp}/flat/Reshape/output_0`]),
    node('Shape', `${sp}/Shape2`, [`${sp}/flat/Reshape/output_0`], [`${sp}/Shape2/output_0`]),
    node('Gather', `${sp}/total/Gather`, [`${sp}/Shape2/output_0`, '/model/constants/INT64/1'], [`${sp}/total/Gather/output_0`], [intAttribute('axis', 0)]),
    node('Range', `${sp}/range/Range`, ['/model/constants/INT64/0', `${sp}/total/Gather/output_0`, '/model/constants/INT64/1'], [`${sp}/range/Range/output_0`]),
    node('Reshape', `${sp}/Reshape`, [`${sp}/range/Range/output_0`, `${sp}/bs_shape/Slice/output_0`], [`${sp}/Reshape/output_0`]),
    node('RotaryEmbedding', `${rot}/RotaryEmbedding`, ['q_bnsh', `${sp}/Reshape/output_0`, ropeCos, ropeSin], [`${rot}/RotaryEmbedding/output_0`], [intAttribute('num_heads', 4), intAttribute('rotary_embedding_dim', r), intAttribute('interleaved', 0)], 'com.microsoft'),
  );
  return encode(nodes, initializer, [tensorInfo('q_bnsh', io, ['batch', 4, 'seq', 16]), tensorInfo('position_ids', DT.INT64, [3, 'batch', 'seq'])], [tensorInfo(`${rot}/RotaryEmbedding/output_0`, io, ['batch', 4, 'seq', 16])], [
    { domain: '', version: 21 },
    { domain: 'com.microsoft', version: 1 },
  ]);
}

test('(c) onnxruntime-genai Qwen3.5: the float32 cache gathered per axis, combined by Where, reshaped and cast: one site, the baked cache (the masks and index tables are not caches)', async () => {
  for (const io of [DT.FLOAT16, DT.FLOAT]) {
    const model = qwen35Model({ rows: 512, io });
    const sites = findRope(await readModel(model));
    assert.deepEqual(sites.map(siteSummary), [
      {
        cos: 'model.rotary_emb.cos_cache',
        sin: 'model.rotary_emb.sin_cache',
        rows: 512,
        rotaryDim: r,
        dtype: 'float32',
        group: 'default',
        through: io === DT.FLOAT ? ['Gather', 'Where', 'Reshape'] : ['Gather', 'Where', 'Reshape', 'Cast'],
        consumers: ['com.microsoft:RotaryEmbedding:/model/layers.3/attn/q_rotary/RotaryEmbedding:0'],
      },
    ]);
    // Its values: default RoPE, base 1e7, r = 16, as the builder bakes them.
    const config = { hidden_size: 64, num_attention_heads: 4, head_dim: 16, max_position_embeddings: 512, rope_theta: 10000000 };
    const report = await inspectModel(model, { config, encoder: pe });
    assert.equal(report.sites[0].verdict, 'exact', report.sites[0].message);
    // With Qwen3.5's interleaved mrope_section, the masks are read: h at pairs 1, 4, 7 and w at 2, 5 are sections [3, 3, 2].
    const qwen35 = (sections) => ({ ...config, model_type: 'qwen3_5_text', rope_parameters: { rope_type: 'default', rope_theta: 10000000, mrope_section: sections, mrope_interleaved: true } });
    const good = (await inspectModel(model, { config: qwen35([3, 3, 2]), encoder: pe })).sites[0];
    assert.equal(good.verdict, 'exact', good.message);
    assert.match(good.message, /each pair takes the axis mrope_section \[3, 3, 2\], interleaved gives \(masks: t h w t h w t h … \(8 runs\)\)$/);
    const bad = (await inspectModel(model, { config: qwen35([4, 2, 2]), encoder: pe })).sites[0];
    assert.equal(bad.verdict, 'mismatch', bad.message);
    assert.equal(bad.diagnosis.mistake, 'mrope-section');
    assert.match(bad.diagnosis.detail, /the graph's masks give the pairs the axes t h w t h w t h … \(8 runs\); mrope_section \[4, 2, 2\], interleaved gives t h w t h w t t/);
  }
});

// LongRoPE for EPs without If: one cos_cache = cat(small (L rows, short
// factors), large (M rows, long factors)), read by GroupQueryAttention.
function concatModel(L, M) {
  const small = exactCache(L, r, OPTIONS.phi3.small, 'float32');
  const large = exactCache(M, r, OPTIONS.phi3.large, 'float32');
  const cat = (a, b) => {
    const out = new Uint32Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  return makeGenaiModel({ caches: { default: { cos: cat(small.cos, large.cos), sin: cat(small.sin, large.sin), rows: L + M } }, dtype: 'float32', attention: 'GroupQueryAttention' }).model;
}

test('(d) LongRoPE\'s concatenated cache (rows = original + max): group concat, segments small [0, L) and large [L, L + M); only with the config; other row counts are not', async () => {
  // phi3: original_max_position_embeddings 64, max_position_embeddings 512.
  const model = await readModel(concatModel(64, 512));
  const segments = [
    { group: 'small', start: 0, rows: 64 },
    { group: 'large', start: 64, rows: 512 },
  ];
  const [site] = findRope(model, { config: CONFIGS.phi3 });
  assert.deepEqual([site.group, site.rows, site.segments, site.cos.name], ['concat', 576, segments, 'cos_cache']);
  const [plain] = findRope(model);
  assert.deepEqual([plain.group, plain.segments], ['default', undefined]);
  const report = await inspectModel(model, { config: CONFIGS.phi3, encoder: pe });
  // Each segment judged as the cache it is: the short factors on rows 0…63, the long ones on 64…575 (positions from 0).
  const s = report.sites[0];
  assert.deepEqual([s.group, s.segments.map((x) => [x.group, x.start, x.rows, x.verdict]), s.verdict], ['concat', segments.map((x) => [x.group, x.start, x.rows, 'exact']), 'exact'], s.message);
  assert.match(s.message, /^cos_cache: LongRoPE's short and long caches concatenated — small rows 0…63: exact \(bit-identical[^;]*; [^—]*large rows 64…575: exact \(bit-identical/);
  // The segments exchanged (long factors first): each named as such.
  const swapped = makeGenaiModel({ caches: { default: { cos: Uint32Array.from([...exactCache(64, r, OPTIONS.phi3.large, 'float32').cos, ...exactCache(512, r, OPTIONS.phi3.small, 'float32').cos]), sin: Uint32Array.from([...exactCache(64, r, OPTIONS.phi3.large, 'float32').sin, ...exactCache(512, r, OPTIONS.phi3.small, 'float32').sin]), rows: 576 } }, dtype: 'float32', attention: 'GroupQueryAttention' }).model;
  const bad = (await inspectModel(swapped, { config: CONFIGS.phi3, encoder: pe })).sites[0];
  assert.equal(bad.verdict, 'mismatch', bad.message);
  assert.deepEqual(bad.segments.map((x) => x.diagnosis?.mistake), ['short-long-exchanged', 'short-long-exchanged'], bad.message);
  // Extended: the short segment stays 64 rows, byte for byte; the long one keeps its 512 and grows to 1024.
  const out = await extendModel(model, { config: CONFIGS.phi3, rows: 1024, encoder: pe });
  assert.deepEqual(out.replaced.map((x) => [x.group, x.rowsBefore, x.rows, x.kept, x.segments.map((g) => [g.group, g.rowsBefore, g.rows, g.kept])]), [['concat', 576, 1088, 576, [['small', 64, 64, 64], ['large', 512, 1024, 512]]]]);
  // Checked against the config that says 1024 positions with the attention factor of the original 512 (factor 8 given).
  const longer = { ...CONFIGS.phi3, max_position_embeddings: 1024, rope_scaling: { ...CONFIGS.phi3.rope_scaling, factor: 512 / 64 } };
  const after = (await inspectModel(out.bytes, { config: longer, encoder: pe })).sites[0];
  assert.deepEqual([after.group, after.rows, after.verdict, after.segments.map((x) => x.rows)], ['concat', 1088, 'exact', [64, 1024]], after.message);
  const got = await readModel(out.bytes);
  const cosBits = new Uint32Array(new Uint8Array(await got.tensorBytes(got.proto.graph.initializer.find((t) => t.name === 'cos_cache'))).buffer);
  const before = new Uint32Array(new Uint8Array(await model.tensorBytes(model.proto.graph.initializer.find((t) => t.name === 'cos_cache'))).buffer);
  assert.ok(before.every((b, i) => cosBits[i] === b), 'the old 576 rows are byte-identical');
  const res = cli(concatModel(64, 512), CONFIGS.phi3);
  assert.match(res.out, /\n {4}576 rows × 8, float32, group concat, interleaved 0, raw_data\n {4}segments: small rows 0…63, large rows 64…575\n/);
  // Not LongRoPE, or not L + M rows: no segments.
  const [notLong] = findRope(model, { config: { ...CONFIGS.llama31, max_position_embeddings: 512 } });
  assert.deepEqual([notLong.group, notLong.segments], ['default', undefined]);
  const [off] = findRope(await readModel(concatModel(64, 511)), { config: CONFIGS.phi3 });
  assert.deepEqual([off.group, off.segments], ['default', undefined]);
  assert.throws(() => findRope(model, 'phi3'), /^TypeError: options must be an object, got string$/);
});

// mobius' DecomposeRotaryEmbedding (for EPs without a RotaryEmbedding kernel):
// the gathered cache multiplied into q by hand (rotate-half from Slice, Neg,
// Concat), no RotaryEmbedding left.
function decomposedModel() {
  const c = bake('exact', 1024, r, llama, 'float32');
  const nodes = [
    node('Gather', 'g_cos', ['model.rotary_emb.cos_cache', 'position_ids'], ['cos']),
    node('Gather', 'g_sin', ['model.rotary_emb.sin_cache', 'position_ids'], ['sin']),
    node('Concat', 'cos_full', ['cos', 'cos'], ['cos2'], [intAttribute('axis', -1)]),
    node('Concat', 'sin_full', ['sin', 'sin'], ['sin2'], [intAttribute('axis', -1)]),
    node('Slice', 'x1', ['q', '/c/0', '/c/8', '/c/-1'], ['q1']),
    node('Slice', 'x2', ['q', '/c/8', '/c/16', '/c/-1'], ['q2']),
    node('Neg', 'neg', ['q2'], ['nq2']),
    node('Concat', 'rot', ['nq2', 'q1'], ['qr'], [intAttribute('axis', -1)]),
    node('Mul', 'mc', ['q', 'cos2'], ['a']),
    node('Mul', 'ms', ['qr', 'sin2'], ['b']),
    node('Add', 'sum', ['a', 'b'], ['out']),
  ];
  return encode(
    nodes,
    [init('model.rotary_emb.cos_cache', DT.FLOAT, [1024, half], c.cos), init('model.rotary_emb.sin_cache', DT.FLOAT, [1024, half], c.sin), int64s('/c/0', [0]), int64s('/c/8', [8]), int64s('/c/16', [16]), int64s('/c/-1', [-1])],
    [tensorInfo('q', DT.FLOAT, ['batch', 'seq', 16]), tensorInfo('position_ids', DT.INT64, ['batch', 'seq'])],
    [tensorInfo('out', DT.FLOAT, ['batch', 'seq', 16])],
  );
}

test('(e) a config with RoPE and no site found: status mismatch with the no-rope-found finding (never a silent unchecked); without a config, unchecked', async () => {
  const model = decomposedModel();
  const report = await inspectModel(model, { config: CONFIGS.llama31, encoder: pe });
  assert.deepEqual(report.sites, []);
  assert.equal(report.status, 'mismatch');
  // llama31: rope_type llama3, head_dim 16 (rotary dim 16), rope_theta 500000.
  assert.deepEqual(report.finding, { mistake: 'no-rope-found', detail: 'no RoPE found; the config says llama3 rotary dim 16, base 500000' });
  const bare = await inspectModel(model, { encoder: pe });
  assert.deepEqual([bare.status, bare.finding], ['unchecked', undefined]);
  // The CLI: exit 1, the message.
  const res = cli(model, CONFIGS.llama31);
  assert.equal(res.code, 1, res.err);
  assert.equal(res.out.split('\n').slice(1).join('\n'), '  MISMATCH: no RoPE found; the config says llama3 rotary dim 16, base 500000\n');
  assert.match(res.out, /model\.onnx: 0 RoPE site\(s\), mismatch\n/);
});

// The fixtures are models onnxruntime itself accepts: each loads in
// onnxruntime-node (its type and shape inference over every node passes),
// so the layouts above are graphs an exporter could ship, not just protobufs.
test('every model built here loads in onnxruntime-node', async () => {
  const { default: ort } = await import('onnxruntime-node');
  const models = {
    onnx2d: onnx2dModel(),
    mobius32: mobiusModel('float32'),
    mobius16: mobiusModel('float16'),
    qwen35f16: qwen35Model({ rows: 512 }),
    qwen35f32: qwen35Model({ rows: 512, io: DT.FLOAT }),
    concat: concatModel(64, 512),
    decomposed: decomposedModel(),
  };
  for (const [name, bytes] of Object.entries(models)) {
    const session = await ort.InferenceSession.create(bytes);
    assert.ok(session.outputNames.length > 0, name);
    await session.release();
  }
});
