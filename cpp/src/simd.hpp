// The one place that knows which instruction set the core is built for.
// Algorithms are written once as templates over a vector type V: either
// FloatBatch (xsimd's widest float batch in the SIMD flavour) or plain float,
// which is the same code at one lane (the scalar path, the loop tails, and
// all of the baseline flavour).
#pragma once

#include <cstddef>

#if SINPE_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace sinpe::simd {

#if SINPE_SIMD
using FloatBatch = xsimd::batch<float>;
#else
using FloatBatch = float;
#endif

template <class V>
struct Lanes {
  static constexpr std::size_t value = 1;
};
#if SINPE_SIMD
template <>
struct Lanes<FloatBatch> {
  static constexpr std::size_t value = FloatBatch::size;
};
#endif
template <class V>
constexpr std::size_t lanes = Lanes<V>::value;

template <class V>
inline V load(const float* p) {
  if constexpr (lanes<V> == 1) return *p;
#if SINPE_SIMD
  else return V::load_unaligned(p);
#endif
}

// *p = v, or *p += v.
template <bool Add, class V>
inline void store(float* p, const V& v) {
  if constexpr (lanes<V> == 1) {
    if constexpr (Add) *p += v;
    else *p = v;
  }
#if SINPE_SIMD
  else {
    if constexpr (Add) (V::load_unaligned(p) + v).store_unaligned(p);
    else v.store_unaligned(p);
  }
#endif
}

// p[2i] = a[i], p[2i+1] = b[i] for each lane i.
template <bool Add, class V>
inline void store_interleaved(float* p, const V& a, const V& b) {
  if constexpr (lanes<V> == 1) {
    store<Add>(p, a);
    store<Add>(p + 1, b);
  }
#if SINPE_SIMD
  else {
    store<Add>(p, xsimd::zip_lo(a, b));
    store<Add>(p + lanes<V>, xsimd::zip_hi(a, b));
  }
#endif
}

// Lanes swapped in pairs: (v1, v0, v3, v2, ...).
#if SINPE_SIMD
struct SwapPairs {
  static constexpr unsigned get(unsigned i, unsigned) { return i ^ 1u; }
};
inline FloatBatch swap_pairs(const FloatBatch& v) {
  return xsimd::swizzle(v, xsimd::make_batch_constant<std::uint32_t, FloatBatch::arch_type, SwapPairs>());
}
#endif

}  // namespace sinpe::simd
