// sinpe.wasm/onnx's findRope, as users call it (docs/onnx.md, "Finding
// RoPE"; js/onnx/index.d.ts, RopeSite and TensorRef): the cos/sin cache
// inputs of com.microsoft RotaryEmbedding (inputs 2, 3) and
// GroupQueryAttention with do_rotary = 1 (inputs 7, 8) held by initializers,
// Constant nodes or If branches, in the main graph or a subgraph, and inv_freq
// tensors reaching both Cos and Sin. Graphs are built here with onnx-proto
// (protobufjs), not the onnx-buf library the package reads them with; the
// expected sites come from the docs and the operators' input lists
// (onnxruntime's contrib op schemas), never from sinpe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import onnxProto from 'onnx-proto';
import { readModel, findRope } from 'sinpe.wasm/onnx';

const { onnx } = onnxProto;
const DT = { FLOAT: 1, INT64: 7, FLOAT16: 10, DOUBLE: 11, BFLOAT16: 16, INT32: 6 };
const AT = onnx.AttributeProto.AttributeType;
const MS = 'com.microsoft';

const cacheTensor = (name, rows, width, dataType = DT.FLOAT) => onnx.TensorProto.create({ name, dataType, dims: [rows, width], rawData: new Uint8Array(rows * width * (dataType === DT.FLOAT ? 4 : 2)) });
const vector = (name, n, dataType = DT.FLOAT) => onnx.TensorProto.create({ name, dataType, dims: [n], rawData: new Uint8Array(n * (dataType === DT.DOUBLE ? 8 : dataType === DT.FLOAT ? 4 : 2)) });
const intAttr = (name, i) => onnx.AttributeProto.create({ name, type: AT.INT, i });
const graphAttr = (name, g) => onnx.AttributeProto.create({ name, type: AT.GRAPH, g });
const node = (opType, input, output, fields = {}) => onnx.NodeProto.create({ opType, input, output, name: fields.name ?? `${opType}_${output[0] ?? ''}`, domain: fields.domain ?? '', attribute: fields.attribute ?? [] });
const rotary = (name, cos, sin, interleaved, extra = {}) =>
  node('RotaryEmbedding', ['x', 'pos', cos, sin], [`${name}_out`], { name, domain: extra.domain ?? MS, attribute: interleaved === undefined ? [] : [intAttr('interleaved', interleaved)] });
const gqa = (name, cos, sin, doRotary, interleaved) =>
  node('GroupQueryAttention', ['q', 'k', 'v', 'pk', 'pv', 'sl', 'tl', cos, sin], [`${name}_out`], {
    name,
    domain: MS,
    attribute: [...(doRotary === undefined ? [] : [intAttr('do_rotary', doRotary)]), ...(interleaved === undefined ? [] : [intAttr('rotary_interleaved', interleaved)])],
  });
const constant = (output, t, domain = '') => node('Constant', [], [output], { name: `const_${output}`, domain, attribute: [onnx.AttributeProto.create({ name: 'value', type: AT.TENSOR, t })] });
const graph = (name, nodes, initializer = [], output = []) => onnx.GraphProto.create({ name, node: nodes, initializer, output: output.map((n) => onnx.ValueInfoProto.create({ name: n })) });
const read = (g) => readModel(onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }, { domain: MS, version: 1 }], graph: g })).finish());
/** A site without its live tensors, for comparing with plain objects. */
const plain = (s) => JSON.parse(JSON.stringify(s, (k, v) => (k === 'tensor' ? undefined : v)));
const ref = (name, holder, path, shape, dtype = 'float32', dataType = 1, storage = { kind: 'raw_data', length: shape.reduce((a, b) => a * b, 1) * (dataType === 1 ? 4 : 2) }) => ({ name, holder, path, shape, dtype, dataType, storage });

