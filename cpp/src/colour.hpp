// The heatmap's colour stage: float32 values to RGBA pixels through a
// 256-entry lookup table.
//
// The index rule, for a value v and the scale of colour_scale(vmin, vmax):
//   t = v * a + b                 (float32: the product rounded, then the sum)
//   index = !(t > 0) ? 0 : t >= 255 ? 255 : int(t)
// so NaN and everything at or below vmin take entry 0, everything at or above
// vmax entry 255, and the bins are 1/255 of the range wide, centred on the
// table's entries (round((v - vmin) / (vmax - vmin) * 255), clamped). A range
// too small for a and b to be finite in float32 (under ~1e-36) is indexed in
// float64 instead, lane by lane.
//
// Both paths clamp t to [0, 255] with comparisons that send NaN to 0 and
// take the integer part of the result. In WebAssembly that is done without a
// float-to-int conversion (which V8 guards against traps and NaN with several
// instructions each): floor, then add 2^23, which leaves the integer in the
// low mantissa bits; four table loads by those bits and one 128-bit store make
// four pixels. Elsewhere a truncating conversion is one instruction. The
// scalar path (loop tails, the baseline build) is the same code at one lane.
// The table and the output are accessed bytewise-safe (memcpy, unaligned
// vector stores), so neither needs 4-byte alignment beyond its type's.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if SINPE_SIMD && defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif SINPE_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace sinpe::colour {

// t = v * a + b maps [vmin, vmax] onto [0.5, 255.5]; a64 and vmin are the
// float64 forms used when a or b is not finite in float32 (in_float false).
struct ColourScale {
  float a = 0.f, b = 0.f;
  double a64 = 0.0, vmin = 0.0, half_range = 0.0;
  bool in_float = true;
};

// For finite vmin < vmax (the caller checks). a and b are formed in float64
// (vmax/2 - vmin/2 cannot overflow) and rounded once, so that vmin/vmax
// beyond the float32 range (say -1e300 ... 1e300) still map each value to the
// right entry.
inline ColourScale colour_scale(double vmin, double vmax) noexcept {
  ColourScale s;
  s.half_range = vmax * 0.5 - vmin * 0.5;
  s.a64 = 127.5 / s.half_range;
  s.vmin = vmin;
  s.a = float(s.a64);
  s.b = float((vmin == 0 ? 0.0 : -vmin * s.a64) + 0.5);
  s.in_float = std::isfinite(s.a) && std::isfinite(s.b);
  return s;
}

namespace detail {

constexpr float kTop = 255.f;
constexpr float kMagic = 8388608.f;  // 2^23: floor(t) + 2^23 has floor(t) in its low mantissa bits

// x unchanged, but opaque to the optimiser: a product passed through it is
// rounded before it is added. GCC fuses a multiply and a following add into
// one fused multiply-add where the target has one (x86 with FMA, AArch64),
// even across statements, and the rule rounds twice. WebAssembly has no
// fused multiply-add.
template <class T>
inline T rounded(T x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __asm__("" : "+v"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(x));
#endif
  return x;
}

inline std::uint32_t load_u32(const std::uint32_t* p) {
  std::uint32_t x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

// --- one lane -------------------------------------------------------------
inline float max_nan0(float t) { return 0.f < t ? t : 0.f; }  // NaN -> 0
inline float min_top(float t) { return t < kTop ? t : kTop; }
// The integer part of c in [0, 255].
inline std::uint32_t int_part(float c) {
#if defined(__wasm__)
  const float f = std::floor(c) + kMagic;
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u & 0xFFu;
#else
  return std::uint32_t(int(c));
#endif
}

// The index in float64, for ranges too small for float32.
inline std::uint32_t index_in_double(float v, const ColourScale& s) {
  const double above = double(v) - s.vmin;  // > 0, or the index is 0 (no 0 * inf)
  // Below ~7e-307 the range's reciprocal a64 overflows: divide by the half range instead.
  const double scaled = std::isfinite(s.a64) ? above * s.a64 : above / s.half_range * 127.5;
  const float t = above > 0 ? float(std::fmin(256.0, scaled + 0.5)) : 0.f;
  return int_part(min_top(max_nan0(t)));
}

inline void colourize_lanes(const float* v, std::size_t n, const ColourScale& s, const std::uint32_t* lut,
                            std::uint32_t* out) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t idx;
    if (s.in_float) {
      const float m = rounded(v[i] * s.a);
      const float t = m + s.b;
      idx = int_part(min_top(max_nan0(t)));
    } else {
      idx = index_in_double(v[i], s);
    }
    const std::uint32_t px = load_u32(lut + idx);
    std::memcpy(out + i, &px, sizeof px);
  }
}

