// sinpe.wasm/onnx's readModel, as users call it (docs/onnx.md, "Reading a
// model"): every kind of source (bytes, ArrayBuffer, Blob/File, a path), the
// model's name in messages, where a tensor's bytes live (raw_data, the typed
// repeated fields, an external data file's slice) and each refusal. Models are
// built here with onnx-proto (protobufjs), not the onnx-buf library the
// package reads them with; the expected bytes come from the ONNX spec
// (onnx.proto: TensorProto.DataType's codes and element sizes, float16 /
// bfloat16 stored as their bit patterns in int32_data, external_data's
// location / offset / length keys), never from sinpe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, truncateSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { readModel, findRope, inspectModel, OnnxError } from 'sinpe.wasm/onnx';

const { onnx } = onnxProto;
// onnx.proto TensorProto.DataType.
const DT = { FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8, BOOL: 9, FLOAT16: 10, DOUBLE: 11, UINT32: 12, UINT64: 13, BFLOAT16: 16 };
const EXTERNAL = onnx.TensorProto.DataLocation.EXTERNAL;

const tensor = (fields) => onnx.TensorProto.create(fields);
const entry = (key, value) => onnx.StringStringEntryProto.create({ key, value });
/** A tensor stored in an external file: location, and offset / length when given (strings, as onnx.proto's map says). */
function externalTensor(name, dataType, dims, location, offset, length) {
  const e = [];
  if (location !== undefined) e.push(entry('location', location));
  if (offset !== undefined) e.push(entry('offset', String(offset)));
  if (length !== undefined) e.push(entry('length', String(length)));
  return tensor({ name, dataType, dims, dataLocation: EXTERNAL, externalData: e });
}
const graphOf = (initializer, node = []) => onnx.GraphProto.create({ name: 'g', initializer, node });
const modelBytes = (graph) => onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], graph })).finish();
const le = (typed) => [...new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)];
/** The model's tensor named `name` (the initializers of the main graph). */
const init = (m, name) => m.proto.graph.initializer.find((t) => t.name === name);
const rejectsWith = (promise, code, ...patterns) =>
  assert.rejects(promise, (e) => {
    assert.ok(e instanceof OnnxError, `an OnnxError, got ${e}`);
    assert.equal(e.name, 'OnnxError');
    assert.equal(e.code, code, e.message);
    for (const p of patterns) typeof p === 'string' ? assert.equal(e.message, p) : assert.match(e.message, p);
    return true;
  });
const typeError = (promise, ...patterns) =>
  assert.rejects(promise, (e) => {
    assert.ok(e instanceof TypeError, `a TypeError, got ${e}`);
    for (const p of patterns) assert.match(e.message, p);
    return true;
  });

