// float64 -> IEEE binary16 and bfloat16 bit patterns, rounded once to
// nearest, ties to even, straight from the double (rounding through float32
// first would round twice and can land one step off).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "simd.hpp"
#if SINPE_SIMD && defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace sinpe::detail {

// A format with M stored mantissa bits and exponent bias B (binary16: 10, 15;
// bfloat16: 7, 127). Subnormals are produced; a value rounds to infinity only
// when it rounds past the largest finite one; NaN stays a (quiet) NaN.
template <int M, int B>
inline std::uint16_t round_half(double v) noexcept {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const auto sign = std::uint16_t((bits >> 48) & 0x8000u);
  const std::uint64_t a = bits & 0x7fffffffffffffffull;
  constexpr std::uint16_t kInf = std::uint16_t(((2 * B + 1) << M));
  if (a >= 0x7ff0000000000000ull) {  // inf or NaN
    return std::uint16_t(sign | kInf | (a > 0x7ff0000000000000ull ? (1u << (M - 1)) : 0u));
  }
  const int e = int(a >> 52) - 1023;                                // unbiased exponent of a normal double
  if (e > B) return std::uint16_t(sign | kInf);                     // >= 2^(B+1): beyond every finite value
  const std::uint64_t m = (a & ((1ull << 52) - 1)) | (1ull << 52);  // 53 significant bits
  // Normal results keep M bits after the leading one; subnormal ones lose
  // one more bit per binade below the smallest normal exponent 1 - B.
  const int shift = (52 - M) + (e < 1 - B ? (1 - B) - e : 0);
  if (shift > 53 || (a >> 52) == 0) return sign;  // below half the smallest subnormal (or a double subnormal)
  const std::uint64_t kept = m >> shift, rest = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
  const std::uint64_t rounded = kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
  // Normal: the biased exponent above the implicit bit; a carry out of the
  // mantissa moves into the exponent, up to infinity. Subnormal: rounded
  // alone is the pattern, and a carry to 2^M is the smallest normal.
  std::uint64_t out = e < 1 - B ? rounded : (std::uint64_t(e + B) << M) + (rounded - (1ull << M));
  if (out > kInf) out = kInf;
  return std::uint16_t(sign | out);
}

inline std::uint16_t round_float16(double v) noexcept { return round_half<10, 15>(v); }
inline std::uint16_t round_bfloat16(double v) noexcept { return round_half<7, 127>(v); }

// ---- many float32 values at once ---------------------------------------------
// The half-precision entry points round values v that the block kernel made in
// float32 and whose float64 values T (the ones round_half must see) are only
// known to lie within a margin E of them: |v - T| <= E (half_kernel.hpp proves E).
// HalfTest decides, lane by lane and without branches, whether every T in
// [v - E, v + E] has the same pattern, and gives that pattern; the lanes it
// cannot decide go to the caller's exact float64 path.
//
// Why the test is sufficient. Let a = |v| lie in the binade [2^e, 2^(e+1))
// with lo <= a < hi, where
//   lo = the least power of two 2^x with 4E < 2^(x-M) (the format's ulp in
//        that binade), and at least the format's smallest normal value;
//   hi = 2^(B+1), the first binade beyond every finite value (+inf when that
//        is beyond float32's range, as for bfloat16).
// The format's values in a's binade are the float32 values whose low 23 - M
// mantissa bits are zero, so a lies in the cell [t, t + ulp) with t = a with
// those bits cleared, and the cell's midpoint m is t with the highest of them
// set: both are float32 values of a's binade, so d = |a - m| is exact
// (Sterbenz). Suppose d > E. Every |T| with |T - a| <= E is then on a's side
// of m, and it does not reach the midpoint on the other side of the cell
// either: that one is at least ulp/4 from the cell (ulp/4 below t when t = 2^e
// and the binade below is finer, ulp/2 otherwise) while E < ulp/4. So |T|
// rounds to the end of the cell on a's side of m, which is also what rounding
// a to nearest gives; a is no tie (d > 0), so adding half an ulp at bit
// 23 - M and truncating is that rounding, a carry into the exponent included
// (up to float16's infinity from 65520 on, where round_half gives infinity
// too). T has v's sign since |v| >= lo > 4E. Lanes outside [lo, hi) (zeros,
// subnormal results, float16 overflow) or with d <= E (ties and values near
// one) are left undecided.
template <int M, int B>
struct HalfTestNear;  // below

