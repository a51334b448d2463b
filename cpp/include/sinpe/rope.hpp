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
  // Position axes per token: 1, or the sections of a multi-axis plan
  // (Options::rope_axes, mropeSection; 2 for pixtral).
  int axes() const noexcept;
  // The axis pair j turns with, j < r/2.
  const std::vector<int>& pair_axes() const noexcept;
  // The sinusoidal plan (width r, concat layout, frequencies inv_j) whose
  // block kernel makes the cache rows.
  const Plan& rows_plan() const noexcept;
  bool valid() const noexcept { return data_ != nullptr; }
  const detail::RopeData* data() const noexcept { return data_.get(); }

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

// ---- several position axes per token (M-RoPE, 2-D vision RoPE) ----------------
// positions holds n tokens x plan.axes() values, token-major: token i's
// position on axis a is positions[i * axes + a]. Pair j's angle is
// positions[i * axes + pair_axes()[j]] * inv_j; caches and rotation are
// otherwise those above (same layouts, same contract). The one-position
// entry points above, given a multi-axis plan, use each token's one
// position on every axis, as transformers' Qwen2-VL/Qwen3-VL rotary
// embeddings do for text-only position ids.
Status rope_cache_axes(const RopePlan& plan, const double* positions, std::size_t n, float* cos, float* sin,
                       Path path = Path::best);
Status apply_rope_axes(const RopePlan& plan, RopeLayout layout, int head_dim, const double* positions,
                       std::size_t n, std::size_t num_heads, float* x, Path path = Path::best);
// A height x width patch grid for a two-axis plan (axis 0 the row, axis 1 the
// column): patch m = i * width + j (row-major) is at (i, j); cos and sin hold
// height * width rows of r/2 values. Status::axes_mismatch for another plan.
Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, float* cos, float* sin,
                       Path path = Path::best);
// Patches [first, first + count) of that grid (count rows of r/2 values each);
// Status::bad_count when they pass its end.
Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                       std::size_t count, float* cos, float* sin, Path path = Path::best);

// The multi-axis caches in half precision: dtype float16 or bfloat16 (else
// Status::bad_dtype), each value rounded once to nearest-even as above.
Status rope_cache_axes(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype,
                       std::uint16_t* cos, std::uint16_t* sin, Path path = Path::best);
Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, Dtype dtype,
                       std::uint16_t* cos, std::uint16_t* sin, Path path = Path::best);
Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                       std::size_t count, Dtype dtype, std::uint16_t* cos, std::uint16_t* sin,
                       Path path = Path::best);

Status check_head_dim(const RopePlan& plan, int head_dim) noexcept;

}  // namespace sinpe