test('RotaryEmbedding (inputs 2, 3) and GroupQueryAttention with do_rotary = 1 (inputs 7, 8) of com.microsoft: one site per cache, every consumer listed', async () => {
  const m = await read(
    graph(
      'g',
      [
        rotary('q_rot', 'cos_cache', 'sin_cache', 1),
        rotary('k_rot', 'cos_cache', 'sin_cache', 1),
        gqa('attn', 'cos_g', 'sin_g', 1),
        gqa('attn_off', 'cos_off', 'sin_off', 0),
        gqa('attn_none', 'cos_off', 'sin_off'),
        rotary('other_domain', 'cos_off', 'sin_off', 0, { domain: '' }),
        node('RotaryEmbedding', ['x', 'pos', 'cos_off', 'sin_off'], ['y'], { name: 'ai_onnx', domain: 'ai.onnx' }),
        // an omitted optional input is named '' (onnx.proto), even where an initializer has no name
        rotary('no_sin', 'cos_off', '', 0),
        rotary('no_cos', '', 'sin_off', 0),
        gqa('gqa_no_cos', '', 'sin_off', 1),
        node('RotaryEmbedding', ['x', 'pos', 'cos_off'], ['z'], { name: 'three_inputs', domain: MS }),
        // GroupQueryAttention outside com.microsoft is another op
        node('GroupQueryAttention', ['q', 'k', 'v', 'pk', 'pv', 'sl', 'tl', 'cos_off', 'sin_off'], ['w'], { name: 'gqa_other_domain', domain: '', attribute: [intAttr('do_rotary', 1)] }),
        // another com.microsoft op with a do_rotary attribute (SparseAttention has one) is no
        // GroupQueryAttention: its inputs 7 and 8 are not read as caches
        node('SparseAttention', ['q', 'k', 'v', 'pk', 'pv', 'rows', 'cols', 'cos_off', 'sin_off', 'c9', 's9'], ['v2'], { name: 'sparse', domain: MS, attribute: [intAttr('do_rotary', 1)] }),
      ],
      [cacheTensor('cos_cache', 32, 8), cacheTensor('sin_cache', 32, 8), cacheTensor('cos_g', 64, 4, DT.FLOAT16), cacheTensor('sin_g', 64, 4, DT.FLOAT16), cacheTensor('cos_off', 8, 8), cacheTensor('sin_off', 8, 8), cacheTensor('', 8, 8)],
    ),
  );
  const sites = findRope(m).map(plain);
  assert.deepEqual(sites, [
    {
      kind: 'cache',
      cos: ref('cos_cache', 'initializer', 'graph', [32, 8]),
      sin: ref('sin_cache', 'initializer', 'graph', [32, 8]),
      group: 'default',
      consumers: [
        { node: 'q_rot', opType: 'RotaryEmbedding', domain: MS, interleaved: 1 },
        { node: 'k_rot', opType: 'RotaryEmbedding', domain: MS, interleaved: 1 },
      ],
      interleaved: 1,
      rows: 32,
      rotaryDim: 16,
      dtype: 'float32',
      through: [],
    },
    {
      kind: 'cache',
      cos: ref('cos_g', 'initializer', 'graph', [64, 4], 'float16', 10),
      sin: ref('sin_g', 'initializer', 'graph', [64, 4], 'float16', 10),
      group: 'default',
      consumers: [{ node: 'attn', opType: 'GroupQueryAttention', domain: MS, interleaved: 0 }],
      interleaved: 0,
      rows: 64,
      rotaryDim: 8,
      dtype: 'float16',
      through: [],
    },
  ]);
  // the live tensors are the model's own
  const [first] = findRope(m);
  assert.equal(first.cos.tensor, m.proto.graph.initializer[0]);
  assert.equal(first.sin.tensor, m.proto.graph.initializer[1]);
});

