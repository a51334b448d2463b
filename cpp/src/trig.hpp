// sin and cos in float64 for the block anchors, fast for |x| < 2^25.
//
// xsimd's sincos falls back to a scalar Payne-Hanek reduction per lane once
// |x| > 2^19 * pi/2, which every position above ~500 000 reaches for the low
// frequencies: a single row at a random position below 2^24 cost ~4x more.
// Here the reduction is Cody-Waite with pi/2 split into 28-bit parts, so
// k * part is exact for |k| < 2^25 and the reduced argument is correct to
// ~1e-16; the polynomials are fdlibm's __kernel_sin/__kernel_cos (< 1 ulp on
// [-pi/4, pi/4]). Larger |x| take std::sin/std::cos lane by lane.
// One template serves plain double (the scalar path) and xsimd::batch<double>.
#pragma once

#include <cmath>
#include <cstddef>

#if SINPE_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace sinpe::trig {

constexpr double kFastLimit = 33554432.0;  // 2^25

inline double nearest(double x) { return std::nearbyint(x); }
inline double floor_of(double x) { return std::floor(x); }
inline double pick(bool m, double a, double b) { return m ? a : b; }
inline bool any_large(double x) { return !(std::fabs(x) < kFastLimit); }

#if SINPE_SIMD
using batch_d = xsimd::batch<double>;
inline batch_d nearest(const batch_d& x) { return xsimd::nearbyint(x); }
inline batch_d floor_of(const batch_d& x) { return xsimd::floor(x); }
inline batch_d pick(const xsimd::batch_bool<double>& m, const batch_d& a, const batch_d& b) {
  return xsimd::select(m, a, b);
}
inline bool any_large(const batch_d& x) { return !xsimd::all(xsimd::abs(x) < batch_d(kFastLimit)); }
#endif

// s = sin(x), c = cos(x) for |x| < 2^25 (callers check any_large first).
template <class V>
inline void sincos_small(const V& x, V& s, V& c) {
  // pi/2 = P1 + P2 + P3 + P4, the first three with 28 significant bits.
  const V P1(0x1.921fb54000000p+0), P2(0x1.10b4610000000p-30), P3(0x1.a626330000000p-58),
      P4(0x1.45c06e0e68948p-86);
  const V k = nearest(x * V(0x1.45f306dc9c883p-1));  // x * 2/pi
  const V r = (((x - k * P1) - k * P2) - k * P3) - k * P4;
  const V z = r * r;
  // fdlibm __kernel_sin(r, 0)
  const V ps = V(8.33333333332248946124e-03) +
               z * (V(-1.98412698298579493134e-04) +
                    z * (V(2.75573137070700676789e-06) + z * (V(-2.50507602534068634195e-08) + z * V(1.58969099521155010221e-10))));
  const V sr = r + (z * r) * (V(-1.66666666666666324348e-01) + z * ps);
  // fdlibm __kernel_cos(r, 0)
  const V pc = z * (V(4.16666666666666019037e-02) +
                    z * (V(-1.38888888888741095749e-03) +
                         z * (V(2.48015872894767294178e-05) +
                              z * (V(-2.75573143513906633035e-07) + z * (V(2.08757232129817482790e-09) + z * V(-1.13596475577881948265e-11))))));
  const V hz = V(0.5) * z;
  const V w = V(1.0) - hz;
  const V cr = w + (((V(1.0) - w) - hz) + z * pc);
  // Quadrant q = k mod 4: sin x = sr, cr, -sr, -cr; cos x = cr, -sr, -cr, sr.
  const V q = k - V(4.0) * floor_of(k * V(0.25));
  const auto odd = (q == V(1.0)) | (q == V(3.0));
  const V s0 = pick(odd, cr, sr), c0 = pick(odd, sr, cr);
  s = pick(q >= V(2.0), -s0, s0);
  c = pick((q == V(1.0)) | (q == V(2.0)), -c0, c0);
}

// Whole arrays: s[i] = sin(p * freq[i]), c[i] = cos(p * freq[i]); the angle is
// rounded exactly as the float64 formula rounds it.
inline void sincos_scaled_scalar(double p, const double* freq, std::size_t n, double* s, double* c,
                                 std::size_t from = 0) {
  for (std::size_t k = from; k < n; ++k) {
    const double x = p * freq[k];
    if (any_large(x)) {
      s[k] = std::sin(x);
      c[k] = std::cos(x);
    } else {
      sincos_small(x, s[k], c[k]);
    }
  }
}

#if SINPE_SIMD
inline void sincos_scaled(double p, const double* freq, std::size_t n, double* s, double* c) {
  constexpr std::size_t W = batch_d::size;
  const batch_d pos(p);
  std::size_t k = 0;
  for (; k + W <= n; k += W) {
    const batch_d x = pos * batch_d::load_unaligned(freq + k);
    if (any_large(x)) {
      sincos_scaled_scalar(p, freq, k + W, s, c, k);
      continue;
    }
    batch_d sv, cv;
    sincos_small(x, sv, cv);
    sv.store_unaligned(s + k);
    cv.store_unaligned(c + k);
  }
  sincos_scaled_scalar(p, freq, n, s, c, k);
}
#endif

}  // namespace sinpe::trig
