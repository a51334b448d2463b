// Half-precision rows: every value its float64 value rounded once to float16
// or bfloat16 (half.hpp's rounding and HalfTest), for a range of rows (fused
// into the block walk: half_range) or rows at any positions (half_rows). The
// float32 kernel's values (float32_kernel.hpp) are the candidates; the
// margins are proved below (half_margin) and in decide.hpp (exact_margin).
// Not the float32 output: rounded_kernel.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "block_rows.hpp"
#include "decide.hpp"
#include "float32_kernel.hpp"
#include "half.hpp"
#include "plan_data.hpp"
#include "simd.hpp"
#include "trig.hpp"

namespace sinpe::detail {

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

// Rows at positions[i], i < n, as Test's patterns (Float16Test or
// BFloat16Test): store(i, c, bits) for every column c. Works in chunks of the
// block kernel's float32 rows.
template <class Test, class Store>
void half_rows(const PlanData& P, const double* positions, std::size_t n, Work& w, bool simd, Store store) {
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
