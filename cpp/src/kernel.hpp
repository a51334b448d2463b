// The row kernel, shared by the sinusoidal entry points (kernel.cpp) and RoPE
// caches (rope_cache.cpp, rope_rotate.cpp).
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
#include <cstring>
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

// ---- half-precision output --------------------------------------------------
// Each value is its float64 value T (a direct anchor: trig.hpp's sincos of
// the angle as the float64 formula rounds it, times the amplitude) rounded
// once. Computing T costs a sincos per value, so the block kernel's float32
// value v decides instead wherever it can: |v - T| <= E (half_margin), and
// HalfTest (half.hpp) tells, many lanes at a time, whether every value within
// E of v rounds to the same pattern. Only the values it cannot decide (within
// E of a rounding boundary, near zero, beyond the format's range) go further:
// in ranges of rows (half_range, below) to a float64 recomputation from the
// block's anchors and then, for the very few still undecided, a sincos; at
// arbitrary positions (half_rows) straight to a sincos. Over a RoPE cache the
// undecided are a few in a thousand (float16; bfloat16 about ten times fewer).

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

// ---- half-precision rows of a range, fused into the block kernel ----------
// For a range of positions the rows are made block by block as above, and
// each float32 value v is decided by HalfTest while it is still in registers;
// only the patterns are stored. A value HalfTest leaves undecided is first
// recomputed in float64 from the same block's float64 anchors and a float64
// rotation table (a few flops, no sincos), which decides it unless its T lies
// within exact_margin of a rounding boundary; only those (exact zeros, true
// near-ties) get their own float64 sincos.

// The float64 rotation table: cos/sin(j w_k) for j < rows, laid out [j][k]
// with each cos next to its sin (one address for both), by the same float64 recurrence as the plan's float32
// table (plan.cpp) before its rounding: error < 3e-14 after 64 steps.
struct Rot64 {
  std::vector<double> cs;    // cos(j w_k) at 2 (j nf + k), sin(j w_k) after it
  std::vector<double> freq;  // what the table was built for: the last call's frequencies and rows
  int rows = -1;
};

// The table depends on the frequencies and the row count only, so a call with
// the same ones as the thread's previous call finds it built.
inline const Rot64& rot64(const PlanData& P, int rows) {
  thread_local Rot64 t;
  const std::size_t nf = P.freq.size();
  if (t.rows == rows && t.freq.size() == nf &&
      std::memcmp(t.freq.data(), P.freq.data(), nf * sizeof(double)) == 0)
    return t;
  t.rows = -1;
  t.freq = P.freq;
  t.cs.resize(2 * std::size_t(rows) * nf);
  // Row by row (row j from row j - 1 and row 1), each value the same float64
  // expression as plan.cpp's column loop: writing row-major is several times
  // faster than walking the table's columns.
  for (std::size_t k = 0; k < nf; ++k) {
    t.cs[2 * k] = 1.0;
    t.cs[2 * k + 1] = 0.0;
  }
  if (rows > 1) {
    for (std::size_t k = 0; k < nf; ++k) {
      t.cs[2 * (nf + k)] = std::cos(P.freq[k]);
      t.cs[2 * (nf + k) + 1] = std::sin(P.freq[k]);
    }
  }
  for (std::size_t j = 2; j < std::size_t(rows); ++j) {
    const double* prev = t.cs.data() + 2 * (j - 1) * nf;
    const double* one = t.cs.data() + 2 * nf;
    double* next = t.cs.data() + 2 * j * nf;
    for (std::size_t k = 0; k < nf; ++k) {
      const double c = prev[2 * k], s = prev[2 * k + 1], c1 = one[2 * k], s1 = one[2 * k + 1];
      next[2 * k] = c * c1 - s * s1;
      next[2 * k + 1] = s * c1 + c * s1;
    }
  }
  t.rows = rows;
  return t;
}

