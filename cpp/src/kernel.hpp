// The row kernel, shared by the sinusoidal entry points (kernel.cpp) and RoPE
// caches (rope.cpp).
//
// Rows of a sinusoidal table are rotations of each other:
//   sin((p0+j)w) = sin(p0 w) cos(j w) + cos(p0 w) sin(j w)
//   cos((p0+j)w) = cos(p0 w) cos(j w) - sin(p0 w) sin(j w)
// Rows are made in blocks of B (<= 64). For each block the anchor
// (sin, cos)(p0 w) is known in float64 (directly, by trig.hpp's sincos of the
// angle p0*w rounded as the float64 formula rounds it, or by stepping the
// previous block's anchor in float64, re-anchoring directly every kReanchor
// blocks), then multiplied by the plan's amplitude and rounded once to
// float32; cos/sin(j w) for j < B come from the plan's float32 table. So every
// output value is one float32 expression a*c + b*s of four correctly rounded
// inputs with a^2+b^2 = amplitude^2 and c^2+s^2 = 1: its error is at most
// 4 * 2^-24 * amplitude = 2.38e-7 * amplitude (three roundings of the inputs'
// products plus the final one), inside the 2.5e-7 contract, with nothing
// accumulating across rows.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "half.hpp"
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
  std::size_t nf = 0;

  static Work& get(std::size_t nf) {
    thread_local Work w;
    if (w.sd.size() < nf) {
      w.sd.resize(nf);
      w.cd.resize(nf);
      w.sf.resize(nf);
      w.cf.resize(nf);
    }
    w.nf = nf;
    return w;
  }
};

// Where a block's rows go: row j's sine of frequency k at sin[j*stride + k]
// (split layouts) or sin[j*stride + 2k] (interleaved, cosine next to it);
// cosines likewise; the odd column (OddColumn::sine or zero) at odd[j*stride].
struct Rows {
  float* row;  // row 0's first column (fairseq's padding row is zeroed from it), or nullptr
  float* sin;
  float* cos;
  float* odd;
  std::size_t stride;

  // The same destination n rows further on.
  Rows at_row(std::size_t n) const {
    const std::size_t off = n * stride;
    return {row ? row + off : nullptr, sin + off, cos + off, odd ? odd + off : nullptr, stride};
  }
};