template <int M, int B>
struct HalfTest {
  static constexpr std::uint32_t kDrop = 23 - M;  // float32 mantissa bits the format drops
  static constexpr std::uint32_t kMask = (1u << kDrop) - 1;
  static constexpr std::uint32_t kMid = 1u << (kDrop - 1);
  static constexpr std::uint32_t kRebias = std::uint32_t(127 - B) << M;
  // Half an ulp at bit 23 - M, less the exponents' difference in bias: for
  // |v| >= the format's smallest normal value, (|v|'s bits + kRound) >>
  // kDrop is the rounded pattern (the sum wraps around 2^32 to its value).
  static constexpr std::uint32_t kRound = kMid - (kRebias << kDrop);
  float e = 0, lo = 0, hi = 0;
  // lo <= a < hi as one unsigned comparison of a's bits: bits - lo_bits < span.
  std::uint32_t lo_bits = 0, span = 0;
  // For HalfLanes: the format's first midpoint above lo and last below hi, and
  // whether values can reach the latter.
  float lo_mid = 0, hi_mid = 0;
  bool clamp_hi = true;

  // The test for values within E of theirs (E >= 0, finite) and at most vmax
  // in magnitude.
  explicit HalfTest(double E, double vmax = std::numeric_limits<double>::infinity()) {
    float ef = float(E);
    if (double(ef) < E) ef = std::nextafter(ef, std::numeric_limits<float>::infinity());  // rounded up
    e = ef;
    // lo: the smallest normal value, or the least power of two 2^x > 4E 2^M if larger.
    double l = std::ldexp(1.0, 1 - B);
    if (e > 0) {
      int x;
      std::frexp(std::ldexp(4 * double(e), M), &x);  // 4E 2^M = f 2^x, 1/2 <= f < 1
      l = std::max(l, std::ldexp(1.0, x));
    }
    lo = l < 3.0e38 ? float(l) : std::numeric_limits<float>::infinity();
    hi = B + 1 < 128 ? float(std::ldexp(1.0, B + 1)) : std::numeric_limits<float>::infinity();
    std::uint32_t hi_bits;
    std::memcpy(&lo_bits, &lo, sizeof lo_bits);
    std::memcpy(&hi_bits, &hi, sizeof hi_bits);
    span = hi_bits > lo_bits ? hi_bits - lo_bits : 0;
    // Both midpoints are float32 values (M + 2 significant bits); lo is a
    // power of two, a format value, and hi the end of the last finite binade.
    lo_mid = float(double(lo) * (1 + std::ldexp(1.0, -(M + 1))));
    hi_mid = std::isinf(hi) ? hi : float(double(hi) * (1 - std::ldexp(1.0, -(M + 2))));
    clamp_hi = !std::isinf(hi) && !(vmax < double(hi_mid));
    if (span == 0 || std::isinf(lo_mid)) {
      // Nothing to decide: no difference exceeds an infinite e (NaN ones neither).
      e = std::numeric_limits<float>::infinity();
      lo_mid = 1.0f;
    }
  }

  static std::uint16_t round(double v) noexcept { return round_half<M, B>(v); }
  using Near = HalfTestNear<M, B>;

  // The pattern of v (valid when decided) and whether it is decided.
  std::uint16_t pattern(float v, bool* decided) const {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    const std::uint32_t au = u & 0x7fffffffu;
    const std::uint32_t mu = (au & ~kMask) | kMid;
    float a, m;
    std::memcpy(&a, &au, sizeof a);
    std::memcpy(&m, &mu, sizeof m);
    *decided = au - lo_bits < span && std::fabs(a - m) > e;
    return std::uint16_t(((au + kRound) >> kDrop) | ((u >> 16) & 0x8000u));
  }
};

using Float16Test = HalfTest<10, 15>;
using BFloat16Test = HalfTest<7, 127>;

// HalfTest's decision for float64 values t whose T is within E of them, E
// far below float32's precision (the scalar route's float64 values, half_kernel.hpp),
// with float32 integer operations only: f = fl32(t) (one rounding, to nearest),
// decided when lo <= |f| < hi and f is not a midpoint of the format.
//
// Why that is sufficient. Let lo be a power of two with E < lo 2^-24 (half a
// float32 ulp at lo), and at least the format's smallest normal value; hi as
// in HalfTest. Every midpoint mu of two neighbouring format values is a
// float32 value (M + 1 <= 23 significant bits) inside its binade, so the
// float32 values next to it are ulp32(mu) away on both sides. fl32 is
// monotonic and keeps mu: t < mu gives f <= mu, and f != mu then means t lay
// outside mu's rounding interval, |t - mu| >= ulp32(mu) / 2 >= lo 2^-24 > E
// for |mu| >= lo; likewise for t > mu. So every T within E of t lies strictly
// on f's side of every midpoint at or above lo, and of those below lo too
// (the largest is more than a format ulp below lo, |f| >= lo, |t - f| <=
// ulp32(f) / 2). Round to nearest is constant between neighbouring midpoints,
// so T rounds as f does; f is no tie, so adding half an ulp at bit 23 - M and
// truncating is that rounding (HalfTest's kRound, carries included).
template <int M, int B>
struct HalfTestNear {
  using T32 = HalfTest<M, B>;
  std::uint32_t lo_bits = 0, span = 0;
  // Whether a value's float32 rounding can reach hi, so that the range test
  // must look at the top as well as the bottom (see undecided).
  bool check_hi = true;