// The margin of the float64 recomputation T' = fl(fl(a' C) +- fl(b' S)),
// a' = fl(a A), b' = fl(b A) the block's float64 anchors (sin, cos)(theta0)
// times the amplitude, C, S the float64 table's cos/sin(j w), for positions
// |p| <= pmax. With u' = 2^-53:
// 1. |a - sin theta0|, |b - cos theta0| < 1e-14 (kernel anchors, as in
//    half_margin's step 2), |C - cos(j w)|, |S - sin(j w)| < 3e-14 (Rot64), so
//    |a C + b S - sin(theta0 + j w)| <= 2 (1e-14 + 3e-14) (1 + 3e-14) < 2^-43
//    (and likewise for the cosine).
// 2. The float64 roundings: the anchors' products by A, the two products and
//    the sum, each u' relative, on terms with |a C| + |b S| <= 1 + 1e-13:
//    < 5u' A.
// 3. The angle, as in half_margin's step 3: < 2u' A pmax wmax.
// 4. T itself, as in half_margin's step 4: < 6u' A.
// Sum: < A (2^-43 + 11u' + 2u' pmax wmax) < A (2^-42 + 2^-52 pmax wmax).
// The margin is twice that, so that computing T' - E and T' + E in float64
// (each rounded, moving by at most u' (|T'| + E) < 2^-52 A, far below the
// added half) still brackets [T' - bound, T' + bound]; and a bracket end that
// is exactly a tie is strictly beyond the bound, so every T inside is not that
// tie. 2^-1000 covers float64 subnormal products when A is tiny.
inline double exact_margin(const PlanData& P, double pmax) {
  double wmax = 0;
  for (double f : P.freq) wmax = std::max(wmax, std::fabs(f));
  return P.amplitude * (std::ldexp(1.0, -41) + std::ldexp(pmax * wmax, -51)) + std::ldexp(1.0, -1000);
}

// The block's float64 anchors times the amplitude (a', b' above).
inline void scale_anchors(const PlanData& P, Work& w) {
  const double amp = P.amplitude;
  for (std::size_t k = 0; k < w.nf; ++k) {
    w.ab[2 * k] = w.sd[k] * amp;
    w.ab[2 * k + 1] = w.cd[k] * amp;
  }
}

// The pattern of an undecided value: row j of the current block (position
// start + done + j), pair k, its sine or cosine. round_half is monotonic, so
// when T' - E and T' + E round alike, so does every T between, T included.
template <class Test>
struct HalfFix {
  const PlanData& P;
  const Work& w;
  const Rot64& rot;
  const typename Test::Near& near;  // HalfTestNear for E
  double E, start;
  std::size_t done;

  // T' of row j, pair k (the scalar route's value, computed alike).
  double value(int j, std::size_t k, bool cosine) const {
    const std::size_t at = 2 * (std::size_t(j) * P.freq.size() + k);
    const double C = rot.cs[at], S = rot.cs[at + 1], a = w.ab[2 * k], b = w.ab[2 * k + 1];
    return cosine ? b * C - a * S : a * C + b * S;
  }

  // The pattern, decided by near where it can (inline: most are), else by decide.
  std::uint16_t operator()(int j, std::size_t k, bool cosine) const {
    const double t = value(j, k, cosine);
    bool decided;
    const std::uint16_t p = near.pattern(t, &decided);
    return decided ? p : decide(t, j, k, cosine);
  }

  // The pattern of T' = t that near left undecided.
  std::uint16_t decide(double t, int j, std::size_t k, bool cosine) const {
    // Near zero, subnormal, beyond the range: both ends of T' -+ E rounded.
    const std::uint16_t lo = Test::round(t - E), hi = Test::round(t + E);
    if (lo == hi) return lo;
    double sd, cd;
    trig::sincos_scaled_scalar(start + double(done + std::size_t(j)), P.freq.data() + k, 1, &sd, &cd);
    return Test::round((cosine ? cd : sd) * P.amplitude);
  }
};

// A step of the vector loop with undecided lanes: its first pair and which
// lanes were decided (bit i: the sine, or the cosine, of the step's pair i).
struct Pending {
  std::size_t k;
  std::uint64_t sin_ok, cos_ok;
};