// The layout's Rows for rows starting at row0.
inline Rows rows_at(const PlanData& P, float* row0) {
  const std::size_t h = std::size_t(P.pairs);
  float* odd = P.odd == OddColumn::none ? nullptr : row0 + 2 * h;
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

// Pairs [k, h) of one row, W lanes at a time while W fit; returns where it stopped.
template <class V, bool Add, bool Interleaved>
inline std::size_t emit_pairs(std::size_t k, std::size_t h, const float* a, const float* b, const float* C,
                              const float* S, float* sin_out, float* cos_out) {
  constexpr std::size_t W = simd::lanes<V>;
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
  if (count == 0) return;
  const int B = P.block;
  direct_anchors(P, start, w, simd);
  std::size_t done = 0;
  int blocks_since_anchor = 0;
  for (;;) {
    const int nrows = int(std::min<std::size_t>(std::size_t(B), count - done));
    round_anchors(P, w);
    const Rows dst = target(done, nrows);
    emit<Add>(P, w, nrows, dst, simd, pairs);
    if (P.has_padding && !Add && dst.row) {
      // fairseq: the padding position's row is all zeros.
      const double r = P.padding_idx - (start + double(done));
      if (r >= 0 && r < nrows && r == std::floor(r))
        std::fill_n(dst.row + std::size_t(r) * dst.stride, std::size_t(P.d_model), 0.f);
    }
    sink(done, nrows);
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

// ---- half-precision output --------------------------------------------------
// Each value is its float64 value T (a direct anchor: trig.hpp's sincos of
// the angle as the float64 formula rounds it, times the amplitude) rounded
// once. Computing T costs a sincos per value, so the block kernel's float32
// value v decides instead wherever it can: |v - T| <= E (half_margin), and
// HalfTest (half.hpp) tells, many lanes at a time, whether every value within
// E of v rounds to the same pattern. Only the values it cannot decide (within
// E of a rounding boundary, near zero, beyond the format's range) get their
// own float64 sincos; over a RoPE cache that is a few in a thousand.

// E for the values of positions |p| <= pmax. The proof, with u = 2^-24 (float32
// rounding), u' = 2^-53 (float64), A the amplitude, w the frequency, theta0 the
// block's anchor angle and j the row in the block:
// 1. v = fl(fl(a C) + fl(b S)) with a, b the anchors times A and C, S the
//    rotation table's cos/sin(j w), each rounded once to float32. The three
//    float32 roundings of the expression err by at most (2u + u^2)(|aC| + |bS|),
//    and |aC| + |bS| <= sqrt(a^2 + b^2) sqrt(C^2 + S^2) <= A (1 + u)^2 (1 + 1e-13)
//    (Cauchy-Schwarz): about 2u A.
// 2. The inputs' own float32 roundings (u relative each) move a C + b S by at
//    most 2u A more, and their float64 errors (anchors: < 1e-14 after 15
//    float64 steps; table: < 3e-14 after 64 float64 recurrence steps) by
//    < 1e-13 A: |a C + b S - A sin(theta0 + j w)| <= 2u A + 1e-13 A.
// 3. The angle: T's angle is fl((p0 + j) w), the kernel's theta0 + j w with
//    theta0 = fl(pa w) + (p0 - pa) w for the last direct anchor pa (steps
//    by 64 w are exact multiples; cos/sin(64 w) carry their 1-ulp error in 2).
//    The two float64 products differ from the exact ones by at most
//    u' |p w| each: A |sin(.) - sin(.)| <= 2 u' A pmax wmax.
// 4. T itself: trig.hpp's sincos is within 4u' of sin/cos of its angle, and
//    the product by A rounds once more: < 6u' A.
// Sum: 4u A + 2u' A pmax wmax + (1e-13 + 6u' + O(u^2)) A. The margin below
// takes 4u (1 + 2^-18) (2^-40 A > 1e-13 A covers the rest), doubles the angle
// term, and adds 2^-146 for float32 subnormal anchors and products (absolute
// error up to 2^-150 each) when A is tiny.
inline double half_margin(const PlanData& P, double pmax) {
  double wmax = 0;
  for (double f : P.freq) wmax = std::max(wmax, std::fabs(f));
  return P.amplitude * (std::ldexp(1.0, -22) * (1 + std::ldexp(1.0, -18)) + std::ldexp(pmax * wmax, -51)) +
         std::ldexp(1.0, -146);
}

// What column c of a row holds: pair k's sine or cosine, or a zero.
struct HalfColumn {
  std::size_t k;
  enum class Kind : std::uint8_t { sine, cosine, zero } kind;
};

inline std::vector<HalfColumn> half_columns(const PlanData& P) {
  const std::size_t h = std::size_t(P.pairs);
  std::vector<HalfColumn> cols(std::size_t(P.d_model));
  using K = HalfColumn::Kind;
  for (std::size_t k = 0; k < h; ++k) {
    switch (P.layout) {
      case Layout::interleaved:
        cols[2 * k] = {k, K::sine};
        cols[2 * k + 1] = {k, K::cosine};
        break;
      case Layout::cos_first:
        cols[k] = {k, K::cosine};
        cols[h + k] = {k, K::sine};
        break;
      default: cols[k] = {k, K::sine}; cols[h + k] = {k, K::cosine};
    }
  }
  if (P.odd != OddColumn::none) cols[2 * h] = {h, P.odd == OddColumn::sine ? K::sine : K::zero};
  return cols;
}

// Rounds the block kernel's float32 rows to Test's format (Float16Test or
// BFloat16Test), deciding what HalfTest can and computing the rest exactly.
template <class Test>
struct HalfRows {
  const PlanData& P;
  Test test;
  std::vector<HalfColumn> cols;
  bool simd;

  HalfRows(const PlanData& plan, double pmax, bool use_simd)
      : P(plan), test(half_margin(plan, pmax)), cols(half_columns(plan)), simd(use_simd) {}

  // The exact path: T rounded once.
  std::uint16_t exact(HalfColumn col, double p, bool padding) const {
    if (col.kind == HalfColumn::Kind::zero || padding) return Test::round(0.0);
    double sd, cd;
    trig::sincos_scaled_scalar(p, P.freq.data() + col.k, 1, &sd, &cd);
    return Test::round((col.kind == HalfColumn::Kind::sine ? sd : cd) * P.amplitude);
  }

  // Columns [c0, c1) of the row at position p, whose float32 values are row[c],
  // into out[c - c0].
  void convert(const float* row, double p, std::size_t c0, std::size_t c1, std::uint16_t* out) const {
    const bool padding = P.has_padding && p == P.padding_idx;
    to_half(test, row + c0, c1 - c0, out, simd,
            [&](std::size_t i) { return exact(cols[c0 + i], p, padding); });
  }
};

// Rows start ... start+count-1 (a range: the block kernel's rows, stepped
// anchors and all): sink(i, row, p, half) for each, with row its float32
// values and half the HalfRows that converts them.
template <class Test, class Sink>
void half_range(const PlanData& P, double start, std::size_t count, Work& w, bool simd, Sink sink) {
  if (count == 0) return;
  const double pmax = std::max(std::fabs(start), std::fabs(start + double(count - 1)));
  const HalfRows<Test> half(P, pmax, simd);
  const std::size_t d = std::size_t(P.d_model);
  thread_local std::vector<float> block;
  block.resize(std::size_t(P.block) * d);
  run<false>(
      P, start, count, w, simd, [&](std::size_t, int) { return rows_at(P, block.data()); },
      [&](std::size_t done, int nrows) {
        for (int j = 0; j < nrows; ++j) {
          const std::size_t i = done + std::size_t(j);
          sink(i, block.data() + std::size_t(j) * d, start + double(i), half);
        }
      });
}

template <std::uint16_t (*Round)(double) noexcept>
struct TestOf;
template <>
struct TestOf<round_float16> {
  using type = Float16Test;
};
template <>
struct TestOf<round_bfloat16> {
  using type = BFloat16Test;
};

// Rows at positions[i], i < n, as Round's format: store(i, c, bits) for every
// column c. Works in chunks of the block kernel's float32 rows.
template <std::uint16_t (*Round)(double) noexcept, class Store>
void half_rows(const PlanData& P, const double* positions, std::size_t n, Work& w, bool simd, Store store) {
  using Test = typename TestOf<Round>::type;
  const std::size_t d = std::size_t(P.d_model);
  constexpr std::size_t kChunk = 64;
  thread_local std::vector<float> scratch;
  thread_local std::vector<std::uint16_t> bits;
  scratch.resize(kChunk * d);
  bits.resize(d);
  for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
    const std::size_t m = std::min(kChunk, n - i0);
    double pmax = 0;
    for (std::size_t i = 0; i < m; ++i) pmax = std::max(pmax, std::fabs(positions[i0 + i]));
    const HalfRows<Test> half(P, pmax, simd);
    positions_into(P, positions + i0, m, rows_at(P, scratch.data()), w, simd);
    for (std::size_t i = 0; i < m; ++i) {
      half.convert(scratch.data() + i * d, positions[i0 + i], 0, d, bits.data());
      for (std::size_t c = 0; c < d; ++c) store(i0 + i, c, bits[c]);
    }
  }
}

}  // namespace sinpe::detail
