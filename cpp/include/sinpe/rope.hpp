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
  // The float32 recipe's inv_freq: the rope type's rule in torch's float32
  // arithmetic, operation by operation, with a correctly rounded float32 pow.
  const std::vector<float>& inv_freq_float32() const noexcept;
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

// Where a cache's values go: cos and sin, each n rows of r/2 values
// (onnxruntime's cos_cache / sin_cache layout), cos[i*r/2 + j] =
// cos(angle_ij) att and sin likewise. dtype float32: cos and sin point to
// floats; float16 or bfloat16: to std::uint16_t bit patterns, each value
// cos(angle_ij) att in float64 rounded once to nearest-even
// (Status::float16_overflow when att rounds past float16's range); any other
// dtype: Status::bad_dtype.
struct CacheOut {
  Dtype dtype = Dtype::float32;
  void* cos = nullptr;
  void* sin = nullptr;
};

// The positions of a call's tokens. Pair j of token i turns by angle_ij =
// p_i,a(j) inv_j, a(j) = pair_axes()[j] the axis of pair j.
//   list(p, n):   n tokens, token i at p[i] on every axis (as transformers'
//                 Qwen2-VL/Qwen3-VL rotary embeddings take text-only ids);
//   range(s, n):  n tokens at s, s+1, ..., s+n-1 on every axis (s an integer,
//                 else Status::bad_start);
//   axes(p, n):   n tokens of plan.axes() positions each, token-major: token
//                 i's position on axis a is p[i * axes + a] (M-RoPE, 2-D vision
//                 RoPE); the same as list for a one-axis plan;
//   grid(h, w[, first, count]): patches [first, first + count) (all h x w when
//                 not given) of a height x width grid for a two-axis plan
//                 (Status::axes_mismatch for another): patch m = i * w + j
//                 (row-major) at (row i, column j); Status::bad_count when
//                 they pass its end or h or w passes 2^24.
// Every position is finite with |p| < 2^24 (else position_not_finite /
// position_out_of_range).
struct Positions {
  enum class Kind { list, range, axes, grid };
  Kind kind = Kind::list;
  const double* values = nullptr;                // list, axes
  std::size_t count = 0;                         // tokens (list, range, axes) or patches (grid)
  double start = 0;                              // range
  std::size_t height = 0, width = 0, first = 0;  // grid

  static Positions list(const double* p, std::size_t n) noexcept { return {Kind::list, p, n, 0, 0, 0, 0}; }
  static Positions range(double start, std::size_t n) noexcept {
    return {Kind::range, nullptr, n, start, 0, 0, 0};
  }
  static Positions axes(const double* p, std::size_t n) noexcept { return {Kind::axes, p, n, 0, 0, 0, 0}; }
  static Positions grid(std::size_t h, std::size_t w, std::size_t first, std::size_t n) noexcept {
    return {Kind::grid, nullptr, n, 0, h, w, first};
  }
  // The whole grid: its h x w patches (the count is only used once h and w
  // are known to be at most 2^24 each, so the product does not wrap).
  static Positions grid(std::size_t h, std::size_t w) noexcept {
    const auto most = std::size_t(kMaxAbsPosition);
    return grid(h, w, 0, h <= most && w <= most ? h * w : 0);
  }
};

// The cos/sin cache of the tokens at `positions` into `out`, within the
// accuracy contract (float32) or rounded once (half precision). A Kind
// outside the enum: Status::bad_count.
Status rope_cache(const RopePlan& plan, const Positions& positions, const CacheOut& out,
                  Path path = Path::best);

// Rotates x in place: x holds positions.count tokens, each num_heads vectors
// of head_dim floats ([token][head][dim]), token i at the positions' token i.
// Dimensions rotary_dim ... head_dim-1 pass through unchanged.
Status apply_rope(const RopePlan& plan, RopeLayout layout, int head_dim, const Positions& positions,
                  std::size_t num_heads, float* x, Path path = Path::best);

Status check_head_dim(const RopePlan& plan, int head_dim) noexcept;

}  // namespace sinpe