#if SINPE_SIMD
// Pairs [0, h) of row j as patterns, a vector at a time while one fits;
// returns where it stopped. Interleaved: sine then cosine per pair at 2k
// (a vector of sines and one of cosines a step); split: sines at
// sin_out[k], cosines at cos_out[k], two vectors of each a step.
// Undecided lanes are listed in pending (room for one entry per step) and
// fixed after the loop, which so holds no call (V8 then keeps its vectors in
// registers: fixing them in the loop cost as much as all the rest).
template <class Test, bool ClampHi, bool Interleaved, class Fix>
inline std::size_t half_pairs_vectors(const Test& test, std::size_t h, const float* a, const float* b,
                                      const float* C, const float* S, std::uint16_t* sin_out,
                                      std::uint16_t* cos_out, int j, const Fix& fix, Pending* pending) {
  std::size_t n = 0;
  using V = simd::FloatBatch;
  using bu = xsimd::batch<std::uint32_t>;
  using Lanes = HalfLanes<Test, ClampHi>;
  constexpr std::size_t W = simd::lanes<V>;
  const Lanes L(test);  // here, not passed in: its vectors stay out of memory
  std::size_t k = 0;
  if constexpr (Interleaved) {
    for (; k + W <= h; k += W) {
      const V va = simd::load<V>(a + k), vb = simd::load<V>(b + k);
      const V vc = simd::load<V>(C + k), vs = simd::load<V>(S + k);
      const V sin_v = va * vc + vb * vs;
      const V cos_v = vb * vc - va * vs;
      bu ps, pc;
      const auto oks = L(sin_v, ps);
      const auto okc = L.template operator()<true>(cos_v, pc);
      L.store_pairs(sin_out + 2 * k, sin_v, cos_v, ps, pc);
      if (!xsimd::all(oks & okc)) pending[n++] = {k, oks.mask(), okc.mask()};
    }
  } else {
    for (; k + 2 * W <= h; k += 2 * W) {
      V sv[2], cv[2];
      for (std::size_t q = 0; q < 2; ++q) {
        const std::size_t kq = k + q * W;
        const V va = simd::load<V>(a + kq), vb = simd::load<V>(b + kq);
        const V vc = simd::load<V>(C + kq), vs = simd::load<V>(S + kq);
        sv[q] = va * vc + vb * vs;
        cv[q] = vb * vc - va * vs;
      }
      bu ps0, ps1, pc0, pc1;
      const auto oks0 = L(sv[0], ps0), oks1 = L(sv[1], ps1);
      const auto okc0 = L(cv[0], pc0), okc1 = L(cv[1], pc1);
      L.store(sin_out + k, sv[0], sv[1], ps0, ps1);
      L.store(cos_out + k, cv[0], cv[1], pc0, pc1);
      if (!xsimd::all(oks0 & oks1 & okc0 & okc1))
        pending[n++] = {k, oks0.mask() | (oks1.mask() << W), okc0.mask() | (okc1.mask() << W)};
    }
  }
  // Bit i of a pending step's masks: its pair k + i.
  constexpr std::size_t pairs = Interleaved ? W : 2 * W;
  constexpr std::uint64_t kPairs = pairs == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << pairs) - 1;
  constexpr std::size_t step = Interleaved ? 2 : 1;
  std::uint16_t* const cos_at = Interleaved ? sin_out + 1 : cos_out;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k0 = pending[i].k;
    for (std::uint64_t u = ~pending[i].sin_ok & kPairs; u != 0; u &= u - 1) {
      const std::size_t kl = k0 + std::size_t(__builtin_ctzll(u));
      sin_out[step * kl] = fix(j, kl, false);
    }
    for (std::uint64_t u = ~pending[i].cos_ok & kPairs; u != 0; u &= u - 1) {
      const std::size_t kl = k0 + std::size_t(__builtin_ctzll(u));
      cos_at[step * kl] = fix(j, kl, true);
    }
  }
  return k;
}
#endif

