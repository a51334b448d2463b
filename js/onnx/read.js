// Reading an ONNX model and the bytes of its tensors, wherever they live:
// raw_data, the typed repeated fields, or a slice of an external data file
// (Blob.slice in browsers, a positioned fs read in Node). A data file is never
// read whole: each tensor's slice is checked against the file's size before
// anything is allocated.
import { fromBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema, TensorProto_DataLocation } from 'onnx-buf';
import { halfCodec } from '../half.js';

/** ONNX TensorProto.DataType codes of the element types a cache can have, and their byte sizes. */
export const FLOAT = 1;
export const FLOAT16 = 10;
export const DOUBLE = 11;
export const BFLOAT16 = 16;
export const DTYPE_NAMES = { [FLOAT]: 'float32', [FLOAT16]: 'float16', [BFLOAT16]: 'bfloat16', [DOUBLE]: 'float64' };
const ELEMENT_BYTES = { 1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2 };

/** An error of the onnx module: `code` says which check refused the input; the message names the file and tensor. */
export class OnnxError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'OnnxError';
    this.code = code;
  }
}

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
const nodeModules = async () => {
  const [fs, path] = await Promise.all([import('node:fs/promises'), import('node:path')]);
  return { fs, path };
};

function describeSource(v) {
  if (v === null) return 'null';
  if (typeof v === 'object') return v.constructor?.name ?? 'object';
  return typeof v;
}

// A random-access source: { name, size(), read(offset, length) → Uint8Array }.
async function sourceOf(value, name) {
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    return { name: value.name || name, size: async () => value.size, read: async (o, n) => new Uint8Array(await value.slice(o, o + n).arrayBuffer()) };
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    const bytes = value instanceof Uint8Array ? value : new Uint8Array(value);
    return { name, size: async () => bytes.length, read: async (o, n) => bytes.subarray(o, o + n) };
  }
  if (typeof value === 'string') {
    if (!isNode) throw new TypeError(`${name}: a path (${JSON.stringify(value)}) can only be read in Node; pass a Blob or the bytes`);
    const { fs } = await nodeModules();
    return {
      name: value,
      path: value,
      size: async () => {
        try {
          return (await fs.stat(value)).size;
        } catch (e) {
          throw new OnnxError('missing_external', `${value}: cannot read it (${e.code ?? e.message})`, { cause: e });
        }
      },
      read: async (o, n) => {
        const fh = await fs.open(value, 'r');
        try {
          const buf = new Uint8Array(n);
          let done = 0;
          while (done < n) {
            const { bytesRead } = await fh.read(buf, done, n - done, o + done);
            if (bytesRead === 0) throw new OnnxError('external_out_of_range', `${value}: ended after ${o + done} bytes, ${n - done} short of the ${n} bytes at offset ${o}`);
            done += bytesRead;
          }
          return buf;
        } finally {
          await fh.close();
        }
      },
    };
  }
  throw new TypeError(`${name} must be a Uint8Array, an ArrayBuffer, a Blob/File or (Node) a path, got ${describeSource(value)}`);
}

const entries = (list) => Object.fromEntries(list.map((e) => [e.key, e.value]));
const product = (dims) => dims.reduce((a, d) => a * Number(d), 1);

/**
 * Reads a model. `model`: bytes, a Blob/File or a path; `options.externalData`:
 * { location: Blob | path | bytes }; `options.name`: the model's name in messages.
 * @returns {Promise<OnnxModel>}
 */