  // The rule for values within E of T, at most vmax in magnitude.
  explicit HalfTestNear(double E, double vmax = std::numeric_limits<double>::infinity()) {
    double lo = std::ldexp(1.0, 1 - B);
    if (E > 0) {
      int x;
      std::frexp(E, &x);  // E < 2^x
      lo = std::max(lo, std::ldexp(1.0, x + 24));
    }
    const float lof = lo < 3.0e38 ? float(lo) : std::numeric_limits<float>::infinity();
    const float hi = B + 1 < 128 ? float(std::ldexp(1.0, B + 1)) : std::numeric_limits<float>::infinity();
    std::uint32_t hi_bits;
    std::memcpy(&lo_bits, &lof, sizeof lo_bits);
    std::memcpy(&hi_bits, &hi, sizeof hi_bits);
    span = hi_bits > lo_bits ? hi_bits - lo_bits : 0;
    // fl32 is monotonic and rounds below 2^(B+1) exactly the values below the
    // midpoint 2^(B+1) (1 - 2^-25) between it and the float32 value under it
    // (for bfloat16, 2^128: float32's infinity). So |t| <= vmax below that
    // midpoint keeps every |fl32(t)| < hi (a NaN vmax keeps the test).
    check_hi = !(vmax < std::ldexp(1 - std::ldexp(1.0, -25), B + 1));
  }

  // The float32 rounding of t, as bits (the one rounding the rule looks at).
  static std::uint32_t bits(double t) noexcept {
    const float f = float(t);
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  }

  // The rule in three parts, so that a loop can branch on each (see
  // half_pairs_scalar): with s = rounded(u), u is decided unless outside(u)
  // or tie(s), and then its pattern is pattern_from(s).
  //
  // s = u + kRound: |f|'s bits plus half an ulp at bit 23 - M, less the
  // exponents' difference in bias (HalfTest's kRound), with f's sign bit on
  // top. For a decided u, |f| >= the format's smallest normal value, so
  // |f|'s part is |f|'s bits - kRebias 2^(23-M) + kMid without wrapping
  // (kRebias 2^(23-M) < the smallest normal's bits), and below 2^(M+5)
  // 2^(23-M) = 2^28 (float16: rebiased exponent < 31; bfloat16: < 2^31 with
  // no rebias), so nothing carries into the sign bit. So s >> (23 - M) is
  // the rounded pattern of |f| (carries included), with the sign at bit
  // 31 - (23 - M), and the bits between 15 and that are zero.
  static std::uint32_t rounded(std::uint32_t u) noexcept { return u + T32::kRound; }
  // The pattern of a decided u: the sign moved down to bit 15 (for bfloat16
  // it is there already: the shift is 0, and the or changes nothing).
  static std::uint16_t pattern_from(std::uint32_t s) noexcept {
    const std::uint32_t p = s >> T32::kDrop;
    return std::uint16_t(p | ((p >> (16 - T32::kDrop)) & 0x8000u));
  }
  // f is a midpoint of the format: its low 23 - M bits are kMid, which is
  // where s's are zero (kRound's rebias has zero low bits).
  static bool tie(std::uint32_t s) noexcept { return (s & T32::kMask) == 0; }
  // |f| outside [lo, hi), on u + u (|f|'s bits times 2: the sign bit drops
  // out). Without CheckHi only the bottom is tested, which is the same test
  // when check_hi is false (every |f| < hi then); lo2 = 2 lo_bits and span2
  // = 2 span are passed in so that a loop keeps them in registers.
  template <bool CheckHi>
  static bool outside(std::uint32_t u, std::uint32_t lo2, std::uint32_t span2) noexcept {
    const std::uint32_t a2 = u + u;
    return CheckHi ? a2 - lo2 >= span2 : a2 < lo2;
  }
  // The whole rule: nonzero when u is undecided.
  template <bool CheckHi>
  static std::uint32_t undecided(std::uint32_t u, std::uint32_t lo2, std::uint32_t span2) noexcept {
    return std::uint32_t(outside<CheckHi>(u, lo2, span2)) | std::uint32_t(tie(rounded(u)));
  }
  static std::uint16_t pattern_of(std::uint32_t u) noexcept { return pattern_from(rounded(u)); }

