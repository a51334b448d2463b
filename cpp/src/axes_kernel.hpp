// Multi-axis RoPE cache rows (M-RoPE, 2-D vision RoPE) with the block
// kernel's arithmetic, for positions in any order.
//
// Each axis owns some of the pairs and has its own plan of their frequencies
// (RopeData::axis_rows in rope_internal.hpp, made by rope_plan.cpp). The
// positions an axis takes are rarely consecutive (Qwen2-VL's text runs are,
// but an image's rows repeat one position and a video's time axis steps), so
// rows cannot come from one run of the block kernel. Instead each position q
// is split into an aligned block and a row in it:
//   q = base + j,  j = floor(q) mod B  (B the plan's block rows),
// and its values are the block kernel's row j of the block anchored at base:
//   sin(q w) = a c_j + b s_j,  cos(q w) = b c_j - a s_j
// with (a, b) = float32(amplitude (sin, cos)(base w)) from trig.hpp's float64
// sincos, and (c_j, s_j) the plan's float32 rotation table. That is exactly
// the expression float32_kernel.hpp's accuracy argument covers (four correctly
// rounded inputs, a^2 + b^2 = amplitude^2, j < B), so every value is within
// the same contract. Positions near each other share a block: a few recent
// blocks' anchors are kept per axis, so a run of positions, an image row, a
// step-2 or descending sequence costs one float64 sincos per block, and only
// scattered positions pay one per token (as the one-axis positions_into
// does). A token's values depend on its positions alone (the block is aligned
// to multiples of B, not to where a call or a chunk starts).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "decide.hpp"
#include "plan_data.hpp"
#include "rounded_kernel.hpp"
#include "simd.hpp"
#include "trig.hpp"

namespace sinpe::detail {

// One axis's part of a cache row: its plan, and where its pairs go (pair q of
// the plan is column pairs[q] of the row; when they are consecutive, column
// first + q).
struct AxisTarget {
  const PlanData* plan;
  const std::size_t* pairs;
  std::size_t count;
  bool consecutive;
  std::size_t first;
};

// The float32 anchors of a few recent blocks of one axis.
class AxisBlocks {
 public:
  static constexpr std::size_t kSlots = 4;

  void reset(const PlanData& P) {
    P_ = &P;
    nf_ = P.freq.size();
    if (sf_.size() < kSlots * nf_) {
      sf_.resize(kSlots * nf_);
      cf_.resize(kSlots * nf_);
      sa_.resize(kSlots * nf_);
      ca_.resize(kSlots * nf_);
      sd_.resize(nf_);
      cd_.resize(nf_);
    }
    used_ = 0;
    next_ = 0;
    last_ = 0;
  }

  // The slot holding the anchors of the block at `base`, computed if no
  // kept slot has them.
  std::size_t slot(double base, bool simd) {
    if (used_ > 0 && base_[last_] == base) return last_;
    for (std::size_t s = 0; s < used_; ++s)
      if (base_[s] == base) return last_ = s;
    const std::size_t s = next_;
    next_ = (next_ + 1) % kSlots;
    if (used_ < kSlots) ++used_;
    base_[s] = base;
    float* sf = sf_.data() + s * nf_;
    float* cf = cf_.data() + s * nf_;
#if SINPE_SIMD
    if (simd) {
      trig::sincos_scaled(base, P_->freq.data(), nf_, sd_.data(), cd_.data(), sf, cf, P_->amplitude);
    } else
#endif
    {
      trig::sincos_scaled_scalar(base, P_->freq.data(), nf_, sd_.data(), cd_.data(), sf, cf, P_->amplitude);
    }
    (void)simd;
    // The float64 anchors times the amplitude (float32 output rounded once).
    double* sa = sa_.data() + s * nf_;
    double* ca = ca_.data() + s * nf_;
    for (std::size_t k = 0; k < nf_; ++k) {
      sa[k] = sd_[k] * P_->amplitude;
      ca[k] = cd_[k] * P_->amplitude;
    }
    return last_ = s;
  }

  const float* sine(std::size_t s) const { return sf_.data() + s * nf_; }
  const float* cosine(std::size_t s) const { return cf_.data() + s * nf_; }
  const double* sine64(std::size_t s) const { return sa_.data() + s * nf_; }
  const double* cosine64(std::size_t s) const { return ca_.data() + s * nf_; }

