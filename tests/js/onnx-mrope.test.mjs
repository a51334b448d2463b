// Multi-axis RoPE computed in the graph, as onnxruntime-genai's builder makes
// it (builders/qwen.py): Qwen2.5-VL's make_dynamic_rope_caches (inv_freq →
// Unsqueeze → Expand, position_ids [3, B, S] → Unsqueeze → Cast, MatMul,
// Transpose, Concat, Cos/Sin) then make_mrope_flattened_caches (Slice to
// H/2, Split by the mrope_sections Constant, Gather chunk i at axis i,
// Squeeze, Concat, Reshape); Qwen3-VL's interleaved version (Gather axis d,
// Squeeze, Gather its positions, Concat, Gather the reorder, Reshape). Built
// node for node with onnx-proto; onnxruntime-node runs each and its output is
// checked against the float64 multi-axis reference (mrope-reference.mjs), so
// the mimics compute what the builder's graphs compute. The inspector must
// read the axis of every pair off the graph and compare it with the config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import onnxProto from 'onnx-proto';
import ort from 'onnxruntime-node';
import sinpe from 'sinpe.wasm';
import { inspectModel } from 'sinpe.wasm/onnx';
import { tensorInfo, intAttribute } from './fixtures/make-rotary-model.mjs';
import { multiAxisCache } from './mrope-reference.mjs';
import { ropeInvFreq } from './rope-reference.mjs';

const { onnx } = onnxProto;
const DT = onnx.TensorProto.DataType;
const pe = await sinpe();
const HEAD = 64;
const HALF = HEAD / 2;
const BASE = 1000000;

const ints = (name, values) => onnx.TensorProto.create({ name, dataType: DT.INT64, dims: [values.length], int64Data: values });
const constant = (name, values) =>
  onnx.NodeProto.create({ name: `${name}/Constant`, opType: 'Constant', output: [name], attribute: [onnx.AttributeProto.create({ name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t: ints(name, values) })] });
const node = (opType, name, input, output, attrs = []) => onnx.NodeProto.create({ opType, name, input, output, attribute: attrs });

/** Qwen2.5-VL ('chunked', sections) or Qwen3-VL ('interleaved', sections) mimic: position_ids [3, 1, S] → flat cos [S, H/2]. */
function mropeModel(layout, sections) {
  const inv = Float32Array.from(ropeInvFreq(HEAD, { base: BASE }));
  const b = '/model/layers.0/attn/mrope_dynamic_cache';
  const nodes = [
    constant('c/axes013', [0, 1, 3]),
    constant('c/axes2', [2]),
    constant('c/expand', [3, 1, HALF, 1]),
    constant('c/0', [0]),
    constant('c/half', [HALF]),
    constant('c/-1', [-1]),
    constant('c/flat', [-1, HALF]),
    node('Unsqueeze', `${b}/inv_freq/Unsqueeze`, ['model.inv_freq', 'c/axes013'], ['u1']),
    node('Expand', `${b}/inv_freq/Expand`, ['u1', 'c/expand'], ['e1']),
    node('Unsqueeze', `${b}/pos_ids/Unsqueeze`, ['position_ids', 'c/axes2'], ['u2']),
    node('Cast', `${b}/pos_ids/Cast`, ['u2'], ['pf'], [intAttribute('to', DT.FLOAT)]),
    node('MatMul', `${b}/freqs/MatMul`, ['e1', 'pf'], ['mm']),
    node('Transpose', `${b}/freqs/Transpose`, ['mm'], ['tr'], [onnx.AttributeProto.create({ name: 'perm', type: onnx.AttributeProto.AttributeType.INTS, ints: [0, 1, 3, 2] })]),
    node('Concat', `${b}/Concat`, ['tr', 'tr'], ['emb'], [intAttribute('axis', -1)]),
    node('Cos', `${b}/Cos`, ['emb'], ['cos']),
    node('Sin', `${b}/Sin`, ['emb'], ['sin']),
  ];
  const f = '/model/layers.0/attn/mrope_flattened_cache/cos';
  nodes.push(node('Slice', `${f}/half/Slice`, ['cos', 'c/0', 'c/half', 'c/-1'], ['half']));
  let last;
  if (layout === 'chunked') {
    nodes.push(constant('mrope_sections', sections));
    nodes.push(node('Split', `${f}/Split`, ['half', 'mrope_sections'], ['s0', 's1', 's2'], [intAttribute('axis', -1)]));
    for (let i = 0; i < 3; i++) {
      nodes.push(constant(`c/${i}i`, [i]));
      nodes.push(node('Gather', `${f}/chunk_${i}/Gather`, [`s${i}`, `c/${i}i`], [`g${i}`], [intAttribute('axis', 0)]));
      nodes.push(node('Squeeze', `${f}/chunk_${i}/Squeeze`, [`g${i}`, 'c/0'], [`q${i}`]));
    }
    nodes.push(node('Concat', `${f}/Concat`, ['q0', 'q1', 'q2'], ['cat'], [intAttribute('axis', -1)]));
    last = 'cat';
  } else {
    // apply_interleaved_mrope: all pairs t, then h at 1, 4, … below 3·s_h, w at 2, 5, … below 3·s_w
    const dims = new Array(HALF).fill(0);
    for (const [d, offset] of [[1, 1], [2, 2]]) for (let i = offset; i < sections[d] * 3; i += 3) if (i < HALF) dims[i] = d;
    const positions = [0, 1, 2].map((d) => dims.flatMap((x, i) => (x === d ? [i] : [])));
    const order = positions.flat();
    const reorder = new Array(HALF);
    order.forEach((p, k) => (reorder[p] = k));
    nodes.push(constant('reorder', reorder));
    const pieces = [];
    for (let d = 0; d < 3; d++) {
      nodes.push(constant(`c/${d}i`, [d]), constant(`positions${d}`, positions[d]));
      nodes.push(node('Gather', `${f}/dim${d}/Gather`, ['half', `c/${d}i`], [`g${d}`], [intAttribute('axis', 0)]));
      nodes.push(node('Squeeze', `${f}/dim${d}/Squeeze`, [`g${d}`, 'c/0'], [`q${d}`]));
      nodes.push(node('Gather', `${f}/dim${d}/Positions/Gather`, [`q${d}`, `positions${d}`], [`p${d}`], [intAttribute('axis', -1)]));
      pieces.push(`p${d}`);
    }
    nodes.push(node('Concat', `${f}/AllPieces/Concat`, pieces, ['cat0'], [intAttribute('axis', -1)]));
    nodes.push(node('Gather', `${f}/Reorder/Gather`, ['cat0', 'reorder'], ['cat'], [intAttribute('axis', -1)]));
    last = 'cat';
  }
  nodes.push(node('Reshape', `${f}_flat/Reshape`, [last, 'c/flat'], ['flat_cos']));
  const graph = onnx.GraphProto.create({
    name: 'mrope',
    node: nodes,
    initializer: [onnx.TensorProto.create({ name: 'model.inv_freq', dataType: DT.FLOAT, dims: [HALF], rawData: new Uint8Array(inv.buffer) })],
    input: [tensorInfo('position_ids', DT.INT64, [3, 1, 'S'])],
    output: [tensorInfo('flat_cos', DT.FLOAT, ['T', HALF]), tensorInfo('sin', DT.FLOAT, [3, 1, 'S', HEAD])],
  });
  return onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8, producerName: 'sinpe tests (onnxruntime-genai qwen mrope)', opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: 17 })], graph })).finish();
}

