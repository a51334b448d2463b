// Multi-axis RoPE cache rows (M-RoPE, 2-D vision RoPE) with the block
// kernel's arithmetic, for positions in any order.
//
// Each axis owns some of the pairs and has its own plan of their frequencies
// (rope.cpp's RopeData::axis_rows). The positions an axis takes are rarely
// consecutive (Qwen2-VL's text runs are, but an image's rows repeat one
// position and a video's time axis steps), so rows cannot come from one run of
// the block kernel. Instead each position q is split into an aligned block
// and a row in it:
//   q = base + j,  j = floor(q) mod B  (B the plan's block rows),
// and its values are the block kernel's row j of the block anchored at base:
//   sin(q w) = a c_j + b s_j,  cos(q w) = b c_j - a s_j
// with (a, b) = float32(amplitude (sin, cos)(base w)) from trig.hpp's float64
// sincos, and (c_j, s_j) the plan's float32 rotation table. That is exactly
// the expression kernel.hpp's accuracy argument covers (four correctly
// rounded inputs, a^2 + b^2 = amplitude^2, j < B), so every value is within
// the same contract. Positions near each other share a block: a few recent
// blocks' anchors are kept per axis, so a run of positions, an image row, a
// step-2 or descending sequence costs one float64 sincos per block, and only
// scattered positions pay one per token (as the one-axis positions_into
// does). Tokens are split into blocks and rows a tile at a time, axis by
// axis, before any of their rows is made; on an axis, an integral position in
// the block of the one before it (a text run, an image row's widths, a
// repeated time or height) is recognised with a few integer operations, and
// a token whose row and block on an axis are the previous token's copies its
// values. A token's values depend on its positions alone (the block is
// aligned to multiples of B, not to where a call, a chunk or a tile starts).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel.hpp"
#include "plan_data.hpp"
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

// The rows per block the split below uses: the largest power of two at most
// the plan's block rows (any row below them is in the rotation table).
inline std::int64_t aligned_rows(int block) {
  std::int64_t b = 1;
  while (2 * b <= block) b *= 2;
  return b;
}

// q as (block start, row in the block) for blocks of `rows` (a power of two)
// rows; the block start is q - j exactly, else (the subtraction rounded: a
// tiny negative fraction) q itself with row 0. j = floor(q) mod rows, read
// from the low bits of floor(q) + 1.5 * 2^52 (an integer below 2^24 in
// magnitude, so the sum is exact and its mantissa's low bits are floor(q) in
// two's complement): no float-to-integer conversion, which WebAssembly
// guards with range checks.
inline double block_of(double q, std::int64_t rows, std::size_t* row) {
  const double shifted = std::floor(q) + 0x1.8p52;  // |q| < 2^24
  std::uint64_t bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  const auto j = std::uint32_t(bits) & std::uint32_t(rows - 1);
  const double base = q - double(j);
  if (base + double(j) == q) {
    *row = std::size_t(j);
    return base;
  }
  *row = 0;
  return q;
}

// The float32 anchors of the recent blocks of one axis (each slot holds a
// block's sines then its cosines, nf each), and the block of the axis's last
// integral position (the run the next positions may continue).
class AxisBlocks {
 public:
  static constexpr std::size_t kRecent = 4;  // slots searched for a block
  // More slots than are searched: the slot a position's block came from is
  // never the next one overwritten, so a later position whose anchors are at
  // the same address is in the same block.
  static constexpr std::size_t kSlots = kRecent + 2;
  // No block starts here: |floor(q)| < 2^24 for every checked position.
  static constexpr std::int32_t kNoRun = INT32_MAX;

  void reset(const PlanData& P) {
    P_ = &P;
    nf_ = P.freq.size();
    if (anchors_.size() < kSlots * 2 * nf_) {
      anchors_.resize(kSlots * 2 * nf_);
      sd_.resize(nf_);
      cd_.resize(nf_);
    }
    used_ = 0;
    next_ = 0;
    last_ = 0;
    rows_ = aligned_rows(P.block);
    run_block_ = kNoRun;
    run_anchors_ = nullptr;
  }