test('every source kind reads the same model: Uint8Array (also a view at an offset), ArrayBuffer, Blob, File, path; the name in messages follows the source', async () => {
  const bytes = modelBytes(graphOf([tensor({ name: 'w', dataType: DT.FLOAT, dims: [2], rawData: new Uint8Array(le(Float32Array.of(1.5, -2))) })]));
  const padded = new Uint8Array(bytes.length + 3);
  padded.set(bytes, 3);
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-onnx-read-'));
  try {
    const path = join(dir, 'm.onnx');
    writeFileSync(path, bytes);
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    const cases = [
      [bytes, 'model.onnx'],
      [padded.subarray(3), 'model.onnx'],
      [ab, 'model.onnx'],
      [new Blob([bytes]), 'model.onnx'],
      [new File([bytes], 'picked.onnx'), 'picked.onnx'],
      [path, path],
    ];
    for (const [source, name] of cases) {
      const m = await readModel(source);
      assert.equal(m.name, name);
      assert.deepEqual([...m.bytes], [...bytes], name);
      assert.equal(m.proto.graph.name, 'g');
      assert.deepEqual([...(await m.tensorBytes(init(m, 'w')))], le(Float32Array.of(1.5, -2)), name);
      // options.name wins over every default
      assert.equal((await readModel(source, { name: 'given.onnx' })).name, 'given.onnx');
    }
    // the name is the one messages use
    await rejectsWith(readModel(new File([new Uint8Array([0xff, 0xff])], 'bad.onnx')), 'bad_protobuf', /^bad\.onnx: not a valid ONNX model/);
    await rejectsWith(readModel(new Uint8Array([0xff, 0xff])), 'bad_protobuf', /^model\.onnx: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad arguments: a TypeError naming the argument and what it got', async () => {
  const bytes = modelBytes(graphOf([]));
  for (const [value, got] of [
    [42, 'number'],
    [null, 'null'],
    [undefined, 'undefined'],
    [{}, 'Object'],
    [[1, 2], 'Array'],
    [Object.create(null), 'object'],
    [new Uint16Array(4), 'Uint16Array'],
  ])
    await typeError(readModel(value), /^model must be a Uint8Array, an ArrayBuffer, a Blob\/File or \(Node\) a path/, new RegExp(`got ${got}$`));
  for (const [value, got] of [
    [null, 'null'],
    [5, 'number'],
    ['x', 'string'],
  ])
    await typeError(readModel(bytes, value), new RegExp(`^options must be an object, got ${got}$`));
  for (const [value, got] of [
    ['model.onnx.data', 'string'],
    [7, 'number'],
  ])
    await typeError(readModel(bytes, { externalData: value }), /^options\.externalData must be an object/, new RegExp(`got ${got}$`));
  // no options, and externalData undefined or null (none, as for inspectModel's config), are fine
  assert.equal((await readModel(bytes, undefined)).name, 'model.onnx');
  assert.equal((await readModel(bytes, { externalData: undefined })).name, 'model.onnx');
  assert.equal((await readModel(bytes, { externalData: null })).name, 'model.onnx');
  // a path that does not exist
  const nowhere = join(tmpdir(), 'sinpe-no-such-dir', 'm.onnx');
  await rejectsWith(readModel(nowhere), 'missing_external', `${nowhere}: cannot read it (ENOENT)`);
});

test('not an ONNX model: bad_protobuf, with the protobuf error or "no graph"', async () => {
  const full = modelBytes(graphOf([tensor({ name: 'w', dataType: DT.FLOAT, dims: [4], floatData: [1, 2, 3, 4] })]));
  await rejectsWith(readModel(full.subarray(0, full.length - 5), { name: 'cut.onnx' }), 'bad_protobuf', /^cut\.onnx: not a valid ONNX model \(protobuf: .+\)$/);
  // the protobuf library's error is kept as the cause, and its message shown
  await assert.rejects(readModel(full.subarray(0, full.length - 5)), (e) => e.cause instanceof Error && e.message.endsWith(`(protobuf: ${e.cause.message})`));
  const noGraph = onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8 })).finish();
  await rejectsWith(readModel(noGraph, { name: 'empty.onnx' }), 'bad_protobuf', /^empty\.onnx: not an ONNX model \(no graph\)$/);
  // an empty graph is a model
  assert.equal((await readModel(modelBytes(graphOf([])))).proto.graph.initializer.length, 0);
});

