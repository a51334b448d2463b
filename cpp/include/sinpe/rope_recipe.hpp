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

// The cos/sin cache of the tokens at `positions` into `out` (rope.hpp's
// position sources and output dtypes) by `recipe`: Recipe::exact is
// rope_cache; Recipe::float32 rounds each step to float32 as above.
Status rope_cache_recipe(const RopePlan& plan, Recipe recipe, const Positions& positions,
                         const CacheOut& out);

}  // namespace sinpe
