// Emscripten --post-js: runs inside the module's closure, where the memory and
// Emscripten's own views live. Detaches every view of the module's memory
// (memory.grow(0) replaces its ArrayBuffer), so that a chunks() view kept past
// its callback reads as length 0 instead of later results, then gives
// Emscripten fresh views of the same memory.
Module['_detachViews'] = function () {
  wasmMemory.grow(0);
  updateGlobalBufferAndViews(wasmMemory.buffer);
};