// The scalar route for pairs [k, h) of one row: T' in float64 (HalfFix::value
// computed alike: a few flops, as cheap as float32 without vectors), decided
// by HalfTestNear, so with no float32 value and no second test. Every
// pattern is stored as if decided, up to the first pair with an undecided
// value, whose index it returns (h if none), for the caller to fix; so the
// loop holds no call and few live values (V8 then keeps them all in
// registers). Pointers step by a pair, so that each load and store is one
// address plus a constant offset.
template <class Near, bool Interleaved, bool CheckHi>
inline std::size_t half_pairs_scalar(std::size_t k, std::size_t h, const double* ab, const double* cs,
                                     std::uint16_t* sin_out, std::uint16_t* cos_out, std::uint32_t lo2,
                                     std::uint32_t span2) {
  // One pointer per array and the end, nothing else live across iterations;
  // two pairs an iteration (their loop overhead shared), then the last one.
  const double* q = ab + 2 * k;
  const double* const end = ab + 2 * h;
  const double* r = cs + 2 * k;
  std::uint16_t* os = sin_out + (Interleaved ? 2 : 1) * k;
  std::uint16_t* oc = cos_out + k;  // split layouts only; interleaved: os[1]
  // Pair i of this iteration: its patterns stored, and whether one of its values is undecided.
  const auto pair = [&](int i) {
    const double a = q[2 * i], b = q[2 * i + 1], C = r[2 * i], S = r[2 * i + 1];
    const double sin_t = a * C + b * S;
    const double cos_t = b * C - a * S;
    const std::uint32_t us = Near::bits(sin_t), uc = Near::bits(cos_t);
    const std::uint32_t ss = Near::rounded(us), sc = Near::rounded(uc);
    if constexpr (Interleaved) {
      os[2 * i] = Near::pattern_from(ss);  // the cosine right after the sine (rows_at)
      os[2 * i + 1] = Near::pattern_from(sc);
    } else {
      os[i] = Near::pattern_from(ss);
      oc[i] = Near::pattern_from(sc);
    }
    return Near::template outside<CheckHi>(us, lo2, span2) ||
           Near::template outside<CheckHi>(uc, lo2, span2) || Near::tie(ss) || Near::tie(sc);
  };
  constexpr std::size_t step = Interleaved ? 2 : 1;
  for (; end - q >= 8; q += 8, r += 8, os += 4 * step, oc += 4) {
    // The first undecided pair of the four (those after it are made again after it is fixed).
    if (pair(0)) return std::size_t(q - ab) / 2;
    if (pair(1)) return std::size_t(q - ab) / 2 + 1;
    if (pair(2)) return std::size_t(q - ab) / 2 + 2;
    if (pair(3)) return std::size_t(q - ab) / 2 + 3;
  }
  for (; q != end; q += 2, r += 2, os += step, oc += 1)
    if (pair(0)) return std::size_t(q - ab) / 2;
  return h;
}