// onnxruntime reads RotaryEmbedding's `interleaved` and GroupQueryAttention's
// `rotary_interleaved` (contrib_ops/cpu/bert/rotary_embedding.cc,
// group_query_attention.cc), each 0 when absent.
test('interleaved: RotaryEmbedding\'s interleaved, GroupQueryAttention\'s rotary_interleaved; the consumers\' value when they agree, null when they disagree', async () => {
  const g = await read(
    graph(
      'g',
      [gqa('g1', 'cos_a', 'sin_a', 1, 1), gqa('g0', 'cos_b', 'sin_b', 1, 0), gqa('gx', 'cos_c', 'sin_c', 1), rotary('r1', 'cos_c', 'sin_c', 1), node('GroupQueryAttention', ['q', 'k', 'v', 'pk', 'pv', 'sl', 'tl', 'cos_b', 'sin_b'], ['o'], { name: 'wrong_attr', domain: MS, attribute: [intAttr('do_rotary', 1), intAttr('interleaved', 1)] })],
      ['cos_a', 'sin_a', 'cos_b', 'sin_b', 'cos_c', 'sin_c'].map((n) => cacheTensor(n, 4, 2)),
    ),
  );
  assert.deepEqual(
    findRope(g).map((s) => [s.cos.name, s.interleaved, s.consumers.map((c) => `${c.node}:${c.interleaved}`)]),
    [
      ['cos_a', 1, ['g1:1']],
      ['cos_b', 0, ['g0:0', 'wrong_attr:0']],
      ['cos_c', null, ['gx:0', 'r1:1']],
    ],
  );
  const m = await read(graph('g', [rotary('a', 'cos_cache', 'sin_cache', 0), rotary('b', 'cos_cache', 'sin_cache', 1), rotary('c', 'cos_x', 'sin_x'), node('RotaryEmbedding', ['x', 'pos', 'cos_x', 'sin_x'], ['o'], { name: 'd', domain: MS, attribute: [intAttr('rotary_interleaved', 1)] })], [cacheTensor('cos_cache', 4, 2), cacheTensor('sin_cache', 4, 2), cacheTensor('cos_x', 4, 2), cacheTensor('sin_x', 4, 2)]));
  const sites = findRope(m);
  assert.deepEqual(sites.map((s) => [s.cos.name, s.interleaved, s.consumers.map((c) => c.interleaved)]), [
    ['cos_cache', null, [0, 1]],
    ['cos_x', 0, [0, 0]],
  ]);
});

test('Constant caches (domain "" or ai.onnx), in a subgraph, named by their output; a cache defined in an outer graph is found from a node inside a Loop body', async () => {
  const body = graph('body', [rotary('inner', 'cos_outer', 'sin_outer', 0), rotary('inner2', 'cos_in', 'sin_in', 0), constant('cos_in', cacheTensor('', 16, 4)), constant('sin_in', cacheTensor('', 16, 4), 'ai.onnx')]);
  const m = await read(
    graph(
      'g',
      [
        constant('cos_outer', cacheTensor('ignored_name', 8, 2)),
        constant('sin_outer', cacheTensor('', 8, 2)),
        constant('cos_custom', cacheTensor('', 8, 2), 'my.domain'),
        constant('sin_custom', cacheTensor('', 8, 2), 'my.domain'),
        rotary('custom', 'cos_custom', 'sin_custom', 0),
        node('Loop', ['n', 'c'], ['out'], { name: 'loop', attribute: [graphAttr('body', body)] }),
      ],
      [cacheTensor('', 4, 2)],
    ),
  );
  const sites = findRope(m).map(plain);
  assert.deepEqual(
    sites.map((s) => [s.cos.name, s.sin.name, s.cos.holder, s.cos.path, s.consumers.map((c) => c.node)]),
    [
      ['cos_outer', 'sin_outer', 'Constant', 'graph', ['inner']],
      ['cos_in', 'sin_in', 'Constant', 'graph/Loop:loop/body', ['inner2']],
    ],
  );
});

test('an If choosing its caches (onnxruntime-genai LongRoPE): one site per branch, group from the names or else the branch (then: large, else: small), the If\'s own outputs found through it', async () => {
  const branch = (name, cosName, sinName, rows) => graph(name, [constant(cosName, cacheTensor('', rows, 4)), constant(sinName, cacheTensor('', rows, 4))], [], [cosName, sinName]);
  const ifNode = (name, outs, thenG, elseG) => node('If', ['long'], outs, { name, attribute: [graphAttr('then_branch', thenG), graphAttr('else_branch', elseG)] });
  const m = await read(
    graph('g', [
      ifNode('/caches/If', ['cos_cache', 'sin_cache'], branch('t', 'cos_cache_large', 'sin_cache_large', 32), branch('e', 'cos_cache_small', 'sin_cache_small', 8)),
      rotary('r', 'cos_cache', 'sin_cache', 0),
      ifNode('plain_if', ['cos2', 'sin2'], branch('t2', 'c_a', 's_a', 16), branch('e2', 'c_b', 's_b', 4)),
      rotary('r2', 'cos2', 'sin2', 0),
    ]),
  );
  const sites = findRope(m);
  assert.deepEqual(
    sites.map((s) => [s.cos.name, s.sin.name, s.group, s.rows, s.cos.holder, s.cos.path]),
    [
      ['cos_cache_large', 'sin_cache_large', 'large', 32, 'Constant', 'graph/If:/caches/If/then_branch'],
      ['cos_cache_small', 'sin_cache_small', 'small', 8, 'Constant', 'graph/If:/caches/If/else_branch'],
      ['c_a', 's_a', 'large', 16, 'Constant', 'graph/If:plain_if/then_branch'],
      ['c_b', 's_b', 'small', 4, 'Constant', 'graph/If:plain_if/else_branch'],
    ],
  );
});

