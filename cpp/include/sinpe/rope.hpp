// Rotary position embeddings (RoPE): the frequencies of every Hugging Face
// rope type in float64, cos/sin caches and in-place rotation of query/key
// buffers, each value within the accuracy contract:
//   cache: |cos_j - cos(p inv_j) att| <= 2.5e-7 max(1, att) (and sin);
//   rotation: |x'_a - exact| <= 5e-7 max(1, att) (|x_a| + |x_b|), exact being
//   the float64 rotation of the float32 inputs.
// Options: Options::rope_type and the options that rope type reads
// (vocabulary.def); anything else given is refused by name.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "sinpe/sinpe.hpp"

namespace sinpe {

namespace detail {
struct RopeData;
}

// A resolved RoPE for one rotary dimension r: inv_j (j < r/2) and the
// attention factor. Immutable, cheap to copy, shareable between threads.
class RopePlan {
 public:
  int rotary_dim() const noexcept;
  // Radians per position of each pair, float64.
  const std::vector<double>& inv_freq() const noexcept;
  double attention_factor() const noexcept;
  // The sinusoidal plan (width r, concat layout, frequencies inv_j) whose
  // block kernel makes the cache rows.
  const Plan& rows_plan() const noexcept;
  bool valid() const noexcept { return data_ != nullptr; }

  explicit RopePlan(std::shared_ptr<const detail::RopeData> data) : data_(std::move(data)) {}
  RopePlan() = default;

 private:
  std::shared_ptr<const detail::RopeData> data_;
};

Status make_rope_plan(const Options& options, int rotary_dim, RopePlan* plan);

// cos[i*r/2 + j] = cos(positions[i] inv_j) att, sin likewise: onnxruntime's
// cos_cache / sin_cache layout (n, r/2).
Status rope_cache(const RopePlan& plan, const double* positions, std::size_t n, float* cos, float* sin,
                  Path path = Path::best);
// The same for positions start, start+1, ..., start+count-1.
Status rope_cache_rows(const RopePlan& plan, double start, std::size_t count, float* cos, float* sin,
                       Path path = Path::best);

// Half-precision caches: dtype float16 or bfloat16 (else Status::bad_dtype),
// each value cos(p inv_j) att (and sin) in float64 rounded once to
// nearest-even, as bit patterns.
Status rope_cache(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype,
                  std::uint16_t* cos, std::uint16_t* sin, Path path = Path::best);
Status rope_cache_rows(const RopePlan& plan, double start, std::size_t count, Dtype dtype, std::uint16_t* cos,
                       std::uint16_t* sin, Path path = Path::best);

// Rotates x in place: x holds n tokens, each num_heads vectors of head_dim
// floats ([token][head][dim]); token i is at positions[i]. Dimensions
// rotary_dim ... head_dim-1 pass through unchanged.
Status apply_rope(const RopePlan& plan, RopeLayout layout, int head_dim, const double* positions,
                  std::size_t n, std::size_t num_heads, float* x, Path path = Path::best);

Status check_head_dim(const RopePlan& plan, int head_dim) noexcept;

}  // namespace sinpe
