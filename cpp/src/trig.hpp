// sin and cos in float64 for the block anchors, fast for |x| < 2^25.
//
// xsimd's sincos falls back to a scalar Payne-Hanek reduction per lane once
// |x| > 2^19 * pi/2, which every position above ~500 000 reaches for the low
// frequencies, so a single row at a random position below 2^24 cost about
// twice as much with it. Here the reduction is Cody-Waite with pi/2 split
// into 28-bit parts, so k * part is exact for |k| < 2^25 and the reduced
// argument is correct to ~1e-16; the polynomials are fdlibm's
// __kernel_sin/__kernel_cos (< 1 ulp on [-pi/4, pi/4]). Larger |x| take
// std::sin/std::cos lane by lane.
//
// Shaped by what V8 makes of the wasm: it builds a v128.const or f64.const
// from immediates where it is used (two or three instructions each, ~20
// constants here), and xsimd's nearbyint for wasm is a generic bit sequence.
// - The constants are loaded from one table through a pointer the optimisers
//   cannot see through: one load each.
// - k = round(x * 2/pi) is (y + 1.5 * 2^52) - 1.5 * 2^52, which leaves k's low
//   bits in the sum's mantissa: choosing between the two polynomials and
//   their signs takes integer shifts, ands and xors instead of selects.
// - The float32 roundings of the results can be written in the same pass.
// One template serves plain double (the scalar path) and xsimd::batch<double>.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if SINPE_SIMD
#include <xsimd/xsimd.hpp>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif
#endif