// Rows j < nrows of the current block as Test's patterns: vectors of the
// float32 kernel's values where the flavour has them, and the rest (all of
// the baseline flavour) by the scalar route (half_pairs_scalar).
template <class Test, bool Interleaved, class Fix>
inline void emit_half_block(const PlanData& P, const Work& w, int nrows, const RowsOf<std::uint16_t>& dst,
                            bool simd, const Test& test, const typename Test::Near& near, const Fix& fix,
                            Pending* pending) {
  using Near = typename Test::Near;
  const std::size_t nf = P.freq.size();
  const std::size_t h = std::size_t(P.pairs);
  const double* ab = w.ab.data();
#if !SINPE_SIMD
  (void)simd;
  (void)test;
  (void)pending;
#endif
  constexpr std::size_t step = Interleaved ? 2 : 1;
  for (int j = 0; j < nrows; ++j) {
    const std::size_t at = std::size_t(j) * dst.stride;
    std::uint16_t* sin_out = dst.sin + at;
    std::uint16_t* cos_out = dst.cos + at;
    std::size_t k = 0;
#if SINPE_SIMD
    if (simd) {
      const float* Cf = P.rot_cos.data() + std::size_t(j) * nf;
      const float* Sf = P.rot_sin.data() + std::size_t(j) * nf;
      k = test.clamp_hi ? half_pairs_vectors<Test, true, Interleaved>(test, h, w.sf.data(), w.cf.data(), Cf,
                                                                      Sf, sin_out, cos_out, j, fix, pending)
                        : half_pairs_vectors<Test, false, Interleaved>(test, h, w.sf.data(), w.cf.data(), Cf,
                                                                       Sf, sin_out, cos_out, j, fix, pending);
    }
#endif
    const double* cs = fix.rot.cs.data() + 2 * std::size_t(j) * nf;
    const std::uint32_t lo2 = 2 * near.lo_bits, span2 = 2 * near.span;
    for (;;) {
      k = near.check_hi
              ? half_pairs_scalar<Near, Interleaved, true>(k, h, ab, cs, sin_out, cos_out, lo2, span2)
              : half_pairs_scalar<Near, Interleaved, false>(k, h, ab, cs, sin_out, cos_out, lo2, span2);
      if (k >= h) break;
      const double sin_t = fix.value(j, k, false), cos_t = fix.value(j, k, true);
      bool ds, dc;
      const std::uint16_t ps = near.pattern(sin_t, &ds), pc = near.pattern(cos_t, &dc);
      sin_out[step * k] = ds ? ps : fix.decide(sin_t, j, k, false);
      cos_out[step * k] = dc ? pc : fix.decide(cos_t, j, k, true);
      ++k;
    }
    if (P.odd == OddColumn::sine) {
      const double t = fix.value(j, h, false);
      bool d;
      const std::uint16_t p = near.pattern(t, &d);
      dst.odd[at] = d ? p : fix.decide(t, j, h, false);
    } else if (P.odd == OddColumn::zero) {
      dst.odd[at] = Test::round(0.0);
    }
  }
}