  std::uint16_t pattern(double t, bool* decided) const {
    const std::uint32_t u = bits(t);
    *decided = undecided<true>(u, 2 * lo_bits, 2 * span) == 0;
    return pattern_of(u);
  }
};

#if SINPE_SIMD
// HalfTest::pattern on whole float32 vectors: the lanes' patterns (an
// undecided lane's is garbage) and which lanes are undecided. The same test
// in fewer operations: |v| is clamped up to the format's first midpoint above
// lo, and (when values can reach it) down to its last midpoint below hi, so a
// lane outside [lo, hi) sits on a midpoint and fails |a - m| > e by itself
// (|a - m| = 0); the only lanes the clamps move inside [lo, hi) are those
// between lo and that first midpoint, which are left undecided too. Infinite
// or NaN lanes fail the comparison (NaN).
//
// The comparison is (a - m)^2 > e^2 in float32, e2 = fl(e e): a - m is exact
// (Sterbenz, see HalfTest), and rounding is monotonic, so a - m <= e would
// give fl((a - m)^2) <= fl(e^2); a lane that passes has |a - m| > e. (Squares
// that underflow only leave more lanes undecided.) A multiply is one x64
// instruction where V8 makes an abs of three.
//
// Operations are counted because the float32 loop they are added to is so
// short (docs/half-precision-cost.md): bfloat16's sign rides along
// (|v| + half an ulp stays below 2^31); float16's pattern is made from |v|,
// and the sign is put in by store or store_pairs, for eight values at once.
// The integer constants are members read from memory (kInMemory): V8's newer
// compiler (Chromium's) makes a vector constant again at each use inside a
// loop, three x64 instructions each, but keeps a value it loaded in a
// register.
template <std::uint32_t X>
inline volatile std::uint32_t kInMemory = X;  // volatile: read, never folded

template <class Test, bool ClampHi>
struct HalfLanes {
  using bf = xsimd::batch<float>;
  using bu = xsimd::batch<std::uint32_t>;
  static constexpr std::size_t W = bf::size;
  static constexpr bool kSignAlong = Test::kDrop == 16 && Test::kRebias == 0;
  bf e2, floor_, ceil_;
  bu abs_, keep_, mid_, round_, hi_, sign_;

  explicit HalfLanes(const Test& t)
      : e2(t.e * t.e),
        floor_(t.lo_mid),
        ceil_(t.hi_mid),
        abs_(kInMemory<0x7fffffffu>),
        keep_(kInMemory<~Test::kMask>),
        mid_(kInMemory<Test::kMid>),
        round_(kInMemory<Test::kRound>),
        hi_(kInMemory<0xffff0000u>),
        sign_(kInMemory<0x80008000u>) {}

  // The pattern in the lower 16 bits of each lane of p, or with Hi in the
  // upper 16 (the other half is garbage: store_pairs blends). float16's
  // patterns are of |v|; the upper bits of an undecided lane's are garbage.
  template <bool Hi = false>
  xsimd::batch_bool<float> operator()(const bf& v, bu& p) const {
    const bu u = xsimd::bitwise_cast<std::uint32_t>(v);
    const bu au = u & abs_;
    if constexpr (kSignAlong) {
      p = Hi ? u + mid_ : (u + mid_) >> 16;
    } else {
      // |v|'s bits + kRound: below 2^28 when decided (HalfTestNear::rounded).
      p = Hi ? (au + round_) << int(16 - Test::kDrop) : (au + round_) >> int(Test::kDrop);
    }
    bf c = xsimd::max(xsimd::bitwise_cast<float>(au), floor_);
    if constexpr (ClampHi) c = xsimd::min(c, ceil_);
    const bf m = xsimd::bitwise_cast<float>((xsimd::bitwise_cast<std::uint32_t>(c) & keep_) | mid_);
    const bf d = c - m;
    return d * d > e2;
  }