test('inline tensors: raw_data, float_data, double_data and int32_data (float16 / bfloat16 bits, int32, int8, uint8, bool) as little-endian element bytes', async () => {
  const f16 = [0x3c00, 0xc000, 0x7bff]; // 1, -2, 65504
  const bf16 = [0x3f80, 0xbf80]; // 1, -1
  const m = await readModel(
    modelBytes(
      graphOf([
        tensor({ name: 'raw', dataType: DT.FLOAT, dims: [1, 2], rawData: new Uint8Array(le(Float32Array.of(0.25, 3))) }),
        tensor({ name: 'floats', dataType: DT.FLOAT, dims: [3], floatData: [0.5, -1, 1e-3] }),
        tensor({ name: 'doubles', dataType: DT.DOUBLE, dims: [2], doubleData: [0.1, -3] }),
        tensor({ name: 'halves', dataType: DT.FLOAT16, dims: [3], int32Data: f16 }),
        tensor({ name: 'brains', dataType: DT.BFLOAT16, dims: [2], int32Data: bf16 }),
        tensor({ name: 'ints', dataType: DT.INT32, dims: [2], int32Data: [-2, 7] }),
        tensor({ name: 'bytes', dataType: DT.INT8, dims: [3], int32Data: [-1, 5, 127] }),
        tensor({ name: 'ubytes', dataType: DT.UINT8, dims: [2], int32Data: [255, 3] }),
        tensor({ name: 'flags', dataType: DT.BOOL, dims: [2], int32Data: [1, 0] }),
        tensor({ name: 'scalar', dataType: DT.FLOAT, dims: [], floatData: [7] }),
        tensor({ name: 'empty', dataType: DT.FLOAT, dims: [0, 4] }),
      ]),
    ),
  );
  const want = {
    raw: [{ kind: 'raw_data', length: 8 }, le(Float32Array.of(0.25, 3))],
    floats: [{ kind: 'float_data' }, le(Float32Array.of(0.5, -1, 1e-3))],
    doubles: [{ kind: 'double_data' }, le(Float64Array.of(0.1, -3))],
    halves: [{ kind: 'int32_data' }, le(Uint16Array.from(f16))],
    brains: [{ kind: 'int32_data' }, le(Uint16Array.from(bf16))],
    ints: [{ kind: 'int32_data' }, le(Int32Array.of(-2, 7))],
    bytes: [{ kind: 'int32_data' }, [0xff, 5, 127]],
    ubytes: [{ kind: 'int32_data' }, [255, 3]],
    flags: [{ kind: 'int32_data' }, [1, 0]],
    scalar: [{ kind: 'float_data' }, le(Float32Array.of(7))],
    empty: [{ kind: 'raw_data', length: 0 }, []],
  };
  for (const [name, [storage, bytes]] of Object.entries(want)) {
    const t = init(m, name);
    assert.deepEqual(m.storage(t), storage, name);
    const got = await m.tensorBytes(t);
    assert.ok(got instanceof Uint8Array, name);
    assert.deepEqual([...got], bytes, name);
  }
});

test('inline tensors that do not hold dims × element size bytes, or whose type has no fixed size: bad_tensor naming the model and the tensor', async () => {
  const m = await readModel(
    modelBytes(
      graphOf([
        tensor({ name: 'short', dataType: DT.FLOAT, dims: [1, 3], rawData: new Uint8Array(8) }),
        tensor({ name: 'long', dataType: DT.FLOAT16, dims: [2], int32Data: [1, 2, 3] }),
        tensor({ name: 'floats16', dataType: DT.FLOAT16, dims: [2], floatData: [1, 2] }),
        tensor({ name: 'doubles', dataType: DT.DOUBLE, dims: [3], doubleData: [1, 2] }),
        tensor({ name: 'strings', dataType: DT.STRING, dims: [1], stringData: [new Uint8Array([104, 105])] }),
        tensor({ name: 'undefined', dataType: 0, dims: [1] }),
        tensor({ name: 'negative', dataType: DT.FLOAT, dims: [-1, -4] }),
        tensor({ name: 'huge', dataType: DT.DOUBLE, dims: [2 ** 26, 2 ** 26] }),
        tensor({ name: '', dataType: DT.FLOAT, dims: [2], rawData: new Uint8Array(4) }),
      ]),
    ),
    { name: 'bad.onnx' },
  );
  const cases = {
    short: /^bad\.onnx: tensor 'short' holds 8 bytes \(raw_data\) for dims \[1, 3\] \(12 bytes\)$/,
    long: /^bad\.onnx: tensor 'long' holds 6 bytes \(int32_data\) for dims \[2\] \(4 bytes\)$/,
    floats16: /^bad\.onnx: tensor 'floats16' holds 8 bytes \(float_data\) for dims \[2\] \(4 bytes\)$/,
    doubles: /^bad\.onnx: tensor 'doubles' holds 16 bytes \(double_data\) for dims \[3\] \(24 bytes\)$/,
    strings: /^bad\.onnx: tensor 'strings' has element type 8, which has no fixed size$/,
    undefined: /^bad\.onnx: tensor 'undefined' has element type 0, which has no fixed size$/,
    negative: /^bad\.onnx: tensor 'negative' has dims \[-1, -4\]$/,
    huge: /^bad\.onnx: tensor 'huge' has dims \[67108864, 67108864\]$/,
  };
  for (const [name, pattern] of Object.entries(cases)) await rejectsWith(m.tensorBytes(init(m, name)), 'bad_tensor', pattern);
  await rejectsWith(m.tensorBytes(init(m, '')), 'bad_tensor', /^bad\.onnx: tensor '\(unnamed\)' holds 4 bytes/);
});

