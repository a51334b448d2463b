// The private parts the RoPE sources share (rope_formulas.cpp, rope_plan.cpp,
// rope_cache.cpp, rope_rotate.cpp): a plan's data, the formulas' arguments and
// results, and the multi-axis cache rows.
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "axes_kernel.hpp"
#include "kernel.hpp"
#include "options.hpp"
#include "sinpe/rope.hpp"

namespace sinpe {

namespace detail {
struct RopeData {
  int rotary_dim = 0;
  std::vector<double> inv;
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
};

struct FormulaResult {
  std::vector<double> inv;
  double attention = 1.0;
  std::vector<char> still;  // per pair: 1 = frequency 0 on purpose (proportional); empty = none
};

// The formula of rope type `type` (vocabulary.def SINPE_ROPE_TYPE).
Status rope_formula(RopeType type, const FormulaArgs& args, FormulaResult& out);

// Every inv_j positive (not NaN, not underflowed to zero) and every angle
// p inv_j with |p| < 2^24 finite, as the sinusoidal presets require.
// Pairs marked still must be exactly 0 (no rotation).
bool finite_positive(const std::vector<double>& v, const std::vector<char>& still);

inline Rows split_rows(float* cos, float* sin, std::size_t half) {
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

}  // namespace detail

}  // namespace sinpe
