// float64 -> IEEE binary16 and bfloat16 bit patterns, rounded once to
// nearest, ties to even, straight from the double (rounding through float32
// first would round twice and can land one step off).
#pragma once

#include <cstdint>
#include <cstring>

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

}  // namespace sinpe::detail