// Rows start ... start+count-1 as Test's patterns (Float16Test or
// BFloat16Test) into dst, each value its T rounded once.
template <class Test>
void half_range(const PlanData& P, double start, std::size_t count, const RowsOf<std::uint16_t>& dst, Work& w,
                bool simd) {
  if (count == 0) return;
  const double pmax = std::max(std::fabs(start), std::fabs(start + double(count - 1)));
  // |v| <= A (1 + 2^-21) (half_margin's step 1 and 2).
  const Test test(half_margin(P, pmax), P.amplitude * (1 + std::ldexp(1.0, -20)));
  const Rot64& rot = rot64(P, int(std::min<std::size_t>(std::size_t(P.block), count)));
  const double E = exact_margin(P, pmax);
  // |T'| <= A (1 + 2^-40): exact_margin's steps 1 and 2.
  const typename Test::Near near(E, P.amplitude * (1 + std::ldexp(1.0, -40)));
  thread_local std::vector<Pending> pending;
  pending.resize(std::size_t(P.pairs) + 1);
  run_blocks(P, start, count, w, simd, [&](std::size_t done, int nrows) {
    scale_anchors(P, w);
    const RowsOf<std::uint16_t> out = dst.at_row(done);
    const HalfFix<Test> fix{P, w, rot, near, E, start, done};
    if (P.layout == Layout::interleaved)
      emit_half_block<Test, true>(P, w, nrows, out, simd, test, near, fix, pending.data());
    else emit_half_block<Test, false>(P, w, nrows, out, simd, test, near, fix, pending.data());
    if (out.row) {
      // fairseq: the padding position's row is all zeros.
      const std::ptrdiff_t r = padding_in_block(P, start + double(done), nrows);
      if (r >= 0)
        std::fill_n(out.row + std::size_t(r) * out.stride, std::size_t(P.d_model), Test::round(0.0));
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

// ---- float32 output rounded once ---------------------------------------------
// Every float32 value is its float64 value T (as for half precision: trig.hpp's
// sincos of the angle as the float64 formula rounds it, times the amplitude)
// rounded once to nearest, ties to even. The block kernel's rows are made in
// float64 instead of float32: T' = fl(fl(a' C) +- fl(b' S)) with a', b' the
// block's float64 anchors times the amplitude and C, S the plan's float64
// rotation table (rot64_cos/rot64_sin, the float32 table before its rounding),
// which is within exact_margin of T (the proof is exact_margin's, with w the
// column's own frequency in the angle term). A value is decided when T' - E
// and T' + E round to the same float32 value (rounding is monotonic, so T, in
// between, rounds to it too; exact_margin's doubling covers the two float64
// roundings of the bracket's ends); the others (a few in ten thousand: T'
// within E of a float32 midpoint) get their own float64 sincos.

// E per frequency for positions |p| <= pmax (exact_margin with w_k for wmax).
inline void exact_margins(const PlanData& P, double pmax, std::vector<double>& E) {
  E.resize(P.freq.size());
  for (std::size_t k = 0; k < P.freq.size(); ++k)
    E[k] = P.amplitude * (0x1p-41 + pmax * std::fabs(P.freq[k]) * 0x1p-51) + 0x1p-1000;
}

// T rounded once, from its own sincos: frequency k at position p.
inline float exact_value(const PlanData& P, double p, std::size_t k, bool cosine) {
  double sd, cd;
  trig::sincos_scaled_scalar(p, P.freq.data() + k, 1, &sd, &cd);
  return float((cosine ? cd : sd) * P.amplitude);
}

inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The scalar route for pairs [k, h) of one row: stores every pair's values
// rounded from T' - E, up to the first pair with an undecided value, whose
// index it returns (h if none) for the caller to fix.
template <bool Interleaved>
inline std::size_t exact_pairs_scalar(std::size_t k, std::size_t h, const double* sa, const double* ca,
                                      const double* C, const double* S, const double* E, float* sin_out,
                                      float* cos_out) {
  constexpr std::size_t step = Interleaved ? 2 : 1;
  for (; k < h; ++k) {
    const double a = sa[k], b = ca[k], c = C[k], s = S[k], e = E[k];
    const double st = a * c + b * s;
    const double ct = b * c - a * s;
    const float sl = float(st - e), sh = float(st + e), cl = float(ct - e), ch = float(ct + e);
    sin_out[step * k] = sl;
    cos_out[step * k] = cl;
    if ((float_bits(sl) ^ float_bits(sh)) | (float_bits(cl) ^ float_bits(ch))) return k;
  }
  return h;
}

#if SINPE_SIMD && defined(__wasm_simd128__)
// Pairs [0, h) of one row four at a time in f64x2 vectors; returns where it
// stopped. Lanes whose bracket ends round apart are listed in pending (bit i
// of sin_ok / cos_ok: pair k + i's sine / cosine decided) for the caller.
template <bool Interleaved>
inline std::size_t exact_pairs_vectors(std::size_t h, const double* sa, const double* ca, const double* C,
                                       const double* S, const double* E, float* sin_out, float* cos_out,
                                       Pending* pending, std::size_t* npending) {
  std::size_t n = 0, k = 0;
  for (; k + 4 <= h; k += 4) {
    v128_t lo[4], hi[4];  // demoted (2 values in the low lanes): sin pairs k, k+1; sin k+2, k+3; cos ...
    for (int q = 0; q < 2; ++q) {
      const std::size_t kq = k + 2 * std::size_t(q);
      const v128_t a = wasm_v128_load(sa + kq), b = wasm_v128_load(ca + kq);
      const v128_t c = wasm_v128_load(C + kq), s = wasm_v128_load(S + kq);
      const v128_t e = wasm_v128_load(E + kq);
      const v128_t st = wasm_f64x2_add(wasm_f64x2_mul(a, c), wasm_f64x2_mul(b, s));
      const v128_t ct = wasm_f64x2_sub(wasm_f64x2_mul(b, c), wasm_f64x2_mul(a, s));
      lo[q] = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(st, e));
      hi[q] = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(st, e));
      lo[2 + q] = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(ct, e));
      hi[2 + q] = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(ct, e));
    }
    v128_t x_lo, x_hi, y_lo, y_hi;
    if constexpr (Interleaved) {
      // x: s_k c_k s_k+1 c_k+1, y: the next two pairs.
      x_lo = wasm_i32x4_shuffle(lo[0], lo[2], 0, 4, 1, 5);
      x_hi = wasm_i32x4_shuffle(hi[0], hi[2], 0, 4, 1, 5);
      y_lo = wasm_i32x4_shuffle(lo[1], lo[3], 0, 4, 1, 5);
      y_hi = wasm_i32x4_shuffle(hi[1], hi[3], 0, 4, 1, 5);
      wasm_v128_store(sin_out + 2 * k, x_lo);
      wasm_v128_store(sin_out + 2 * k + 4, y_lo);
    } else {
      // x: the four sines, y: the four cosines.
      x_lo = wasm_i32x4_shuffle(lo[0], lo[1], 0, 1, 4, 5);
      x_hi = wasm_i32x4_shuffle(hi[0], hi[1], 0, 1, 4, 5);
      y_lo = wasm_i32x4_shuffle(lo[2], lo[3], 0, 1, 4, 5);
      y_hi = wasm_i32x4_shuffle(hi[2], hi[3], 0, 1, 4, 5);
      wasm_v128_store(sin_out + k, x_lo);
      wasm_v128_store(cos_out + k, y_lo);
    }
    const v128_t okx = wasm_i32x4_eq(x_lo, x_hi), oky = wasm_i32x4_eq(y_lo, y_hi);
    if (!wasm_i32x4_all_true(wasm_v128_and(okx, oky))) {
      const std::uint32_t mx = wasm_i32x4_bitmask(okx), my = wasm_i32x4_bitmask(oky);
      if constexpr (Interleaved) {
        // Lane 2i: pair i's sine, 2i + 1 its cosine (x: pairs 0, 1; y: 2, 3).
        const std::uint64_t so = (mx & 1) | ((mx >> 1) & 2) | ((my & 1) << 2) | (((my >> 2) & 1) << 3);
        const std::uint64_t co =
            ((mx >> 1) & 1) | ((mx >> 2) & 2) | (((my >> 1) & 1) << 2) | (((my >> 3) & 1) << 3);
        pending[n++] = {k, so, co};
      } else {
        pending[n++] = {k, mx, my};
      }
    }
  }
  *npending = n;
  return k;
}
#endif

