// Embind registration: the module's whole surface, nothing else. The glue
// (glue.cpp) converts; the JS layer (js/engine.js) copies chunks between the
// scratch buffers and JS-owned arrays.
#include <emscripten/bind.h>

#include "glue.hpp"

EMSCRIPTEN_BINDINGS(sinpe) {
  using namespace sinpe::glue;
  using emscripten::function;
  function("_requestAddress", &request_address);
  function("_scratchAddress", &scratch_address);
  function("_scratchFloats", &scratch_floats);
  function("_positionsAddress", &positions_address);
  function("_positionsCapacity", &positions_capacity);
  function("_lutAddress", &lut_address);
  function("_lutBytes", &lut_bytes);
  function("_kindNames", &kind_names);
  function("_resultAddress", &result_address);
  function("_plan", &plan);
  function("_prepare", &prepare);
  function("_release", &release);
  function("_checkRows", &check_rows);
  function("_checkPositions", &check_positions);
  function("_checkGrid", &check_grid);
  function("_checkHeatmap", &check_heatmap);
  function("_checkRope", &check_rope);
  function("_checkRopeGrid", &check_rope_grid);
  function("_rows", &rows);
  function("_addRows", &add_rows);
  function("_encode", &encode);
  function("_grid2d", &grid2d);
  function("_heatmap", &heatmap);
  function("_ropeCacheRows", &rope_cache_rows);
  function("_ropeCache", &rope_cache);
  function("_ropeCacheGrid", &rope_cache_grid);
  function("_ropeApply", &rope_apply);
  function("_frequencies", &frequencies);
  function("_attentionFactor", &attention_factor);
  function("_axes", &axes);
  function("_followsRule", &follows_rule);
  function("_version", &version);
}