const qwen25 = (sections) => ({ model_type: 'qwen2_5_vl', hidden_size: 256, num_attention_heads: 4, max_position_embeddings: 1024, rope_theta: BASE, rope_scaling: { type: 'mrope', mrope_section: sections } });
const qwen3 = (sections) => ({ model_type: 'qwen3_vl', text_config: { hidden_size: 256, num_attention_heads: 4, head_dim: HEAD, max_position_embeddings: 1024, rope_theta: BASE, rope_scaling: { rope_type: 'default', mrope_section: sections, mrope_interleaved: true } } });

test('the mimics compute what the builder\'s graphs compute: onnxruntime-node against the float64 multi-axis reference', async () => {
  const positions = [5, 7, 9, 100, 3, 40, 2048, 1500, 1000]; // three tokens, (t, h, w) each, token-major
  const ids = new BigInt64Array(9);
  for (let a = 0; a < 3; a++) for (let t = 0; t < 3; t++) ids[a * 3 + t] = BigInt(positions[t * 3 + a]); // [3, 1, S]
  for (const [layout, sections, axes] of [['chunked', [8, 12, 12], 'sectioned'], ['interleaved', [12, 10, 10], 'interleaved']]) {
    const session = await ort.InferenceSession.create(mropeModel(layout, sections));
    const out = (await session.run({ position_ids: new ort.Tensor('int64', ids, [3, 1, 3]) })).flat_cos.data;
    const want = multiAxisCache(positions, HEAD, axes, sections, { base: BASE }).cos;
    // float32 angles (position × float32 inv_freq, rounded) at positions ≤ 2048: |Δ| ≤ 2048·2^-24 + ulps
    for (let i = 0; i < want.length; i++) assert.ok(Math.abs(out[i] - want[i]) <= 2e-4, `${layout} value ${i}: ${out[i]} vs ${want[i]}`);
  }
});

test('the axis of each pair is read off the graph and compared with mrope_section (chunked and interleaved)', async () => {
  const cases = [
    ['Qwen2.5-VL, sections as the config says', mropeModel('chunked', [8, 12, 12]), qwen25([8, 12, 12]), null],
    ['Qwen2.5-VL graph split [8, 12, 12], config [16, 8, 8]', mropeModel('chunked', [8, 12, 12]), qwen25([16, 8, 8]), /t ×8, h ×12, w ×12 \(chunked \[8, 12, 12\]\); mrope_section \[16, 8, 8\] gives t ×16, h ×8, w ×8/],
    ['Qwen3-VL interleaved, as the config says', mropeModel('interleaved', [12, 10, 10]), qwen3([12, 10, 10]), null],
    ['Qwen3-VL config, a chunked graph', mropeModel('chunked', [12, 10, 10]), qwen3([12, 10, 10]), /\(chunked \[12, 10, 10\]\); mrope_section \[12, 10, 10\], interleaved gives t h w t h w/],
    ['interleaved graph of [12, 10, 10], config [16, 8, 8] interleaved', mropeModel('interleaved', [12, 10, 10]), qwen3([16, 8, 8]), /\(interleaved\); mrope_section \[16, 8, 8\], interleaved gives/],
  ];
  for (const [name, bytes, config, mismatch] of cases) {
    const report = await inspectModel(bytes, { config, encoder: pe });
    const s = report.sites.find((x) => x.kind === 'inv_freq');
    assert.ok(s, `${name}: the inv_freq site is found`);
    if (mismatch === null) {
      assert.equal(s.verdict, 'exact', `${name}: ${s.message}`);
      assert.match(s.message, /each pair takes the axis mrope_section/, name);
    } else {
      assert.equal(s.verdict, 'mismatch', `${name}: ${s.message}`);
      assert.equal(s.diagnosis.mistake, 'mrope-section', s.message);
      assert.match(s.diagnosis.detail, mismatch, name);
      assert.equal(report.status, 'mismatch');
    }
  }
});