test('group from the cache name: _small/_large/_global/_local (at the end or before _), or the word; otherwise default', async () => {
  const names = {
    cos_cache_global: 'global',
    cos_cache_local: 'local',
    cos_small_cache: 'small',
    'large.cos': 'large',
    cos_cache_globally: 'default',
    cosglobal: 'default',
    cos_cache: 'default',
  };
  const init = [];
  const nodes = [];
  for (const n of Object.keys(names)) {
    init.push(cacheTensor(n, 4, 2), cacheTensor(`sin_of_${n}`, 4, 2));
    nodes.push(rotary(`r_${n}`, n, `sin_of_${n}`, 0));
  }
  const sites = findRope(await read(graph('g', nodes, init)));
  assert.deepEqual(Object.fromEntries(sites.map((s) => [s.cos.name, s.group])), names);
});

test('shapes and types as read: rows and rotaryDim from [rows, rotaryDim/2], a dtype of each float type, other types named by their ONNX code, unnamed tensors', async () => {
  const m = await read(
    graph(
      'g',
      [rotary('a', 'c16', 's16', 0), rotary('b', 'cbf', 'sbf', 0), rotary('c', 'c64', 's64', 0), rotary('d', 'cint', 'sint', 0), rotary('e', 'c1d', 's1d', 0), rotary('f', 'c0d', 's0d', 0)],
      [
        cacheTensor('c16', 3, 5, DT.FLOAT16),
        cacheTensor('s16', 3, 5, DT.FLOAT16),
        cacheTensor('cbf', 2, 6, DT.BFLOAT16),
        cacheTensor('sbf', 2, 6, DT.BFLOAT16),
        onnx.TensorProto.create({ name: 'c64', dataType: DT.DOUBLE, dims: [1, 2], doubleData: [1, 0] }),
        onnx.TensorProto.create({ name: 's64', dataType: DT.DOUBLE, dims: [1, 2], doubleData: [0, 0] }),
        onnx.TensorProto.create({ name: 'cint', dataType: DT.INT32, dims: [2, 2], int32Data: [1, 1, 1, 1] }),
        onnx.TensorProto.create({ name: 'sint', dataType: DT.INT32, dims: [2, 2], int32Data: [0, 0, 0, 0] }),
        onnx.TensorProto.create({ name: 'c1d', dataType: DT.FLOAT, dims: [7], floatData: [1, 1, 1, 1, 1, 1, 1] }),
        onnx.TensorProto.create({ name: 's1d', dataType: DT.FLOAT, dims: [7], floatData: [0, 0, 0, 0, 0, 0, 0] }),
        onnx.TensorProto.create({ name: 'c0d', dataType: DT.FLOAT, dims: [], floatData: [1] }),
        onnx.TensorProto.create({ name: 's0d', dataType: DT.FLOAT, dims: [], floatData: [0] }),
      ],
    ),
  );
  assert.deepEqual(
    findRope(m).map((s) => [s.cos.name, s.dtype, s.cos.dtype, s.sin.dtype, s.cos.dataType, s.rows, s.rotaryDim, s.cos.shape, s.cos.storage.kind]),
    [
      ['c16', 'float16', 'float16', 'float16', 10, 3, 10, [3, 5], 'raw_data'],
      ['cbf', 'bfloat16', 'bfloat16', 'bfloat16', 16, 2, 12, [2, 6], 'raw_data'],
      ['c64', 'float64', 'float64', 'float64', 11, 1, 4, [1, 2], 'double_data'],
      ['cint', 'onnx type 6', 'onnx type 6', 'onnx type 6', 6, 2, 4, [2, 2], 'int32_data'],
      ['c1d', 'float32', 'float32', 'float32', 1, 7, 0, [7], 'float_data'],
      ['c0d', 'float32', 'float32', 'float32', 1, 0, 0, [], 'float_data'],
    ],
  );
});