namespace sinpe::trig {

constexpr double kFastLimit = 33554432.0;  // 2^25

// The table of constants and the index of each.
enum Const : int {
  kTwoOverPi,
  kRound,  // 1.5 * 2^52: y + kRound - kRound rounds y to an integer for |y| < 2^51
  kP1,     // pi/2 = P1 + P2 + P3 + P4, the first three with 28 significant bits
  kP2,
  kP3,
  kP4,
  kS1,  // fdlibm __kernel_sin
  kS2,
  kS3,
  kS4,
  kS5,
  kS6,
  kC1,  // fdlibm __kernel_cos
  kC2,
  kC3,
  kC4,
  kC5,
  kC6,
  kHalf,
  kOne,
  kLimit,
  kConstCount
};

// Each constant twice: a 128-bit vector loads a pair with one plain load
// (V8 folds the offset of a v128.load into the address, not of a splat load).
#define SINPE_TRIG_PAIR(x) x, x
alignas(64) inline constexpr double kConstants[2 * kConstCount] = {
    SINPE_TRIG_PAIR(0x1.45f306dc9c883p-1),
    SINPE_TRIG_PAIR(0x1.8p52),
    SINPE_TRIG_PAIR(0x1.921fb54000000p+0),
    SINPE_TRIG_PAIR(0x1.10b4610000000p-30),
    SINPE_TRIG_PAIR(0x1.a626330000000p-58),
    SINPE_TRIG_PAIR(0x1.45c06e0e68948p-86),
    SINPE_TRIG_PAIR(-1.66666666666666324348e-01),
    SINPE_TRIG_PAIR(8.33333333332248946124e-03),
    SINPE_TRIG_PAIR(-1.98412698298579493134e-04),
    SINPE_TRIG_PAIR(2.75573137070700676789e-06),
    SINPE_TRIG_PAIR(-2.50507602534068634195e-08),
    SINPE_TRIG_PAIR(1.58969099521155010221e-10),
    SINPE_TRIG_PAIR(4.16666666666666019037e-02),
    SINPE_TRIG_PAIR(-1.38888888888741095749e-03),
    SINPE_TRIG_PAIR(2.48015872894767294178e-05),
    SINPE_TRIG_PAIR(-2.75573143513906633035e-07),
    SINPE_TRIG_PAIR(2.08757232129817482790e-09),
    SINPE_TRIG_PAIR(-1.13596475577881948265e-11),
    SINPE_TRIG_PAIR(0.5),
    SINPE_TRIG_PAIR(1.0),
    SINPE_TRIG_PAIR(kFastLimit)};
#undef SINPE_TRIG_PAIR

// The table's address, read through a volatile pointer so that neither the
// compiler nor wasm-opt folds the constants back into immediates: each use
// becomes one load at a fixed offset from a register.
inline const double* const volatile kConstantsAt = kConstants;
inline const double* constants() noexcept { return kConstantsAt; }

// --- per-type helpers: plain double --------------------------------------
inline std::uint64_t bits_of(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline double of_bits(std::uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
inline double splat(const double* p, int i, double) { return p[2 * i]; }
inline bool any_large(double x, const double* C) { return !(std::fabs(x) < C[2 * kLimit]); }

// --- per-type helpers: xsimd::batch<double> -------------------------------
#if SINPE_SIMD
using batch_d = xsimd::batch<double>;
using batch_u = xsimd::batch<std::uint64_t>;
inline batch_u bits_of(const batch_d& x) { return xsimd::bitwise_cast<std::uint64_t>(x); }
inline batch_d of_bits(const batch_u& u) { return xsimd::bitwise_cast<double>(u); }
inline batch_d splat(const double* p, int i, const batch_d&) {
  if constexpr (batch_d::size == 2) return batch_d::load_unaligned(p + 2 * i);
  else return batch_d(p[2 * i]);
}
inline bool any_large(const batch_d& x, const double* C) {
  return !xsimd::all(xsimd::abs(x) < splat(C, kLimit, x));
}
inline void store_rounded(float* p, const batch_d& x) {
#if defined(__wasm_simd128__)
  // f32x4.demote_f64x2_zero rounds both lanes at once; the empty asm keeps
  // LLVM from splitting it into per-lane demotes because only 8 bytes are stored.
  v128_t f = wasm_f32x4_demote_f64x2_zero(x);
  __asm__("" : "+r"(f));
  wasm_v128_store64_lane(p, f, 0);
#else
  alignas(64) double lanes[batch_d::size];
  x.store_aligned(lanes);
  for (std::size_t i = 0; i < batch_d::size; ++i) p[i] = float(lanes[i]);
#endif
}
#endif

// GCC 12 warns about _mm512_undefined_epi32() inside its own AVX-512 shift
// intrinsics (-march=native builds) when they are inlined here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

// s = sin(x), c = cos(x) for |x| < 2^25 (callers check any_large first);
// C = constants().
template <class V>
inline void sincos_small(const V& x, V& s, V& c, const double* C) {
  const V t = splat(C, kTwoOverPi, x);
  const V m = splat(C, kRound, x);
  // Exactly nearbyint(x * 2/pi): |x * 2/pi| < 2^25 is far inside 2^51.
  const V kr = x * t + m;
  const V k = kr - m;
  const V r =
      (((x - k * splat(C, kP1, x)) - k * splat(C, kP2, x)) - k * splat(C, kP3, x)) - k * splat(C, kP4, x);
  const V z = r * r;
  // fdlibm __kernel_sin(r, 0)
  const V ps =
      splat(C, kS2, x) +
      z * (splat(C, kS3, x) + z * (splat(C, kS4, x) + z * (splat(C, kS5, x) + z * splat(C, kS6, x))));
  const V sr = r + (z * r) * (splat(C, kS1, x) + z * ps);
  // fdlibm __kernel_cos(r, 0)
  const V pc =
      z *
      (splat(C, kC1, x) +
       z * (splat(C, kC2, x) +
            z * (splat(C, kC3, x) + z * (splat(C, kC4, x) + z * (splat(C, kC5, x) + z * splat(C, kC6, x))))));
  const V one = splat(C, kOne, x);
  const V hz = splat(C, kHalf, x) * z;
  const V w = one - hz;
  const V cr = w + (((one - w) - hz) + z * pc);
  // Quadrant q = k mod 4, the low bits of kr's mantissa (kr - 1.5 * 2^52 = k):
  // sin x = sr, cr, -sr, -cr; cos x = cr, -sr, -cr, sr. Odd q swaps the two,
  // sine's sign is bit 1 of q and cosine's bit 1 of q + 1 = (bit 1) ^ (bit 0).
  // All in integer bit operations: a swap and a sign flip are xors.
  const auto n = bits_of(kr);
  const auto b0 = n << 63;                       // bit 0 of q, as a sign bit
  const auto odd = decltype(n)(0) - (b0 >> 63);  // all ones where q is odd
  const auto sr_bits = bits_of(sr), cr_bits = bits_of(cr);
  const auto e = ((sr_bits ^ cr_bits) & odd) ^ ((n >> 1) << 63);
  s = of_bits(sr_bits ^ e);
  c = of_bits(cr_bits ^ e ^ b0);
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

template <class V>
inline void sincos_small(const V& x, V& s, V& c) {
  sincos_small(x, s, c, constants());
}

namespace detail {

// Lanes [from, n) one at a time; sf/cf also get float(amp * s), float(amp * c) unless null.
inline void sincos_lanes(double p, const double* freq, std::size_t from, std::size_t n, double* s, double* c,
                         float* sf, float* cf, double amp, const double* C) {
  for (std::size_t k = from; k < n; ++k) {
    const double x = p * freq[k];
    double sv, cv;
    if (any_large(x, C)) {
      sv = std::sin(x);
      cv = std::cos(x);
    } else {
      sincos_small(x, sv, cv, C);
    }
    s[k] = sv;
    c[k] = cv;
    if (sf != nullptr) {
      sf[k] = float(sv * amp);
      cf[k] = float(cv * amp);
    }
  }
}

#if SINPE_SIMD
template <bool Round>
inline void sincos_batches(double p, const double* freq, std::size_t n, double* s, double* c, float* sf,
                           float* cf, double amp, const double* C) {
  constexpr std::size_t W = batch_d::size;
  const batch_d pos(p), scale(amp);
  std::size_t k = 0;
  for (; k + W <= n; k += W) {
    const batch_d x = pos * batch_d::load_unaligned(freq + k);
    if (any_large(x, C)) {
      sincos_lanes(p, freq, k, k + W, s, c, sf, cf, amp, C);
      continue;
    }
    batch_d sv, cv;
    sincos_small(x, sv, cv, C);
    sv.store_unaligned(s + k);
    cv.store_unaligned(c + k);
    if (Round) {
      store_rounded(sf + k, sv * scale);
      store_rounded(cf + k, cv * scale);
    }
  }
  sincos_lanes(p, freq, k, n, s, c, sf, cf, amp, C);
}
#endif

}  // namespace detail

// Whole arrays: s[k] = sin(p * freq[k]), c[k] = cos(p * freq[k]) for k < n;
// the angle is rounded exactly as the float64 formula rounds it. The forms
// with sf, cf also write sf[k] = float(amp * s[k]), cf[k] = float(amp * c[k])
// (the block kernel's float32 anchors; amp = 1 is exact).
inline void sincos_scaled_scalar(double p, const double* freq, std::size_t n, double* s, double* c) {
  detail::sincos_lanes(p, freq, 0, n, s, c, nullptr, nullptr, 1.0, constants());
}
inline void sincos_scaled_scalar(double p, const double* freq, std::size_t n, double* s, double* c, float* sf,
                                 float* cf, double amp = 1.0) {
  detail::sincos_lanes(p, freq, 0, n, s, c, sf, cf, amp, constants());
}

#if SINPE_SIMD
inline void sincos_scaled(double p, const double* freq, std::size_t n, double* s, double* c) {
  detail::sincos_batches<false>(p, freq, n, s, c, nullptr, nullptr, 1.0, constants());
}
inline void sincos_scaled(double p, const double* freq, std::size_t n, double* s, double* c, float* sf,
                          float* cf, double amp = 1.0) {
  detail::sincos_batches<true>(p, freq, n, s, c, sf, cf, amp, constants());
}
#endif

}  // namespace sinpe::trig