  std::size_t frequencies() const { return nf_; }

  // For positions p[0], p[stride], ..., p[(m-1) stride] in turn: emit(i,
  // anchors, row) with the position's row in its block and its block's
  // anchors (sines, then cosines), as block_of and anchors() give them. An
  // integral position in the block of the previous integral one (a text run,
  // an image row's widths, a repeated time or height) costs a few integer
  // operations: for integral q, block_of gives row floor(q) mod B and block
  // start floor(q) - row, both read from q + 1.5 * 2^52 (exact, and q is
  // integral exactly when subtracting the constant again gives q back).
  template <class Emit>
  void split(const double* p, std::size_t stride, std::size_t m, bool simd, Emit&& emit) {
    const auto mask = std::uint32_t(rows_ - 1);
    std::int32_t run = run_block_;
    const float* A = run_anchors_;
    for (std::size_t i = 0; i < m; ++i) {
      const double q = p[i * stride];
      const double shifted = q + kShift;
      const std::int32_t f = low_bits(shifted);
      const std::int32_t block = f & std::int32_t(~mask);
      std::uint32_t row;
      if (shifted - kShift == q && block == run) {
        row = std::uint32_t(f) & mask;
      } else {
        std::size_t j;
        const double base = block_of(q, rows_, &j);
        A = anchors(base, simd);
        run = shifted - kShift == q ? block : kNoRun;
        row = std::uint32_t(j);
      }
      emit(i, A, row);
    }
    run_block_ = run;
    run_anchors_ = A;
  }

  // The anchors (sines, then cosines) of the block at `base`.
  const float* anchors(double base, bool simd) {
    if (used_ > 0 && base_[last_] == base) return anchors_.data() + last_ * 2 * nf_;
    return find(base, simd);
  }

 private:
  static constexpr double kShift = 0x1.8p52;

  // The low 32 bits of a double's representation: for q + 1.5 * 2^52 with
  // integral |q| < 2^24, q in two's complement.
  static std::int32_t low_bits(double shifted) {
    std::uint64_t bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    return std::int32_t(std::uint32_t(bits));
  }

  // The block's anchors from a recent slot, or computed into the oldest one.
  __attribute__((noinline)) const float* find(double base, bool simd) {
    const std::size_t recent = std::min(used_, kRecent);
    for (std::size_t r = 1; r <= recent; ++r) {
      const std::size_t s = (next_ + kSlots - r) % kSlots;
      if (base_[s] == base) {
        last_ = s;
        return anchors_.data() + s * 2 * nf_;
      }
    }
    const std::size_t s = next_;
    next_ = (next_ + 1) % kSlots;
    if (used_ < kSlots) ++used_;
    base_[s] = base;
    last_ = s;
    float* sf = anchors_.data() + s * 2 * nf_;
    float* cf = sf + nf_;
#if SINPE_SIMD
    if (simd) {
      trig::sincos_scaled(base, P_->freq.data(), nf_, sd_.data(), cd_.data(), sf, cf, P_->amplitude);
      return sf;
    }
#endif
    (void)simd;
    trig::sincos_scaled_scalar(base, P_->freq.data(), nf_, sd_.data(), cd_.data(), sf, cf, P_->amplitude);
    return sf;
  }

  const PlanData* P_ = nullptr;
  std::size_t nf_ = 0;
  std::array<double, kSlots> base_{};
  std::size_t used_ = 0, next_ = 0, last_ = 0;
  std::int64_t rows_ = 1;
  std::int32_t run_block_ = kNoRun;
  const float* run_anchors_ = nullptr;
  std::vector<float> anchors_;
  std::vector<double> sd_, cd_;
};