// --- four lanes (WebAssembly SIMD) ----------------------------------------
#if SINPE_SIMD && defined(__wasm_simd128__)
inline void colourize_vectors(const float* v, std::size_t n, const ColourScale& s, const std::uint32_t* lut,
                              std::uint32_t* out) {
  const v128_t a = wasm_f32x4_splat(s.a), b = wasm_f32x4_splat(s.b);
  const v128_t zero = wasm_f32x4_splat(0.f), top = wasm_f32x4_splat(kTop), magic = wasm_f32x4_splat(kMagic);
  const v128_t low = wasm_i32x4_splat(0xFF);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t m = wasm_f32x4_mul(wasm_v128_load(v + i), a);
    const v128_t t = wasm_f32x4_add(m, b);
    // pmax(0, t) = 0 < t ? t : 0 and pmin(255, t) = t < 255 ? t : 255: the
    // scalar rule's comparisons, NaN included (x86 maxps/minps exactly).
    const v128_t c = wasm_f32x4_pmin(top, wasm_f32x4_pmax(zero, t));
    const v128_t idx = wasm_v128_and(wasm_f32x4_add(wasm_f32x4_floor(c), magic), low);
    const v128_t px = wasm_u32x4_make(
        load_u32(lut + wasm_u32x4_extract_lane(idx, 0)), load_u32(lut + wasm_u32x4_extract_lane(idx, 1)),
        load_u32(lut + wasm_u32x4_extract_lane(idx, 2)), load_u32(lut + wasm_u32x4_extract_lane(idx, 3)));
    wasm_v128_store(out + i, px);
  }
  colourize_lanes(v + i, n - i, s, lut, out + i);
}

// --- xsimd's batch (native SIMD builds) -----------------------------------
#elif SINPE_SIMD
inline void colourize_vectors(const float* v, std::size_t n, const ColourScale& s, const std::uint32_t* lut,
                              std::uint32_t* out) {
  using bf = xsimd::batch<float>;
  using bi = xsimd::batch<std::int32_t>;
  using bu = xsimd::batch<std::uint32_t>;
  constexpr std::size_t W = bf::size;
  const bf a(s.a), b(s.b), zero(0.f), top(kTop);
  std::size_t i = 0;
  for (; i + W <= n; i += W) {
    const bf m(rounded((bf::load_unaligned(v + i) * a).data));
    const bf t = m + b;
    // Comparisons rather than xsimd::max/min, whose NaN handling differs between architectures.
    const bf c0 = xsimd::select(zero < t, t, zero);
    const bf c = xsimd::select(c0 < top, c0, top);
    const bi idx = xsimd::batch_cast<std::int32_t>(c);  // truncates: c >= 0
    bu::gather(lut, idx).store_unaligned(out + i);
  }
  colourize_lanes(v + i, n - i, s, lut, out + i);
}
#endif

}  // namespace detail

// out[i] = lut[index(v[i])] for i < n, the index rule above. lut has 256
// entries (RGBA bytes in memory order); out has n.
inline void colourize_scalar(const float* v, std::size_t n, const ColourScale& s, const std::uint32_t* lut,
                             std::uint32_t* out) {
  detail::colourize_lanes(v, n, s, lut, out);
}

inline void colourize(const float* v, std::size_t n, const ColourScale& s, const std::uint32_t* lut,
                      std::uint32_t* out) {
#if SINPE_SIMD
  if (s.in_float) return detail::colourize_vectors(v, n, s, lut, out);
#endif
  detail::colourize_lanes(v, n, s, lut, out);
}

}  // namespace sinpe::colour
