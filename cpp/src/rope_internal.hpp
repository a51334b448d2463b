// The private parts the RoPE sources share (rope_formulas.cpp, rope_plan.cpp,
// rope_cache.cpp, rope_rotate.cpp): a plan's data, the formulas' arguments and
// results, the multi-axis cache rows and the patch grids.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "axes_kernel.hpp"
#include "block_rows.hpp"
#include "options.hpp"
#include "sinpe/rope.hpp"

namespace sinpe {

namespace detail {
struct RopeData {
  int rotary_dim = 0;
  std::vector<double> inv;
  std::vector<float> inv32;  // the float32 recipe's inv_freq: torch's float32 arithmetic (rope_formulas.cpp)
  double attention = 1.0;
  Plan rows;  // width r, concat, frequencies inv, amplitude attention
  int axes = 1;
  std::vector<int> pair_axes;  // r/2 entries
  // With several axes: per axis, its pairs (ascending) and a plan of their
  // frequencies alone (width 2 x pairs, concat), made from that axis's positions.
  std::vector<std::vector<std::size_t>> axis_pairs;
  std::vector<Plan> axis_rows;
};

// What a rope type's formula reads: the options, their defaults and the
// rotary dimension r.
struct FormulaArgs {
  const Options& options;
  detail::Reads reads;
  int r;
  double get(Option id) const { return detail::number_or_default(options, reads, id); }
  bool given(Option id) const { return detail::is_given(options, id); }
  // def_j = base^(-2j/r)
  double standard(int j) const { return std::pow(get(Option::base), -2.0 * j / r); }
  // The same in torch's float32 steps: 1 / (base ** (float(2j) / r)), base as a float32 (pow32 below).
  float standard32(int j) const { return standard32(j, get(Option::base)); }
  float standard32(int j, double base) const { return 1.0f / pow32(float(base), float(2 * j) / float(r)); }
  // float32 pow, correctly rounded: the float64 pow (within one float64 ulp)
  // rounded once decides every value except one lying within two float64
  // ulps of a float32 rounding midpoint, where its rounding is kept
  // (tests/cpp/test_rope.cpp scans the usual bases and finds none).
  static float pow32(float b, float e) { return float(std::pow(double(b), double(e))); }
};

struct FormulaResult {
  std::vector<double> inv;
  std::vector<float> inv32;  // the same frequencies in torch's float32 arithmetic, op by op
  double attention = 1.0;
  std::vector<char> still;  // per pair: 1 = frequency 0 on purpose (proportional); empty = none
};

// The formula of rope type `type` (vocabulary.def SINPE_ROPE_TYPE).
Status rope_formula(RopeType type, const FormulaArgs& args, FormulaResult& out);

// Every inv_j positive (not NaN, not underflowed to zero) and every angle
// p inv_j with |p| < 2^24 finite, as the sinusoidal presets require.
// Pairs marked still must be exactly 0 (no rotation).
bool finite_positive(const std::vector<double>& v, const std::vector<char>& still);

// A cache's rows: the rows plan's concat row is sines then cosines.
template <class T>
inline RowsOf<T> split_rows(T* cos, T* sin, std::size_t half) {
  return {nullptr, sin, cos, nullptr, half};
}

// The per-axis state of one multi-axis request: where each axis's pairs go,
// and its recent blocks' anchors (axes_kernel.hpp).
class AxesRows {
 public:
  explicit AxesRows(const RopeData& D) : axes_(std::size_t(D.axes)) {
    thread_local std::vector<AxisTarget> targets;
    thread_local std::vector<AxisBlocks> blocks;
    targets.resize(axes_);
    if (blocks.size() < axes_) blocks.resize(axes_);
    for (std::size_t a = 0; a < axes_; ++a) {
      const std::vector<std::size_t>& pairs = D.axis_pairs[a];
      bool consecutive = true;
      for (std::size_t q = 0; q < pairs.size(); ++q) consecutive = consecutive && pairs[q] == pairs[0] + q;
      const PlanData& P = D.axis_rows[a].data();
      targets[a] = {&P, pairs.data(), pairs.size(), consecutive, pairs.empty() ? 0 : pairs[0]};
      blocks[a].reset(P);
    }
    targets_ = targets.data();
    blocks_ = blocks.data();
    half_ = std::size_t(D.rotary_dim / 2);
  }

  // Cache rows of tokens [0, n) (positions token-major) into cos and sin.
  void operator()(const double* positions, std::size_t n, float* cos, float* sin, bool simd) const {
    axes_cache_rows(targets_, blocks_, axes_, positions, n, half_, cos, sin, simd);
  }

 private:
  std::size_t axes_, half_ = 0;
  const AxisTarget* targets_ = nullptr;
  AxisBlocks* blocks_ = nullptr;
};

// The checks of a range of grid patches.
inline Status check_grid_range(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                               std::size_t count) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() != 2) return Status::axes_mismatch;
  // Every row and column index is a position below 2^24.
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  if (width != 0 && height > kMaxElements / width) return Status::too_large;
  const std::size_t n = height * width;
  if (first > n || count > n - first) return Status::bad_count;
  return check_elements(count, std::size_t(plan.rotary_dim() / 2));
}

// Calls fill(patch positions, patches, patch offset) for patches [first,
// first + count), in chunks: (row, column) per patch, row-major.
template <class Fill>
void grid_chunks(std::size_t width, std::size_t first, std::size_t count, Fill fill) {
  constexpr std::size_t kChunk = 4096;
  std::vector<double> p(2 * std::min(count, kChunk));
  for (std::size_t m0 = 0; m0 < count; m0 += kChunk) {
    const std::size_t m = std::min(kChunk, count - m0);
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t patch = first + m0 + i;
      p[2 * i] = double(patch / width);
      p[2 * i + 1] = double(patch % width);
    }
    fill(p.data(), m, m0);
  }
}

}  // namespace detail

}  // namespace sinpe
