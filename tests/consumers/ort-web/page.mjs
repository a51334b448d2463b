// A page that feeds onnxruntime-web's RotaryEmbedding (com.microsoft, wasm
// backend) from the packed sinpe.wasm. Served by tests/consumers/clients.mjs
// with the installed package under ./sinpe/ and onnxruntime-web's dist folder
// under ./ort/, both as plain ES modules (no bundler). The runner calls
// window.__run(case) for each case and checks the outputs in Node.
/* global window, Float16Array -- a page script; Float16Array where the engine has it */
import sinpe from './sinpe/js/sinpe.js';
import * as ort from './ort/ort.wasm.min.mjs';

// One thread: the page is not cross-origin isolated, so there is no
// SharedArrayBuffer for onnxruntime's worker threads. Its .wasm and glue come
// from this server's ./ort/, the files of the installed npm package.
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.wasm.wasmPaths = new URL('./ort/', import.meta.url).href;

const sessions = new Map();
async function session(model) {
  if (!sessions.has(model)) {
    const bytes = new Uint8Array(await (await fetch(model)).arrayBuffer());
    sessions.set(model, await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] }));
  }
  return sessions.get(model);
}

// The bit patterns of float16 tensor data, whichever array type onnxruntime used.
const halfBits = (data) => Array.from(data instanceof Uint16Array ? data : new Uint16Array(data.buffer, data.byteOffset, data.length));

try {
  const pe = await sinpe();
  /**
   * c: { model, dtype: 'float32' | 'float16', options, rotaryDim, cacheLength,
   * x (float32 values, or float16 bit patterns), xDims, positionIds, positionDims,
   * cos16/sin16 (float16 bit patterns of the cache, for dtype float16) }.
   * float32 caches come from pe.ropeCacheRows(0, cacheLength, rotaryDim, options).
   */
  window.__run = async (c) => {
    const half = c.rotaryDim / 2;
    const feeds = {
      position_ids: new ort.Tensor('int64', BigInt64Array.from(c.positionIds, BigInt), c.positionDims),
    };
    let attentionFactor;
    if (c.dtype === 'float32') {
      const cache = pe.ropeCacheRows(0, c.cacheLength, c.rotaryDim, c.options);
      attentionFactor = cache.attentionFactor;
      feeds.input = new ort.Tensor('float32', Float32Array.from(c.x), c.xDims);
      feeds.cos_cache = new ort.Tensor('float32', cache.cos, [c.cacheLength, half]);
      feeds.sin_cache = new ort.Tensor('float32', cache.sin, [c.cacheLength, half]);
    } else {
      feeds.input = new ort.Tensor('float16', Uint16Array.from(c.x), c.xDims);
      feeds.cos_cache = new ort.Tensor('float16', Uint16Array.from(c.cos16), [c.cacheLength, half]);
      feeds.sin_cache = new ort.Tensor('float16', Uint16Array.from(c.sin16), [c.cacheLength, half]);
    }
    const { output } = await (await session(c.model)).run(feeds);
    return {
      type: output.type,
      dims: output.dims,
      arrayType: output.data.constructor.name,
      values: c.dtype === 'float32' ? Array.from(output.data) : halfBits(output.data),
      attentionFactor,
    };
  };
  /**
   * A whole model (built and extended in Node, served under ./models/) run as
   * it is, caches and all: c: { model, dtype, x (float32 values, or float16
   * bit patterns), xDims, positionIds, positionDims, output }. Resolves with
   * the output's values (float16 as bit patterns), or with { error } when
   * onnxruntime-web refuses the run.
   */
  window.__runModel = async (c) => {
    const feeds = {
      input: c.dtype === 'float32' ? new ort.Tensor('float32', Float32Array.from(c.x), c.xDims) : new ort.Tensor('float16', Uint16Array.from(c.x), c.xDims),
      position_ids: new ort.Tensor('int64', BigInt64Array.from(c.positionIds, BigInt), c.positionDims),
    };
    let result;
    try {
      result = await (await session(c.model)).run(feeds);
    } catch (e) {
      return { error: e && e.message ? e.message : String(e) };
    }
    const out = result[c.output];
    return { type: out.type, dims: out.dims, values: c.dtype === 'float32' ? Array.from(out.data) : halfBits(out.data) };
  };
  // The engine's own float64 → float16 conversion, to check the test's rounding against.
  window.__toFloat16 = (values) => (typeof Float16Array === 'function' ? halfBits(Float16Array.from(values)) : null);
  window.__ready = { simd: pe.simd, version: pe.version, ort: ort.env.versions };
} catch (e) {
  window.__ready = { error: e && e.stack ? e.stack : String(e) };
}
