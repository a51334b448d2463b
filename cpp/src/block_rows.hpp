// The block walk every row pipeline shares: which rows a block holds, its
// float64 anchors, where its rows go, and the thread's scratch.
//
// Rows of a sinusoidal table are rotations of each other:
//   sin((p0+j)w) = sin(p0 w) cos(j w) + cos(p0 w) sin(j w)
//   cos((p0+j)w) = cos(p0 w) cos(j w) - sin(p0 w) sin(j w)
// Rows are made in blocks of B (<= 64). For each block the anchor
// (sin, cos)(p0 w) is known in float64 (directly, by trig.hpp's sincos of the
// angle p0*w rounded as the float64 formula rounds it, or by stepping the
// previous block's anchor in float64, re-anchoring directly every kReanchor
// blocks). What a block's rows are made of, and in which precision, is each
// pipeline's own: float32_kernel.hpp (float32 products, within 2.38e-7 of the
// formula), rounded_kernel.hpp (float32 rounded once), half_kernel.hpp
// (float16 / bfloat16 rounded once). Nothing here computes an output value.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "plan_data.hpp"
#include "simd.hpp"
#include "trig.hpp"

namespace sinpe::detail {

constexpr int kReanchor = 16;  // blocks between direct float64 anchors

// One thread's scratch, grown to the widest plan seen, so that a call (a
// single row, say) allocates nothing. No entry point nests two uses.
struct Work {
  std::vector<double> sd, cd;  // anchor sin/cos in float64
  std::vector<float> sf, cf;   // the same, times the amplitude, rounded once
  std::vector<double> ab;  // the same, times the amplitude, in float64, interleaved: sin at 2k, cos at 2k + 1
                           // (half-precision output)
  std::vector<double> sa, ca;  // the same, split (float32 output rounded once)
  std::size_t nf = 0;

  static Work& get(std::size_t nf) {
    thread_local Work w;
    if (w.sd.size() < nf) {
      w.sd.resize(nf);
      w.cd.resize(nf);
      w.sf.resize(nf);
      w.cf.resize(nf);
      w.ab.resize(2 * nf);
      w.sa.resize(nf);
      w.ca.resize(nf);
    }
    w.nf = nf;
    return w;
  }
};

// Where a block's rows go: row j's sine of frequency k at sin[j*stride + k]
// (split layouts) or sin[j*stride + 2k] (interleaved, cosine next to it);
// cosines likewise; the odd column (OddColumn::sine or zero) at odd[j*stride].
// T is float, or std::uint16_t for float16 / bfloat16 patterns.
template <class T>
struct RowsOf {
  T* row;  // row 0's first column (fairseq's padding row is zeroed from it), or nullptr
  T* sin;
  T* cos;
  T* odd;
  std::size_t stride;

  // The same destination n rows further on.
  RowsOf at_row(std::size_t n) const {
    const std::size_t off = n * stride;
    return {row ? row + off : nullptr, sin + off, cos + off, odd ? odd + off : nullptr, stride};
  }
};
using Rows = RowsOf<float>;

// The layout's rows for rows starting at row0.
template <class T>
inline RowsOf<T> rows_at(const PlanData& P, T* row0) {
  const std::size_t h = std::size_t(P.pairs);
  T* odd = P.odd == OddColumn::none ? nullptr : row0 + 2 * h;
  switch (P.layout) {
    case Layout::interleaved: return {row0, row0, row0 + 1, odd, std::size_t(P.d_model)};
    case Layout::cos_first: return {row0, row0 + h, row0, odd, std::size_t(P.d_model)};
    default: return {row0, row0, row0 + h, odd, std::size_t(P.d_model)};
  }
}

inline void direct_anchors(const PlanData& P, double p0, Work& w, bool simd) {
#if SINPE_SIMD
  if (simd) return trig::sincos_scaled(p0, P.freq.data(), P.freq.size(), w.sd.data(), w.cd.data());
#endif
  (void)simd;
  trig::sincos_scaled_scalar(p0, P.freq.data(), P.freq.size(), w.sd.data(), w.cd.data());
}

inline void step_anchors(const PlanData& P, Work& w) {
  const std::size_t nf = P.freq.size();
  for (std::size_t k = 0; k < nf; ++k) {
    const double s = w.sd[k], c = w.cd[k];
    w.sd[k] = s * P.step_cos[k] + c * P.step_sin[k];
    w.cd[k] = c * P.step_cos[k] - s * P.step_sin[k];
  }
}

inline void round_anchors(const PlanData& P, Work& w) {
  const double amp = P.amplitude;
  for (std::size_t k = 0; k < w.nf; ++k) {
    w.sf[k] = float(w.sd[k] * amp);
    w.cf[k] = float(w.cd[k] * amp);
  }
}

// For each block of rows start+done ... start+done+nrows-1: the anchors of
// its first row in w (float64 sd/cd, and sf/cf rounded), then block(done, nrows).
// Round: also the float32 anchors sf/cf (the float32 kernel's; the float64
// routes below read sd/cd only).
template <class Block>
void run_blocks(const PlanData& P, double start, std::size_t count, Work& w, bool simd, Block&& block,
                bool round = true) {
  if (count == 0) return;
  const int B = P.block;
  direct_anchors(P, start, w, simd);
  std::size_t done = 0;
  int blocks_since_anchor = 0;
  for (;;) {
    const int nrows = int(std::min<std::size_t>(std::size_t(B), count - done));
    if (round) round_anchors(P, w);
    block(done, nrows);
    done += std::size_t(nrows);
    if (done >= count) break;
    if (++blocks_since_anchor >= kReanchor) {
      direct_anchors(P, start + double(done), w, simd);
      blocks_since_anchor = 0;
    } else {
      step_anchors(P, w);
    }
  }
}

// The padding row's offset in a block of nrows rows from position p0, or -1.
inline std::ptrdiff_t padding_in_block(const PlanData& P, double p0, int nrows) {
  if (!P.has_padding) return -1;
  const double r = P.padding_idx - p0;
  return r >= 0 && r < nrows && r == std::floor(r) ? std::ptrdiff_t(r) : -1;
}

}  // namespace sinpe::detail
