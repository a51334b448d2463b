// The size of a loaded module's wasm memory, read from the outside: the package
// has no heap hook, so WebAssembly.instantiate is wrapped to keep the Memory
// each instance exports. Import this module before calling sinpe().
import assert from 'node:assert/strict';

const memories = [];
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  const instance = result instanceof WebAssembly.Instance ? result : result.instance;
  for (const value of Object.values(instance.exports)) if (value instanceof WebAssembly.Memory) memories.push(value);
  return result;
};

// Loads one module with `load` (e.g. () => sinpe({ simd: true })) and returns
// it with heapBytes(), the byte length of its wasm memory now (what
// emscripten_get_heap_size reports inside the module), and heap(), that
// memory's ArrayBuffer now (a new one after the memory grows).
export async function loadWithMemory(load) {
  const before = memories.length;
  const module = await load();
  assert.equal(memories.length, before + 1, 'loading the module instantiated exactly one wasm memory');
  const memory = memories[before];
  return { module, heapBytes: () => memory.buffer.byteLength, heap: () => memory.buffer };
}