test('inv_freq: a 1-D float initializer of 2+ values reaching both Cos and Sin through pass-through ops; not one reaching only one, through another op, 2-D, integer, or of one value', async () => {
  const chain = (src, ops, tag) => {
    const nodes = [];
    let prev = src;
    ops.forEach((op, i) => {
      nodes.push(node(op, [prev, `${tag}_aux${i}`], [`${tag}_${i}`], { name: `${tag}_${op}_${i}` }));
      prev = `${tag}_${i}`;
    });
    nodes.push(node('Cos', [prev], [`${tag}_cos`], { name: `${tag}_cos` }), node('Sin', [prev], [`${tag}_sin`], { name: `${tag}_sin` }));
    return nodes;
  };
  const nodes = [
    ...chain('inv_freq', ['Unsqueeze', 'MatMul'], 'a'),
    ...chain('inv_freq_local', ['Mul', 'Reshape', 'Squeeze', 'Transpose', 'Concat'], 'b'),
    ...chain('freq_bf16', ['Cast', 'Expand', 'Tile'], 'c'),
    ...chain('freq_f64', ['Identity', 'Gather', 'Slice', 'Div'], 'd'),
    // only Cos
    node('MatMul', ['only_cos', 'p'], ['e0'], { name: 'e_mm' }),
    node('Cos', ['e0'], ['e_cos'], { name: 'e_cos' }),
    // through an op that is not a pass-through
    ...chain('through_add', ['Add'], 'f'),
    ...chain('flat2d', ['MatMul'], 'g'),
    ...chain('ints', ['MatMul'], 'h'),
    ...chain('single', ['MatMul'], 'i'),
    // straight into Cos and Sin
    node('Cos', ['direct'], ['j_cos'], { name: 'j_cos' }),
    node('Sin', ['direct'], ['j_sin'], { name: 'j_sin' }),
  ];
  const init = [
    vector('inv_freq', 4),
    vector('inv_freq_local', 3),
    vector('freq_bf16', 2, DT.BFLOAT16),
    vector('freq_f64', 5, DT.DOUBLE),
    vector('only_cos', 4),
    vector('through_add', 4),
    onnx.TensorProto.create({ name: 'flat2d', dataType: DT.FLOAT, dims: [2, 2], floatData: [1, 1, 1, 1] }),
    onnx.TensorProto.create({ name: 'ints', dataType: DT.INT64, dims: [4], int64Data: [1, 2, 3, 4] }),
    vector('single', 1),
    vector('direct', 2, DT.FLOAT16),
  ];
  const sites = findRope(await read(graph('g', nodes, init))).map(plain);
  assert.deepEqual(
    sites.map((s) => [s.kind, s.invFreq.name, s.invFreq.holder, s.invFreq.path, s.group, s.rotaryDim, s.rows, s.dtype, s.interleaved, s.consumers.map((c) => `${c.opType}:${c.node}:${c.domain}:${c.interleaved}`)]),
    [
      ['inv_freq', 'inv_freq', 'initializer', 'graph', 'default', 8, 0, 'float32', null, ['Cos:a_cos::null', 'Sin:a_sin::null']],
      ['inv_freq', 'inv_freq_local', 'initializer', 'graph', 'local', 6, 0, 'float32', null, ['Cos:b_cos::null', 'Sin:b_sin::null']],
      ['inv_freq', 'freq_bf16', 'initializer', 'graph', 'default', 4, 0, 'bfloat16', null, ['Cos:c_cos::null', 'Sin:c_sin::null']],
      ['inv_freq', 'freq_f64', 'initializer', 'graph', 'default', 10, 0, 'float64', null, ['Cos:d_cos::null', 'Sin:d_sin::null']],
      ['inv_freq', 'direct', 'initializer', 'graph', 'default', 4, 0, 'float16', null, ['Cos:j_cos::null', 'Sin:j_sin::null']],
    ],
  );
  assert.equal(sites[0].cos, undefined);
});