test('element sizes of every fixed-size type (onnx.proto): one element of each read from raw_data of exactly that size, one byte fewer refused', async () => {
  const sizes = { FLOAT: 4, UINT8: 1, INT8: 1, UINT16: 2, INT16: 2, INT32: 4, INT64: 8, BOOL: 1, FLOAT16: 2, DOUBLE: 8, UINT32: 4, UINT64: 8, BFLOAT16: 2 };
  const ts = [];
  for (const [type, size] of Object.entries(sizes)) {
    ts.push(tensor({ name: type, dataType: DT[type], dims: [3], rawData: Uint8Array.from({ length: 3 * size }, (_, i) => i + 1) }));
    ts.push(tensor({ name: `${type}-`, dataType: DT[type], dims: [3], rawData: new Uint8Array(3 * size - 1) }));
  }
  const m = await readModel(modelBytes(graphOf(ts)));
  for (const [type, size] of Object.entries(sizes)) {
    assert.deepEqual([...(await m.tensorBytes(init(m, type)))], Array.from({ length: 3 * size }, (_, i) => i + 1), type);
    await rejectsWith(m.tensorBytes(init(m, `${type}-`)), 'bad_tensor', new RegExp(`holds ${3 * size - 1} bytes \\(raw_data\\) for dims \\[3\\] \\(${3 * size} bytes\\)`));
  }
});

/** A model whose tensors `a` (float32 [2]) and `b` (float16 [3]) live in `location` at 8 and 24, and the data file's bytes. */
function externalModel(location = 'w.bin', fields = {}) {
  const data = new Uint8Array(40);
  data.set(le(Float32Array.of(1.5, -0.5)), 8);
  data.set(le(Uint16Array.of(0x3c00, 0x4000, 0xbc00)), 24);
  const a = fields.a ?? externalTensor('a', DT.FLOAT, [2], location, 8, 8);
  const b = fields.b ?? externalTensor('b', DT.FLOAT16, [3], location, 24, 6);
  return { model: modelBytes(graphOf([a, b, ...(fields.more ?? [])])), data };
}