export async function readModel(model, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describeSource(options)}`);
  const external = options.externalData ?? {};
  if (external === null || typeof external !== 'object') throw new TypeError(`options.externalData must be an object { location: Blob | path }, got ${describeSource(external)}`);
  const defaultName = typeof model === 'string' ? model : (typeof Blob !== 'undefined' && model instanceof Blob && model.name) || 'model.onnx';
  const name = options.name ?? defaultName;
  const src = await sourceOf(model, 'model');
  const size = await src.size();
  const bytes = await src.read(0, size);
  let proto;
  try {
    proto = fromBinary(ModelProtoSchema, bytes);
  } catch (e) {
    throw new OnnxError('bad_protobuf', `${name}: not a valid ONNX model (protobuf: ${e.message})`, { cause: e });
  }
  if (!proto.graph) throw new OnnxError('bad_protobuf', `${name}: not an ONNX model (no graph)`);
  let dir = null;
  if (typeof model === 'string') dir = (await nodeModules()).path.dirname(model);
  const sources = new Map();
  async function dataFile(location, tensorName) {
    if (sources.has(location)) return sources.get(location);
    let given = Object.hasOwn(external, location) ? external[location] : undefined;
    if (given === undefined && dir !== null) {
      const { path } = await nodeModules();
      if (path.isAbsolute(location) || location.split(/[\\/]/).includes('..'))
        throw new OnnxError('missing_external', `${name}: tensor '${tensorName}' names external data ${JSON.stringify(location)} outside the model's folder`);
      given = path.join(dir, location);
    }
    if (given === undefined)
      throw new OnnxError('missing_external', `${name}: tensor '${tensorName}' is stored in external data ${JSON.stringify(location)}, which was not given (options.externalData[${JSON.stringify(location)}])`);
    const s = await sourceOf(given, `options.externalData[${JSON.stringify(location)}]`);
    let size;
    try {
      size = await s.size();
    } catch (e) {
      throw new OnnxError('missing_external', `${s.name}: the external data of tensor '${tensorName}' (model ${name}) cannot be read (${e.cause?.code ?? e.message})`, { cause: e });
    }
    const entry = { source: s, size };
    sources.set(location, entry);
    return entry;
  }

  /** Where a tensor's bytes live: { kind, location?, offset?, length? }. */
  function storage(t) {
    if (t.dataLocation === TensorProto_DataLocation.EXTERNAL) {
      const e = entries(t.externalData);
      return { kind: 'external', location: e.location, offset: Number(e.offset ?? 0), length: e.length === undefined ? null : Number(e.length) };
    }
    if (t.rawData.length > 0) return { kind: 'raw_data', length: t.rawData.length };
    if (t.floatData.length > 0) return { kind: 'float_data' };
    if (t.int32Data.length > 0) return { kind: 'int32_data' };
    if (t.doubleData.length > 0) return { kind: 'double_data' };
    return { kind: 'raw_data', length: 0 };
  }

  /** The tensor's little-endian element bytes (checked against dims × element size). */
  async function tensorBytes(t) {
    const tname = t.name || '(unnamed)';
    const width = ELEMENT_BYTES[t.dataType];
    if (width === undefined) throw new OnnxError('bad_tensor', `${name}: tensor '${tname}' has element type ${t.dataType}, which has no fixed size`);
    const want = product(t.dims) * width;
    if (!Number.isSafeInteger(want) || t.dims.some((d) => d < 0n)) throw new OnnxError('bad_tensor', `${name}: tensor '${tname}' has dims [${t.dims.join(', ')}]`);
    const where = storage(t);
    if (where.kind === 'external') {
      const loc = where.location;
      if (typeof loc !== 'string' || loc === '') throw new OnnxError('bad_tensor', `${name}: tensor '${tname}' is external but names no location`);
      const file = await dataFile(loc, tname);
      const length = where.length ?? file.size - where.offset;
      if (!Number.isSafeInteger(where.offset) || where.offset < 0 || !Number.isSafeInteger(length) || length < 0)
        throw new OnnxError('bad_tensor', `${name}: tensor '${tname}' has external offset ${where.offset} / length ${length}`);
      if (where.offset + length > file.size)
        throw new OnnxError('external_out_of_range', `${file.source.name}: tensor '${tname}' claims bytes [${where.offset}, ${where.offset + length}) but the file holds ${file.size} bytes (model ${name})`);
      if (length !== want)
        throw new OnnxError('bad_tensor', `${name}: tensor '${tname}' stores ${length} bytes in ${file.source.name} for dims [${t.dims.join(', ')}] (${want} bytes)`);
      return file.source.read(where.offset, length);
    }
    let bytes;
    if (where.kind === 'raw_data') bytes = t.rawData;
    else if (where.kind === 'float_data') bytes = new Uint8Array(Float32Array.from(t.floatData).buffer);
    else if (where.kind === 'double_data') bytes = new Uint8Array(Float64Array.from(t.doubleData).buffer);
    else if (width === 2) bytes = new Uint8Array(Uint16Array.from(t.int32Data).buffer);
    else if (width === 4) bytes = new Uint8Array(Int32Array.from(t.int32Data).buffer);
    else bytes = new Uint8Array(Uint8Array.from(t.int32Data).buffer);
    if (bytes.length !== want)
      throw new OnnxError('bad_tensor', `${name}: tensor '${tname}' holds ${bytes.length} bytes (${where.kind}) for dims [${t.dims.join(', ')}] (${want} bytes)`);
    return bytes;
  }

  return { name, proto, bytes, storage, tensorBytes, externalLocations: () => externalLocations(proto.graph) };
}

/** Every external data `location` the graph's tensors (subgraphs and Constants included) name. */
export function externalLocations(graph, out = new Set()) {
  const tensor = (t) => {
    if (t?.dataLocation !== TensorProto_DataLocation.EXTERNAL) return;
    const loc = t.externalData.find((e) => e.key === 'location')?.value;
    if (loc) out.add(loc);
  };
  graph.initializer.forEach(tensor);
  for (const st of graph.sparseInitializer) {
    tensor(st.values);
    tensor(st.indices);
  }
  for (const node of graph.node)
    for (const a of node.attribute) {
      tensor(a.t);
      a.tensors.forEach(tensor);
      if (a.g) externalLocations(a.g, out);
      a.graphs.forEach((g) => externalLocations(g, out));
    }
  return out;
}

/** Element values of a float tensor's bytes as float64 (float16/bfloat16 decoded), and its bit patterns. */
export function decodeFloats(bytes, dataType) {
  const copy = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const buf = copy.buffer.slice(copy.byteOffset, copy.byteOffset + copy.byteLength);
  if (dataType === FLOAT) return { values: Float64Array.from(new Float32Array(buf)), bits: new Uint32Array(buf) };
  if (dataType === DOUBLE) return { values: new Float64Array(buf), bits: null };
  const bits = new Uint16Array(buf);
  const values = new Float64Array(bits.length);
  const { decode } = halfCodec(DTYPE_NAMES[dataType]);
  for (let i = 0; i < bits.length; i++) values[i] = decode(bits[i]);
  return { values, bits };
}