  // out[l] = the pattern of lane l of v0 (l < W), then of v1; p0, p1 from
  // operator() on them.
  void store(std::uint16_t* out, const bf& v0, const bf& v1, const bu& p0, const bu& p1) const {
#if defined(__wasm_simd128__)
    static_assert(W == 4, "one v128 of float32");
    // Unsigned saturation keeps every pattern (<= 0xffff) as it is.
    v128_t q = wasm_u16x8_narrow_i32x4(v128_t(p0), v128_t(p1));
    if constexpr (!kSignAlong) {
      // Signed saturation of a float32's bits keeps its sign in bit 15: a
      // negative one's are below -32768 (or a NaN's, still negative), a
      // positive one's at least 0 and at most 0x7fff after saturation.
      const v128_t signs = wasm_i16x8_narrow_i32x4(v128_t(v0), v128_t(v1));
      q = wasm_v128_or(q, wasm_v128_and(signs, v128_t(sign_)));
    }
    wasm_v128_store(out, q);
#else
    alignas(64) std::uint32_t tmp[2 * W];
    alignas(64) float vs[2 * W];
    p0.store_aligned(tmp);
    p1.store_aligned(tmp + W);
    v0.store_aligned(vs);
    v1.store_aligned(vs + W);
    for (std::size_t l = 0; l < 2 * W; ++l)
      out[l] = std::uint16_t(tmp[l] | (kSignAlong || !std::signbit(vs[l]) ? 0u : 0x8000u));
#endif
  }

  // out[2l], out[2l + 1] = the patterns of lane l of s and of c; ps from
  // operator() on s, pc from operator()<true> on c.
  void store_pairs(std::uint16_t* out, const bf& s, const bf& c, const bu& ps, const bu& pc) const {
#if defined(__wasm_simd128__)
    // The low halves of the first, the high ones of the second: one blend.
    const auto blend = [](const bu& lo, const bu& hi) {
      return bu(wasm_i16x8_shuffle(v128_t(lo), v128_t(hi), 0, 9, 2, 11, 4, 13, 6, 15));
    };
#else
    const auto blend = [this](const bu& lo, const bu& hi) {
      return xsimd::bitwise_andnot(lo, hi_) | (hi & hi_);
    };
#endif
    bu w = blend(ps, pc);
    // float16: the sine's sign from bit 31 to bit 15, the cosine's stays at 31.
    if constexpr (!kSignAlong)
      w = w |
          (blend(xsimd::bitwise_cast<std::uint32_t>(s) >> 16, xsimd::bitwise_cast<std::uint32_t>(c)) & sign_);
    // Little-endian lanes: the sine's 16 bits first.
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "a lane's low half is stored first");
#if defined(__wasm_simd128__)
    wasm_v128_store(out, v128_t(w));
#else
    alignas(64) std::uint32_t tmp[W];
    w.store_aligned(tmp);
    std::memcpy(out, tmp, sizeof tmp);
#endif
  }
};

// out[i] = the pattern of v[i] for i < n; lanes the test leaves undecided get
// exact(i) instead.
template <class Test, bool ClampHi, class Exact>
inline std::size_t to_half_vectors(const Test& t, const float* v, std::size_t n, std::uint16_t* out,
                                   Exact& exact) {
  using bf = xsimd::batch<float>;
  using bu = xsimd::batch<std::uint32_t>;
  constexpr std::size_t W = bf::size;
  const HalfLanes<Test, ClampHi> lanes(t);
  std::size_t i = 0;
  for (; i + 2 * W <= n; i += 2 * W) {
    bu p0, p1;
    const bf v0 = bf::load_unaligned(v + i), v1 = bf::load_unaligned(v + i + W);
    const auto ok0 = lanes(v0, p0);
    const auto ok1 = lanes(v1, p1);
    lanes.store(out + i, v0, v1, p0, p1);
    if (!xsimd::all(ok0 & ok1)) {
      const std::uint64_t decided = ok0.mask() | (ok1.mask() << W);
      for (std::size_t l = 0; l < 2 * W; ++l)
        if (!((decided >> l) & 1)) out[i + l] = exact(i + l);
    }
  }
  return i;
}
#endif

template <class Test, class Exact>
inline void to_half(const Test& t, const float* v, std::size_t n, std::uint16_t* out, bool simd,
                    Exact&& exact) {
  std::size_t i = 0;
#if SINPE_SIMD
  if (simd)
    i = t.clamp_hi ? to_half_vectors<Test, true>(t, v, n, out, exact)
                   : to_half_vectors<Test, false>(t, v, n, out, exact);
#else
  (void)simd;
#endif
  for (; i < n; ++i) {
    bool decided;
    const std::uint16_t p = t.pattern(v[i], &decided);
    out[i] = decided ? p : exact(i);
  }
}

}  // namespace sinpe::detail
