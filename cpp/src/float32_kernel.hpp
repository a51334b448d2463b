// The float32 row kernel: a block's rows from its float32 anchors and the
// plan's float32 rotation table (block_rows.hpp walks the blocks), at
// xsimd's width or at one lane. Used by add_rows and heatmap, and for the
// candidates half_kernel.hpp rounds; rows() and encode() round once instead
// (rounded_kernel.hpp).
//
// Each block's float64 anchor is multiplied by the plan's amplitude and
// rounded once to float32; cos/sin(j w) for j < B come from the plan's
// float32 table. So every output value is one float32 expression a*c + b*s
// of four correctly rounded inputs with a^2+b^2 = amplitude^2 and
// c^2+s^2 = 1: its error is at most 4 * 2^-24 * amplitude = 2.38e-7 *
// amplitude (three roundings of the inputs' products plus the final one),
// inside the 2.5e-7 contract, with nothing accumulating across rows. No value
// here is rounded once: that is rounded_kernel.hpp's and half_kernel.hpp's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "block_rows.hpp"
#include "plan_data.hpp"
#include "simd.hpp"

namespace sinpe::detail {

// Pairs [k, h) of one row, W lanes at a time while W fit; returns where it stopped.
template <class V, bool Add, bool Interleaved>
inline std::size_t emit_pairs(std::size_t k, std::size_t h, const float* a, const float* b, const float* C,
                              const float* S, float* sin_out, float* cos_out) {
  constexpr std::size_t W = simd::lanes<V>;
  if constexpr (W > 1 && !Interleaved)
    for (; k + 2 * W <= h; k += 2 * W) {  // two batches a step: fewer loop tests per pair
      const V va = simd::load<V>(a + k), vb = simd::load<V>(b + k);
      const V vc = simd::load<V>(C + k), vs = simd::load<V>(S + k);
      const V va2 = simd::load<V>(a + k + W), vb2 = simd::load<V>(b + k + W);
      const V vc2 = simd::load<V>(C + k + W), vs2 = simd::load<V>(S + k + W);
      const V sin_v = va * vc + vb * vs, sin_v2 = va2 * vc2 + vb2 * vs2;
      const V cos_v = vb * vc - va * vs, cos_v2 = vb2 * vc2 - va2 * vs2;
      simd::store<Add>(sin_out + k, sin_v);
      simd::store<Add>(sin_out + k + W, sin_v2);
      simd::store<Add>(cos_out + k, cos_v);
      simd::store<Add>(cos_out + k + W, cos_v2);
    }
  for (; k + W <= h; k += W) {
    const V va = simd::load<V>(a + k), vb = simd::load<V>(b + k);
    const V vc = simd::load<V>(C + k), vs = simd::load<V>(S + k);
    // Both values before either store: the output may alias the inputs for all the compiler knows.
    const V sin_v = va * vc + vb * vs;
    const V cos_v = vb * vc - va * vs;
    if constexpr (Interleaved) {
      simd::store_interleaved<Add>(sin_out + 2 * k, sin_v, cos_v);
    } else {
      simd::store<Add>(sin_out + k, sin_v);
      simd::store<Add>(cos_out + k, cos_v);
    }
  }
  return k;
}

// The sin/cos pairs [first, end) of each row to make; the others are left
// unwritten (a heatmap's column window needs only its own).
struct Pairs {
  std::size_t first = 0, end = SIZE_MAX;
};

// Rows j < nrows of the current block, row by row (row-major writes: the
// output's power-of-two row stride would thrash L1 sets column by column).
template <bool Add, bool Interleaved>
inline void emit_block(const PlanData& P, const Work& w, int nrows, const Rows& dst, bool simd, Pairs pairs) {
  const std::size_t nf = P.freq.size();
  const std::size_t h = std::min(std::size_t(P.pairs), pairs.end);
  const float* a = w.sf.data();
  const float* b = w.cf.data();
  for (int j = 0; j < nrows; ++j) {
    const std::size_t at = std::size_t(j) * dst.stride;
    // data() + offset, not &v[i]: the tables are empty when nf == 0 (d == 1).
    const float* C = P.rot_cos.data() + std::size_t(j) * nf;
    const float* S = P.rot_sin.data() + std::size_t(j) * nf;
    std::size_t k = pairs.first;
    if (simd)
      k = emit_pairs<simd::FloatBatch, Add, Interleaved>(k, h, a, b, C, S, dst.sin + at, dst.cos + at);
    emit_pairs<float, Add, Interleaved>(k, h, a, b, C, S, dst.sin + at, dst.cos + at);
    const std::size_t o = std::size_t(P.pairs);  // the odd column's frequency
    if (P.odd == OddColumn::sine) {
      simd::store<Add>(dst.odd + at, a[o] * C[o] + b[o] * S[o]);
    } else if (P.odd == OddColumn::zero && !Add) {
      dst.odd[at] = 0.f;
    }
  }
}

template <bool Add>
inline void emit(const PlanData& P, const Work& w, int nrows, const Rows& dst, bool simd, Pairs pairs) {
  if (P.layout == Layout::interleaved) emit_block<Add, true>(P, w, nrows, dst, simd, pairs);
  else emit_block<Add, false>(P, w, nrows, dst, simd, pairs);
}

// For each block of rows start+done ... start+done+nrows-1: fills
// target(done, nrows) (Add ? += : =), then calls sink(done, nrows).
template <bool Add, class Target, class Sink>
void run(const PlanData& P, double start, std::size_t count, Work& w, bool simd, Target target, Sink sink,
         Pairs pairs = {}) {
  run_blocks(P, start, count, w, simd, [&](std::size_t done, int nrows) {
    const Rows dst = target(done, nrows);
    emit<Add>(P, w, nrows, dst, simd, pairs);
    if (!Add && dst.row) {
      // fairseq: the padding position's row is all zeros.
      const std::ptrdiff_t r = padding_in_block(P, start + double(done), nrows);
      if (r >= 0) std::fill_n(dst.row + std::size_t(r) * dst.stride, std::size_t(P.d_model), 0.f);
    }
    sink(done, nrows);
  });
}

// Rows start ... start+count-1 into `rows` (row 0 of the range at offset 0).
template <bool Add>
void rows_into(const PlanData& P, double start, std::size_t count, const Rows& dst, Work& w, bool simd) {
  if (Add && P.has_padding) {
    // Split around the padding row so it contributes nothing.
    const double r = P.padding_idx - start;
    if (r >= 0 && r < double(count) && r == std::floor(r)) {
      const std::size_t ri = std::size_t(r);
      rows_into<Add>(P, start, ri, dst, w, simd);
      rows_into<Add>(P, start + double(ri + 1), count - ri - 1, dst.at_row(ri + 1), w, simd);
      return;
    }
  }
  run<Add>(
      P, start, count, w, simd, [&](std::size_t done, int) { return dst.at_row(done); },
      [](std::size_t, int) {});
}

// Rows at any positions: runs of consecutive positions (p, p+1, ...) share the
// block kernel; any other position gets its own float64 anchor.
inline void positions_into(const PlanData& P, const double* positions, std::size_t n, const Rows& dst,
                           Work& w, bool simd) {
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && positions[j] == positions[j - 1] + 1.0) ++j;
    rows_into<false>(P, positions[i], j - i, dst.at_row(i), w, simd);
    i = j;
  }
}

}  // namespace sinpe::detail
