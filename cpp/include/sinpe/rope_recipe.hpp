// RoPE caches by the float32 recipe (Recipe::float32, vocabulary.def): the
// values PyTorch's float32 rotary embeddings and onnxruntime-genai's builder
// bake, reproduced step by step with IEEE float32 rounding, so that a baked
// cache can be recognised and regenerated. Recipe::exact forwards to the
// exact caches of rope.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sinpe/rope.hpp"

namespace sinpe {

// cos/sin rows (n, r/2) for n tokens of plan.axes() positions each
// (token-major, as rope_cache_axes). float32 results when dtype is float32
// (cos/sin point to floats), else bit patterns (std::uint16_t).
Status rope_cache_recipe(const RopePlan& plan, Recipe recipe, const double* positions, std::size_t n,
                         Dtype dtype, void* cos, void* sin);
// Positions start ... start+count-1, each on every axis (as rope_cache_rows).
Status rope_cache_rows_recipe(const RopePlan& plan, Recipe recipe, double start, std::size_t count,
                              Dtype dtype, void* cos, void* sin);
// Patches [first, first + count) of a height x width grid of a two-axis plan
// (as rope_cache_grid).
Status rope_cache_grid_recipe(const RopePlan& plan, Recipe recipe, std::size_t height, std::size_t width,
                              std::size_t first, std::size_t count, Dtype dtype, void* cos, void* sin);

}  // namespace sinpe
