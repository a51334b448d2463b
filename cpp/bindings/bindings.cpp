// Embind registration: the module's whole surface, nothing else. The glue
// (glue.cpp) converts; the JS layer (js/engine.js) copies chunks between the
// scratch buffers and JS-owned arrays.
#include <emscripten/bind.h>

#include "glue.hpp"

EMSCRIPTEN_BINDINGS(sinpe) {
  using namespace sinpe::glue;
  using emscripten::function;
  function("requestAddress", &request_address);
  function("scratchAddress", &scratch_address);
  function("scratchFloats", &scratch_floats);
  function("positionsAddress", &positions_address);
  function("positionsCapacity", &positions_capacity);
  function("lutAddress", &lut_address);
  function("lutBytes", &lut_bytes);
  function("kindNames", &kind_names);
  function("resultAddress", &result_address);
  function("plan", &plan);
  function("prepare", &prepare);
  function("release", &release);
  function("checkRows", &check_rows);
  function("checkPositions", &check_positions);
  function("checkGrid", &check_grid);
  function("checkHeatmap", &check_heatmap);
  function("checkRope", &check_rope);
  function("checkRopeGrid", &check_rope_grid);
  function("rows", &rows);
  function("addRows", &add_rows);
  function("encode", &encode);
  function("grid2d", &grid2d);
  function("heatmap", &heatmap);
  function("ropeCacheRows", &rope_cache_rows);
  function("ropeCache", &rope_cache);
  function("ropeCacheGrid", &rope_cache_grid);
  function("ropeApply", &rope_apply);
  function("frequencies", &frequencies);
  function("attentionFactor", &attention_factor);
  function("axes", &axes);
  function("width", &width);
  function("flavour", &flavour);
  function("version", &version);
}