test('inv_freq in a subgraph is found with its path; a branch shared by several paths is walked once; caches come before inv_freq sites', async () => {
  const body = graph('body', [node('Mul', ['inv_freq', 'p'], ['m'], { name: 'mul' }), node('Unsqueeze', ['m', 'ax'], ['u'], { name: 'u1' }), node('Reshape', ['m', 'sh'], ['u'], { name: 'u2' }), node('Cos', ['u'], ['c'], { name: 'cos' }), node('Sin', ['u'], ['s'], { name: 'sin' })], [vector('inv_freq', 4)]);
  const m = await read(graph('g', [node('If', ['cond'], ['o'], { name: 'when', attribute: [graphAttr('then_branch', body), graphAttr('else_branch', graph('empty', []))] }), rotary('r', 'cos_cache', 'sin_cache', 0)], [cacheTensor('cos_cache', 4, 2), cacheTensor('sin_cache', 4, 2)]));
  const sites = findRope(m);
  assert.deepEqual(
    sites.map((s) => [s.kind, (s.cos ?? s.invFreq).name, (s.cos ?? s.invFreq).path, s.consumers.length]),
    [
      ['cache', 'cos_cache', 'graph', 1],
      ['inv_freq', 'inv_freq', 'graph/If:when/then_branch', 2],
    ],
  );
});

test('caches in every subgraph attribute: a GRAPHS attribute\'s graphs, named by index in the path', async () => {
  const bodies = [graph('b0', [node('Relu', ['x'], ['y'])]), graph('b1', [rotary('deep', 'cos_cache', 'sin_cache', 1)], [cacheTensor('cos_cache', 4, 2), cacheTensor('sin_cache', 4, 2)])];
  const m = await read(graph('g', [node('Scan', ['x'], ['y'], { name: 'multi', domain: 'my.domain', attribute: [onnx.AttributeProto.create({ name: 'bodies', type: AT.GRAPHS, graphs: bodies })] })]));
  assert.deepEqual(
    findRope(m).map((s) => [s.cos.name, s.cos.path, s.consumers[0].node, s.interleaved]),
    [['cos_cache', 'graph/Scan:multi/bodies[1]', 'deep', 1]],
  );
});

test('a graph with no RoPE: no sites; an If whose branch output is missing or a name defined by nothing: nothing found, nothing thrown', async () => {
  assert.deepEqual(findRope(await read(graph('g', [node('Relu', ['x'], ['y'])]))), []);
  // a Constant given by value_float (no tensor), an If with one branch only
  const oneBranch = graph('t', [constant('c1', cacheTensor('', 4, 2)), constant('s1', cacheTensor('', 4, 2))], [], ['c1', 's1']);
  const odd = await read(
    graph('g', [
      node('Constant', [], ['f'], { name: 'f', attribute: [onnx.AttributeProto.create({ name: 'value_float', type: AT.FLOAT, f: 1 })] }),
      node('If', ['cond'], ['cos_one', 'sin_one'], { name: 'half_if', attribute: [graphAttr('then_branch', oneBranch)] }),
      rotary('r', 'cos_one', 'sin_one', 0),
      rotary('rf', 'f', 'f', 0),
    ]),
  );
  assert.deepEqual(
    findRope(odd).map((s) => [s.cos.name, s.group, s.cos.path]),
    [['c1', 'large', 'graph/If:half_if/then_branch']],
  );
  const branch = graph('b', [constant('c', cacheTensor('', 4, 2))], [], ['c']);
  const m = await read(
    graph('g', [
      node('If', ['cond'], ['cos_cache', 'sin_cache'], { name: 'if', attribute: [graphAttr('then_branch', branch), graphAttr('else_branch', branch)] }),
      rotary('r', 'cos_cache', 'sin_cache', 0),
      rotary('r2', 'undefined_cos', 'undefined_sin', 0),
      // a branch whose output is the If's own output (defined by nothing inside): not followed in circles
      node('If', ['cond'], ['cos_loop', 'sin_loop'], { name: 'loop_if', attribute: [graphAttr('then_branch', graph('t', [], [], ['cos_loop', 'sin_loop'])), graphAttr('else_branch', graph('e', [], [], ['cos_loop', 'sin_loop']))] }),
      rotary('r3', 'cos_loop', 'sin_loop', 0),
    ]),
  );
  assert.deepEqual(findRope(m), []);
});