// One row's pairs [0, h) as float32 values rounded once (the sines at
// sin_out[step k], the cosines at cos_out[step k]); exact(k, cosine) is the
// value of an undecided one.
template <bool Interleaved, class Exact>
inline void exact_row(std::size_t h, const double* sa, const double* ca, const double* C, const double* S,
                      const double* E, float* sin_out, float* cos_out, bool simd, Pending* pending,
                      const Exact& exact) {
  constexpr std::size_t step = Interleaved ? 2 : 1;
  std::size_t k = 0;
#if SINPE_SIMD && defined(__wasm_simd128__)
  if (simd) {
    std::size_t n = 0;
    k = exact_pairs_vectors<Interleaved>(h, sa, ca, C, S, E, sin_out, cos_out, pending, &n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k0 = pending[i].k;
      for (std::uint64_t u = ~pending[i].sin_ok & 15; u != 0; u &= u - 1) {
        const std::size_t kl = k0 + std::size_t(__builtin_ctzll(u));
        sin_out[step * kl] = exact(kl, false);
      }
      for (std::uint64_t u = ~pending[i].cos_ok & 15; u != 0; u &= u - 1) {
        const std::size_t kl = k0 + std::size_t(__builtin_ctzll(u));
        cos_out[step * kl] = exact(kl, true);
      }
    }
  }
#else
  (void)simd;
  (void)pending;
#endif
  for (;;) {
    k = exact_pairs_scalar<Interleaved>(k, h, sa, ca, C, S, E, sin_out, cos_out);
    if (k >= h) break;
    // Pair k has an undecided value: both made again, each decided or exact.
    const double a = sa[k], b = ca[k], c = C[k], s = S[k], e = E[k];
    const double st = a * c + b * s;
    const double ct = b * c - a * s;
    const float sl = float(st - e), sh = float(st + e), cl = float(ct - e), ch = float(ct + e);
    sin_out[step * k] = float_bits(sl) == float_bits(sh) ? sl : exact(k, false);
    cos_out[step * k] = float_bits(cl) == float_bits(ch) ? cl : exact(k, true);
    ++k;
  }
}