 private:
  const PlanData* P_ = nullptr;
  std::size_t nf_ = 0;
  std::array<double, kSlots> base_{};
  std::size_t used_ = 0, next_ = 0, last_ = 0;
  std::vector<float> sf_, cf_;
  std::vector<double> sa_, ca_;
  std::vector<double> sd_, cd_;
};

// The rows per block the split below uses: the largest power of two at most
// the plan's block rows (any row below them is in the rotation table).
inline std::int32_t aligned_rows(int block) {
  std::int32_t b = 1;
  while (2 * b <= block) b *= 2;
  return b;
}

// q as (block start, row in the block) for blocks of `rows` (a power of two)
// rows; the block start is q - j exactly, else (the subtraction rounded: a
// tiny negative fraction) q itself with row 0.
// (floor by truncation and a correction: a float-to-int conversion and a
// compare cost less than floor and a 64-bit conversion in WebAssembly.)
inline double block_of(double q, std::int32_t rows, std::size_t* row) {
  auto f = static_cast<std::int32_t>(q);  // |q| < 2^24: rounded toward zero,
  f -= double(f) > q;                     // then down
  const std::int32_t j = f & (rows - 1);  // f mod rows, also for f < 0
  const double base = q - double(j);
  if (base + double(j) == q) {
    *row = std::size_t(j);
    return base;
  }
  *row = 0;
  return q;
}

// One axis's pairs of the cache rows of tokens [i0, i1) (see axes_cache_rows),
// every value its float64 value rounded once (rounded_kernel.hpp's exact_row: the
// float64 anchors of the token's block and the float64 rotation table).
template <bool Consecutive>
inline void axis_rows(const AxisTarget& t, AxisBlocks& kept, std::int32_t rows, std::size_t axes,
                      std::size_t a, const double* positions, std::size_t i0, std::size_t i1,
                      std::size_t half, float* cos, float* sin, float* tmp, bool simd) {
  const PlanData& P = *t.plan;
  const std::size_t nf = P.freq.size(), count = t.count, first = t.first;
  const double* rot_cos = P.rot64_cos.data();
  const double* rot_sin = P.rot64_sin.data();
  thread_local std::vector<double> E;
  thread_local std::vector<Pending> pending;
  double pmax = 0;
  for (std::size_t i = i0; i < i1; ++i) pmax = std::max(pmax, std::fabs(positions[i * axes + a]));
  exact_margins(P, pmax, E);
  pending.resize(count / 4 + 1);
  double anchored = std::nan("");  // the block whose anchors A and B hold (none yet)
  const double* A = nullptr;
  const double* B = nullptr;
  for (std::size_t i = i0; i < i1; ++i) {
    std::size_t j;
    const double q = positions[i * axes + a];
    const double base = block_of(q, rows, &j);
    if (!(base == anchored)) {
      const std::size_t slot = kept.slot(base, simd);
      A = kept.sine64(slot);
      B = kept.cosine64(slot);
      anchored = base;
    }
    const double* C = rot_cos + j * nf;
    const double* S = rot_sin + j * nf;
    float* s_row = sin + i * half;
    float* c_row = cos + i * half;
    float* so = Consecutive ? s_row + first : tmp;
    float* co = Consecutive ? c_row + first : tmp + count;
    exact_row<false>(count, A, B, C, S, E.data(), so, co, simd, pending.data(),
                     [&](std::size_t k, bool cosine) { return exact_value(P, q, k, cosine); });
    if constexpr (!Consecutive)
      for (std::size_t k = 0; k < count; ++k) {
        s_row[t.pairs[k]] = so[k];
        c_row[t.pairs[k]] = co[k];
      }
  }
}

// Cache rows (row stride `half`, sines and cosines apart) of tokens [0, n),
// `axes` positions each (token-major); blocks[a] belongs to targets[a] and is
// reset by the caller (it may span several calls over one request).
// Tokens go in chunks small enough for their rows to stay in cache; within a
// chunk, axis by axis, so each axis's plan, block size and current anchors
// are loop invariants rather than looked up again for every token.
inline void axes_cache_rows(const AxisTarget* targets, AxisBlocks* blocks, std::size_t axes,
                            const double* positions, std::size_t n, std::size_t half, float* cos, float* sin,
                            bool simd) {
  constexpr std::size_t kChunk = 64;  // at rotary dim 128: 64 rows of 128 floats, 32 KB
  thread_local std::vector<float> tmp;
  thread_local std::vector<std::int32_t> rows;
  rows.resize(axes);
  for (std::size_t a = 0; a < axes; ++a) {
    if (!targets[a].consecutive && tmp.size() < 2 * targets[a].count) tmp.resize(2 * targets[a].count);
    rows[a] = aligned_rows(targets[a].plan->block);
  }
  for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
    const std::size_t i1 = std::min(n, i0 + kChunk);
    for (std::size_t a = 0; a < axes; ++a) {
      const AxisTarget& t = targets[a];
      if (t.count == 0) continue;
      if (t.consecutive)
        axis_rows<true>(t, blocks[a], rows[a], axes, a, positions, i0, i1, half, cos, sin, nullptr, simd);
      else
        axis_rows<false>(t, blocks[a], rows[a], axes, a, positions, i0, i1, half, cos, sin, tmp.data(), simd);
    }
  }
}

}  // namespace sinpe::detail