test('external data: given as bytes, ArrayBuffer, Blob or a path, or found next to a model given by path; only the slice is read', async () => {
  const { model, data } = externalModel();
  const wantA = le(Float32Array.of(1.5, -0.5));
  const wantB = le(Uint16Array.of(0x3c00, 0x4000, 0xbc00));
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-onnx-ext-'));
  try {
    writeFileSync(join(dir, 'm.onnx'), model);
    writeFileSync(join(dir, 'w.bin'), data);
    const sources = [data, data.buffer, new Blob([data]), new File([data], 'picked.bin'), join(dir, 'w.bin')];
    const models = [];
    for (const s of sources) models.push(await readModel(model, { externalData: { 'w.bin': s } }));
    models.push(await readModel(join(dir, 'm.onnx')));
    for (const m of models) {
      assert.deepEqual(m.storage(init(m, 'a')), { kind: 'external', location: 'w.bin', offset: 8, length: 8 });
      assert.deepEqual([...(await m.tensorBytes(init(m, 'b')))], wantB);
      assert.deepEqual([...(await m.tensorBytes(init(m, 'a')))], wantA);
      assert.deepEqual([...m.externalLocations()], ['w.bin']);
    }
    // A Blob's slices only: a Blob whose arrayBuffer() (the whole file) throws still serves the tensors.
    class SliceOnly extends Blob {
      arrayBuffer() {
        throw new Error('read whole');
      }
    }
    const m = await readModel(model, { externalData: { 'w.bin': new SliceOnly([data]) } });
    assert.deepEqual([...(await m.tensorBytes(init(m, 'a')))], wantA);
    // A path given for a model read from bytes is read from that path.
    const viaPath = await readModel(model, { externalData: { 'w.bin': join(dir, 'w.bin') } });
    assert.deepEqual([...(await viaPath.tensorBytes(init(viaPath, 'b')))], wantB);
    // externalData wins over the file next to the model
    const other = data.slice();
    other.set(le(Float32Array.of(9, 10)), 8);
    const given = await readModel(join(dir, 'm.onnx'), { externalData: { 'w.bin': other } });
    assert.deepEqual([...(await given.tensorBytes(init(given, 'a')))], le(Float32Array.of(9, 10)));
    // a data file in a subfolder of the model's folder
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'w.bin'), data);
    const { model: subModel } = externalModel('sub/w.bin');
    writeFileSync(join(dir, 'sub.onnx'), subModel);
    const sub = await readModel(join(dir, 'sub.onnx'));
    assert.deepEqual([...(await sub.tensorBytes(init(sub, 'a')))], wantA);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('external offset and length: offset defaults to 0, length to the rest of the file; the slice is checked against the file size first', async () => {
  const data = new Uint8Array(le(Float32Array.of(1, 2, 3, 4)));
  const { model } = externalModel('w.bin', {
    a: externalTensor('a', DT.FLOAT, [4], 'w.bin'),
    b: externalTensor('b', DT.FLOAT, [2], 'w.bin', 8),
    more: [
      externalTensor('c', DT.FLOAT, [3], 'w.bin', undefined, 12),
      externalTensor('past', DT.FLOAT, [2], 'w.bin', 12, 8),
      externalTensor('negative', DT.FLOAT, [2], 'w.bin', -4, 8),
      externalTensor('wrong', DT.FLOAT, [3, 1], 'w.bin', 0, 8),
      externalTensor('rest', DT.FLOAT, [3], 'w.bin', 8),
      externalTensor('nowhere', DT.FLOAT, [3]),
      externalTensor('', DT.FLOAT, [3], ''),
      externalTensor('beyond', DT.FLOAT, [1], 'w.bin', 20),
      externalTensor('end', DT.FLOAT, [0], 'w.bin', 16, 0),
      // offsets and lengths that are no safe integers (external_data values are strings)
      externalTensor('nan-offset', DT.FLOAT, [2], 'w.bin', 'x', 8),
      externalTensor('nan-length', DT.FLOAT, [2], 'w.bin', 0, 'eight'),
      externalTensor('inf-offset', DT.FLOAT, [2], 'w.bin', '1e400', 8),
      externalTensor('huge-length', DT.FLOAT, [2], 'w.bin', 0, 2 ** 53),
    ],
  });
  const m = await readModel(model, { externalData: { 'w.bin': data }, name: 'x.onnx' });
  assert.deepEqual(m.storage(init(m, 'a')), { kind: 'external', location: 'w.bin', offset: 0, length: null });
  assert.deepEqual(m.storage(init(m, 'b')), { kind: 'external', location: 'w.bin', offset: 8, length: null });
  assert.deepEqual(m.storage(init(m, 'c')), { kind: 'external', location: 'w.bin', offset: 0, length: 12 });
  assert.deepEqual([...(await m.tensorBytes(init(m, 'a')))], [...data]);
  assert.deepEqual([...(await m.tensorBytes(init(m, 'b')))], [...data.subarray(8)]);
  assert.deepEqual([...(await m.tensorBytes(init(m, 'c')))], [...data.subarray(0, 12)]);
  assert.deepEqual([...(await m.tensorBytes(init(m, 'end')))], []);
  await rejectsWith(m.tensorBytes(init(m, 'past')), 'external_out_of_range', `options.externalData["w.bin"]: tensor 'past' claims bytes [12, 20) but the file holds 16 bytes (model x.onnx)`);
  await rejectsWith(m.tensorBytes(init(m, 'beyond')), 'bad_tensor', /^x\.onnx: tensor 'beyond' has external offset 20 \/ length -4$/);
  await rejectsWith(m.tensorBytes(init(m, 'negative')), 'bad_tensor', /^x\.onnx: tensor 'negative' has external offset -4 \/ length 8$/);
  await rejectsWith(m.tensorBytes(init(m, 'wrong')), 'bad_tensor', `x.onnx: tensor 'wrong' stores 8 bytes in options.externalData["w.bin"] for dims [3, 1] (12 bytes)`);
  await rejectsWith(m.tensorBytes(init(m, 'rest')), 'bad_tensor', `x.onnx: tensor 'rest' stores 8 bytes in options.externalData["w.bin"] for dims [3] (12 bytes)`);
  // a File's own name is the one shown
  const named = await readModel(model, { externalData: { 'w.bin': new File([data], 'weights.bin') }, name: 'x.onnx' });
  await rejectsWith(named.tensorBytes(init(named, 'wrong')), 'bad_tensor', `x.onnx: tensor 'wrong' stores 8 bytes in weights.bin for dims [3, 1] (12 bytes)`);
  await rejectsWith(m.tensorBytes(init(m, 'nan-offset')), 'bad_tensor', `x.onnx: tensor 'nan-offset' has external offset NaN / length 8`);
  await rejectsWith(m.tensorBytes(init(m, 'nan-length')), 'bad_tensor', `x.onnx: tensor 'nan-length' has external offset 0 / length NaN`);
  await rejectsWith(m.tensorBytes(init(m, 'inf-offset')), 'bad_tensor', `x.onnx: tensor 'inf-offset' has external offset Infinity / length 8`);
  await rejectsWith(m.tensorBytes(init(m, 'huge-length')), 'bad_tensor', `x.onnx: tensor 'huge-length' has external offset 0 / length 9007199254740992`);
  await rejectsWith(m.tensorBytes(init(m, 'nowhere')), 'bad_tensor', /^x\.onnx: tensor 'nowhere' is external but names no location$/);
  await rejectsWith(m.tensorBytes(init(m, '')), 'bad_tensor', /^x\.onnx: tensor '\(unnamed\)' is external but names no location$/);
});

test('external data missing or out of reach: missing_external naming the model, the tensor and the location; the module stays usable', async () => {
  const { model, data } = externalModel();
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-onnx-miss-'));
  try {
    // from bytes, nothing given
    const m = await readModel(model, { name: 'bytes.onnx' });
    await rejectsWith(m.tensorBytes(init(m, 'a')), 'missing_external', /^bytes\.onnx: tensor 'a' is stored in external data "w\.bin", which was not given \(options\.externalData\["w\.bin"\]\)$/);
    // given under another key; an inherited key is not a given file
    const other = await readModel(model, { externalData: { 'other.bin': data } });
    await rejectsWith(other.tensorBytes(init(other, 'a')), 'missing_external', /"w\.bin", which was not given/);
    const inherited = await readModel(model, { externalData: Object.create({ 'w.bin': data }) });
    await rejectsWith(inherited.tensorBytes(init(inherited, 'a')), 'missing_external', /"w\.bin", which was not given/);
    // given as something that is no source
    const wrong = await readModel(model, { externalData: { 'w.bin': 42 } });
    await typeError(wrong.tensorBytes(init(wrong, 'a')), /^options\.externalData\["w\.bin"\] must be a Uint8Array, an ArrayBuffer, a Blob\/File or \(Node\) a path, got number$/);
    // a path that does not exist
    const gone = await readModel(model, { externalData: { 'w.bin': join(dir, 'gone.bin') }, name: 'p.onnx' });
    await rejectsWith(gone.tensorBytes(init(gone, 'a')), 'missing_external', `${join(dir, 'gone.bin')}: the external data of tensor 'a' (model p.onnx) cannot be read (ENOENT)`);
    await assert.rejects(gone.tensorBytes(init(gone, 'a')), (e) => e.cause instanceof Error);
    // next to the model, absent
    writeFileSync(join(dir, 'm.onnx'), model);
    const alone = await readModel(join(dir, 'm.onnx'));
    await rejectsWith(alone.tensorBytes(init(alone, 'b')), 'missing_external', /w\.bin: the external data of tensor 'b' \(model .*m\.onnx\) cannot be read \(ENOENT\)$/);
    // outside the model's folder: absolute, or through '..' (either separator)
    writeFileSync(join(dir, 'w.bin'), data);
    for (const loc of [join(dir, 'w.bin'), '../w.bin', 'sub/../../w.bin', 'sub\\..\\w.bin']) {
      writeFileSync(join(dir, 'out.onnx'), externalModel(loc).model);
      const out = await readModel(join(dir, 'out.onnx'));
      await rejectsWith(out.tensorBytes(init(out, 'a')), 'missing_external', `${join(dir, 'out.onnx')}: tensor 'a' names external data ${JSON.stringify(loc)} outside the model's folder`);
    }
    // …unless given explicitly
    writeFileSync(join(dir, 'abs.onnx'), externalModel(join(dir, 'w.bin')).model);
    const abs = await readModel(join(dir, 'abs.onnx'), { externalData: { [join(dir, 'w.bin')]: join(dir, 'w.bin') } });
    assert.deepEqual([...(await abs.tensorBytes(init(abs, 'a')))], le(Float32Array.of(1.5, -0.5)));
    // still usable
    const ok = await readModel(model, { externalData: { 'w.bin': data } });
    assert.deepEqual([...(await ok.tensorBytes(init(ok, 'a')))], le(Float32Array.of(1.5, -0.5)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a data file read once for its size: a file cut short after that is refused when a slice comes up short (external_out_of_range), never read past', async () => {
  const { model, data } = externalModel();
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-onnx-cut-'));
  try {
    writeFileSync(join(dir, 'm.onnx'), model);
    writeFileSync(join(dir, 'w.bin'), data);
    const m = await readModel(join(dir, 'm.onnx'));
    assert.deepEqual([...(await m.tensorBytes(init(m, 'a')))], le(Float32Array.of(1.5, -0.5)));
    truncateSync(join(dir, 'w.bin'), 27);
    await rejectsWith(m.tensorBytes(init(m, 'b')), 'external_out_of_range', new RegExp(`w\\.bin: ended after 27 bytes, 3 short of the 6 bytes at offset 24$`));
    // a file grown back is read again (each slice opens the file)
    writeFileSync(join(dir, 'w.bin'), data);
    assert.deepEqual([...(await m.tensorBytes(init(m, 'b')))], le(Uint16Array.of(0x3c00, 0x4000, 0xbc00)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('externalLocations: every location named by initializers, sparse initializers, Constant attributes and subgraphs (If branches, a GRAPHS attribute), each once', async () => {
  const ext = (name, loc) => externalTensor(name, DT.FLOAT, [1], loc, 0, 4);
  const attrT = (name, t) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.TENSOR, t });
  const sub = (name, initializer, node = []) => onnx.GraphProto.create({ name, initializer, node });
  const nodes = [
    onnx.NodeProto.create({ opType: 'Constant', output: ['k'], attribute: [attrT('value', ext('k', 'const.bin'))] }),
    onnx.NodeProto.create({
      opType: 'X',
      output: ['y'],
      attribute: [
        onnx.AttributeProto.create({ name: 'ts', type: onnx.AttributeProto.AttributeType.TENSORS, tensors: [ext('t1', 'tensors.bin'), tensor({ name: 'inline', dataType: DT.FLOAT, dims: [1], floatData: [1] })] }),
      ],
    }),
    onnx.NodeProto.create({
      opType: 'If',
      input: ['c'],
      output: ['z'],
      attribute: [
        onnx.AttributeProto.create({ name: 'then_branch', type: onnx.AttributeProto.AttributeType.GRAPH, g: sub('then', [ext('th', 'then.bin')]) }),
        onnx.AttributeProto.create({
          name: 'else_branch',
          type: onnx.AttributeProto.AttributeType.GRAPH,
          g: sub('else', [], [onnx.NodeProto.create({ opType: 'Constant', output: ['deep'], attribute: [attrT('value', ext('deep', 'deep.bin'))] })]),
        }),
      ],
    }),
    onnx.NodeProto.create({ opType: 'Y', attribute: [onnx.AttributeProto.create({ name: 'bodies', type: onnx.AttributeProto.AttributeType.GRAPHS, graphs: [sub('b0', []), sub('b1', [ext('b1', 'graphs.bin')])] })] }),
  ];
  const graph = graphOf([ext('w', 'w.bin'), ext('w2', 'w.bin'), tensor({ name: 'noloc', dataType: DT.FLOAT, dims: [1], dataLocation: EXTERNAL, externalData: [entry('offset', '0')] })], nodes);
  graph.sparseInitializer = [
    onnx.SparseTensorProto.create({ values: ext('sv', 'sparse-values.bin'), indices: externalTensor('si', DT.INT64, [1], 'sparse-indices.bin', 0, 8), dims: [4] }),
    onnx.SparseTensorProto.create({ values: tensor({ name: 'sv2', dataType: DT.FLOAT, dims: [1], floatData: [1] }), dims: [4] }),
  ];
  const m = await readModel(modelBytes(graph));
  assert.deepEqual([...m.externalLocations()].sort(), ['const.bin', 'deep.bin', 'graphs.bin', 'sparse-indices.bin', 'sparse-values.bin', 'tensors.bin', 'then.bin', 'w.bin']);
  // a model with no external tensors names none, and finds no RoPE
  const plain = await readModel(modelBytes(graphOf([tensor({ name: 'w', dataType: DT.FLOAT, dims: [1], floatData: [1] })])));
  assert.equal(plain.externalLocations().size, 0);
  assert.deepEqual(findRope(plain), []);
});

// inv_freq → Unsqueeze → MatMul → Cos, Sin, the frequencies stored as `dataType` raw_data.
function invFreqModel(dataType, raw) {
  const nodes = [
    onnx.NodeProto.create({ name: 'unsq', opType: 'Unsqueeze', input: ['inv_freq', 'axes'], output: ['col'] }),
    onnx.NodeProto.create({ name: 'mm', opType: 'MatMul', input: ['col', 'positions'], output: ['angles'] }),
    onnx.NodeProto.create({ name: 'cos', opType: 'Cos', input: ['angles'], output: ['c'] }),
    onnx.NodeProto.create({ name: 'sin', opType: 'Sin', input: ['angles'], output: ['s'] }),
  ];
  return modelBytes(graphOf([tensor({ name: 'inv_freq', dataType, dims: [raw.length / (dataType === DT.DOUBLE ? 8 : dataType === DT.FLOAT ? 4 : 2)], rawData: new Uint8Array(raw) })], nodes));
}

test('element values as the inspector reads them: float64 inv_freq value for value (base 256, r 16: the frequencies 2^-j exactly), float32 and float16 / bfloat16 bit patterns', async () => {
  // 256^(-2j/16) = 2^-j, exact in every float type
  const config = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, num_key_value_heads: 4, head_dim: 16, max_position_embeddings: 64, rope_theta: 256 };
  const f = Array.from({ length: 8 }, (_, j) => 2 ** -j);
  const halfBitsOf = (j) => 0x3c00 - (j << 10); // float16 2^-j: exponent 15 - j, no mantissa
  const bf16BitsOf = (j) => 0x3f80 - (j << 7); // bfloat16 2^-j: exponent 127 - j
  const cases = [
    ['float64', invFreqModel(DT.DOUBLE, le(Float64Array.from(f)))],
    ['float32', invFreqModel(DT.FLOAT, le(Float32Array.from(f)))],
    ['float16', invFreqModel(DT.FLOAT16, le(Uint16Array.from(f, (_, j) => halfBitsOf(j))))],
    ['bfloat16', invFreqModel(DT.BFLOAT16, le(Uint16Array.from(f, (_, j) => bf16BitsOf(j))))],
  ];
  for (const [dtype, bytes] of cases) {
    const rep = await inspectModel(bytes, { config });
    assert.deepEqual([rep.sites.length, rep.sites[0].kind, rep.sites[0].dtype], [1, 'inv_freq', dtype]);
    assert.deepEqual([rep.sites[0].verdict, rep.sites[0].maxUlp, rep.sites[0].fromExact.maxAbs], ['exact', 0, 0], `${dtype}: ${rep.sites[0].message}`);
    // the same frequencies against another base are a mismatch
    const other = await inspectModel(bytes, { config: { ...config, rope_theta: 10000 } });
    assert.equal(other.sites[0].verdict, 'mismatch', `${dtype}: ${other.sites[0].message}`);
  }
  // float16 ±infinity (exponent 31, no mantissa) is read as ±Infinity: |Δ| infinite at that frequency
  for (const inf of [0x7c00, 0xfc00]) {
    const bits = Uint16Array.from(f, (_, j) => halfBitsOf(j));
    bits[5] = inf;
    const site = (await inspectModel(invFreqModel(DT.FLOAT16, le(bits)), { config })).sites[0];
    assert.deepEqual([site.verdict, site.fromExact.maxAbs, site.fromExact.col], ['mismatch', Infinity, 5]);
  }
  // the float64 values, one moved by one ulp: a mismatch, |Δ| = that ulp at that frequency
  const moved = Float64Array.from(f);
  moved[3] = 2 ** -3 + 2 ** -55;
  const rep = await inspectModel(invFreqModel(DT.DOUBLE, le(moved)), { config });
  assert.deepEqual([rep.sites[0].verdict, rep.sites[0].fromExact.maxAbs, rep.sites[0].fromExact.col], ['mismatch', 2 ** -55, 3]);
});