// The block's float64 anchors times the amplitude, split (a', b').
inline void scale_anchors_split(const PlanData& P, Work& w) {
  const double amp = P.amplitude;
  for (std::size_t k = 0; k < w.nf; ++k) {
    w.sa[k] = w.sd[k] * amp;
    w.ca[k] = w.cd[k] * amp;
  }
}

// Rows start ... start+count-1 into dst, every value T rounded once to float32.
inline void exact_rows_into(const PlanData& P, double start, std::size_t count, const Rows& dst, Work& w,
                            bool simd) {
  if (count == 0) return;
  const double pmax = std::max(std::fabs(start), std::fabs(start + double(count - 1)));
  thread_local std::vector<double> E;
  thread_local std::vector<Pending> pending;
  exact_margins(P, pmax, E);
  pending.resize(std::size_t(P.pairs) / 4 + 1);
  const std::size_t nf = P.freq.size(), h = std::size_t(P.pairs);
  run_blocks(
      P, start, count, w, simd,
      [&](std::size_t done, int nrows) {
        scale_anchors_split(P, w);
        const Rows out = dst.at_row(done);
        for (int j = 0; j < nrows; ++j) {
          const std::size_t at = std::size_t(j) * out.stride;
          const double p = start + double(done + std::size_t(j));
          const double* C = P.rot64_cos.data() + std::size_t(j) * nf;
          const double* S = P.rot64_sin.data() + std::size_t(j) * nf;
          const auto exact = [&](std::size_t k, bool cosine) { return exact_value(P, p, k, cosine); };
          if (P.layout == Layout::interleaved)
            exact_row<true>(h, w.sa.data(), w.ca.data(), C, S, E.data(), out.sin + at, out.cos + at, simd,
                            pending.data(), exact);
          else
            exact_row<false>(h, w.sa.data(), w.ca.data(), C, S, E.data(), out.sin + at, out.cos + at, simd,
                             pending.data(), exact);
          if (P.odd == OddColumn::sine) {
            const double t = w.sa[h] * C[h] + w.ca[h] * S[h];
            const float lo = float(t - E[h]), hi = float(t + E[h]);
            out.odd[at] = float_bits(lo) == float_bits(hi) ? lo : exact(h, false);
          } else if (P.odd == OddColumn::zero) {
            out.odd[at] = 0.f;
          }
        }
        if (out.row) {
          // fairseq: the padding position's row is all zeros.
          const std::ptrdiff_t r = padding_in_block(P, start + double(done), nrows);
          if (r >= 0) std::fill_n(out.row + std::size_t(r) * out.stride, std::size_t(P.d_model), 0.f);
        }
      },
      false);
}

// Rows at any positions, every value rounded once (runs of consecutive
// positions share the block kernel, as positions_into).
inline void exact_positions_into(const PlanData& P, const double* positions, std::size_t n, const Rows& dst,
                                 Work& w, bool simd) {
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && positions[j] == positions[j - 1] + 1.0) ++j;
    exact_rows_into(P, positions[i], j - i, dst.at_row(i), w, simd);
    i = j;
  }
}

}  // namespace sinpe::detail
