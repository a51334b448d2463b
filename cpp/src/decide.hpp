// How the rounded-once pipelines (half_kernel.hpp, rounded_kernel.hpp) decide
// a value: the margin E within which a float64 recomputation T' of the block
// kernel's value lies of the float64 value T, and the record of a vector
// step's undecided lanes. A value is decided when T' - E and T' + E round
// alike; what is done with an undecided one is each pipeline's own. No rows
// are made here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "plan_data.hpp"

namespace sinpe::detail {

// The margin of the float64 recomputation T' = fl(fl(a' C) +- fl(b' S)),
// a' = fl(a A), b' = fl(b A) the block's float64 anchors (sin, cos)(theta0)
// times the amplitude, C, S the float64 table's cos/sin(j w), for positions
// |p| <= pmax. With u' = 2^-53:
// 1. |a - sin theta0|, |b - cos theta0| < 1e-14 (kernel anchors, as in
//    half_kernel.hpp's half_margin, step 2), |C - cos(j w)|, |S - sin(j w)| <
//    3e-14 (half_kernel.hpp's Rot64; plan.cpp's rot64 tables), so
//    |a C + b S - sin(theta0 + j w)| <= 2 (1e-14 + 3e-14) (1 + 3e-14) < 2^-43
//    (and likewise for the cosine).
// 2. The float64 roundings: the anchors' products by A, the two products and
//    the sum, each u' relative, on terms with |a C| + |b S| <= 1 + 1e-13:
//    < 5u' A.
// 3. The angle, as in half_margin's step 3 (half_kernel.hpp): < 2u' A pmax wmax.
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

// E per frequency for positions |p| <= pmax (exact_margin with w_k for wmax).
inline void exact_margins(const PlanData& P, double pmax, std::vector<double>& E) {
  E.resize(P.freq.size());
  for (std::size_t k = 0; k < P.freq.size(); ++k)
    E[k] = P.amplitude * (0x1p-41 + pmax * std::fabs(P.freq[k]) * 0x1p-51) + 0x1p-1000;
}

// A step of the vector loop with undecided lanes: its first pair and which
// lanes were decided (bit i: the sine, or the cosine, of the step's pair i).
struct Pending {
  std::size_t k;
  std::uint64_t sin_ok, cos_ok;
};

}  // namespace sinpe::detail
