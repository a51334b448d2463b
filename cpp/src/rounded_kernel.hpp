// float32 rows rounded once: every value its float64 value rounded once to
// float32, from the block walk's float64 anchors and the plan's float64
// rotation table (block_rows.hpp), decided by decide.hpp's margin, the few
// undecided by their own sincos. For rows(), encode(), the RoPE caches and
// rotation. Not the float32 kernel of add_rows and heatmap
// (float32_kernel.hpp), nor half precision (half_kernel.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "block_rows.hpp"
#include "decide.hpp"
#include "plan_data.hpp"
#include "simd.hpp"
#include "trig.hpp"

namespace sinpe::detail {

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