// n floats from one row to the next (no overlap), a batch at a time.
inline void copy_row(const float* from, float* to, std::size_t n, bool simd) {
  std::size_t k = 0;
  if (simd) {
    constexpr std::size_t W = simd::lanes<simd::FloatBatch>;
    for (; k + W <= n; k += W) simd::store<false>(to + k, simd::load<simd::FloatBatch>(from + k));
  }
  for (; k < n; ++k) to[k] = from[k];
}

// Cache rows (row stride `half`, sines and cosines apart) of tokens [0, n),
// `axes` positions each (token-major); blocks[a] belongs to targets[a] and is
// reset by the caller (it may span several calls over one request). A tile
// of tokens at a time (its rows stay in L1), axis by axis: each token's
// position split into block and row (AxisBlocks::split), then the axis's
// pairs of its row made; a token whose block and row on an axis are the
// previous token's (an image's time, a row's height) copies that token's
// values instead.
inline void axes_cache_rows(const AxisTarget* targets, AxisBlocks* blocks, std::size_t axes,
                            const double* positions, std::size_t n, std::size_t half, float* cos, float* sin,
                            bool simd) {
  constexpr std::size_t kTile = 32;
  thread_local std::vector<float> tmp;
  thread_local std::vector<const float*> last_anchors;
  thread_local std::vector<std::uint32_t> last_row;
  last_anchors.assign(axes, nullptr);  // no token before this call's first
  last_row.assign(axes, 0);
  for (std::size_t a = 0; a < axes; ++a)
    if (!targets[a].consecutive && tmp.size() < 2 * targets[a].count) tmp.resize(2 * targets[a].count);
  for (std::size_t i0 = 0; i0 < n; i0 += kTile) {
    const std::size_t m = std::min(kTile, n - i0);
    for (std::size_t a = 0; a < axes; ++a) {
      const AxisTarget& t = targets[a];
      if (t.count == 0) continue;
      const std::size_t nf = blocks[a].frequencies(), count = t.count;
      const float* rot_cos = t.plan->rot_cos.data();
      const float* rot_sin = t.plan->rot_sin.data();
      const float* prev_anchors = last_anchors[a];
      std::uint32_t prev_row = last_row[a];
      float* s_tile = sin + i0 * half + (t.consecutive ? t.first : 0);
      float* c_tile = cos + i0 * half + (t.consecutive ? t.first : 0);
      blocks[a].split(positions + i0 * axes + a, axes, m, simd,
                      [&](std::size_t i, const float* A, std::uint32_t j) {
                        float* so = s_tile + i * half;
                        float* co = c_tile + i * half;
                        if (t.consecutive) {
                          if (A == prev_anchors && j == prev_row) {
                            copy_row(so - half, so, count, simd);
                            copy_row(co - half, co, count, simd);
                            return;
                          }
                          prev_anchors = A;
                          prev_row = j;
                        } else {
                          so = tmp.data();
                          co = tmp.data() + count;
                        }
                        // The axis's pairs of one row, as the one-axis kernel writes them (sin = a c_j + b
                        // s_j, cos = b c_j - a s_j).
                        const float* C = rot_cos + std::size_t(j) * nf;
                        const float* S = rot_sin + std::size_t(j) * nf;
                        std::size_t k = 0;
                        if (simd)
                          k = emit_pairs<simd::FloatBatch, false, false>(k, count, A, A + nf, C, S, so, co);
                        emit_pairs<float, false, false>(k, count, A, A + nf, C, S, so, co);
                        if (!t.consecutive)
                          for (std::size_t q = 0; q < count; ++q) {
                            s_tile[i * half + t.pairs[q]] = so[q];
                            c_tile[i * half + t.pairs[q]] = co[q];
                          }
                      });
      last_anchors[a] = prev_anchors;
      last_row[a] = prev_row;
    }
  }
}

}  // namespace sinpe::detail
