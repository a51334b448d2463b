// One output element type per vocabulary dtype (vocabulary.def's SINPE_DTYPE),
// and the one switch from a Dtype to it. Element<D> names the dtype's C++
// element type, its rounding of a float64 value, and its row pipeline: float32
// rounded once (rounded_kernel.hpp), float16 / bfloat16 rounded once
// (half_kernel.hpp), each with the same two calls (a range of rows, rows at
// any positions). with_dtype(t, f) calls f(Element<t>{}), so code written once
// over the element type is instantiated per vocabulary dtype; a dtype added to
// the vocabulary fails to compile here until it has an Element. Nothing here
// checks: a public entry point checks its output once (known_dtype, its null
// pointers) before it dispatches.
#pragma once

#include <cstddef>
#include <cstdint>

#include "block_rows.hpp"
#include "half.hpp"
#include "half_kernel.hpp"
#include "plan_data.hpp"
#include "rounded_kernel.hpp"
#include "sinpe/sinpe.hpp"

namespace sinpe::detail {

#define SINPE_PIPELINE __attribute__((noinline))

// Whether t is one of the vocabulary's dtypes.
constexpr bool known_dtype(Dtype t) noexcept { return int(t) >= 0 && int(t) < kDtypeCount; }

// float32: every value its float64 value rounded once (rounded_kernel.hpp).
struct Float32Pipeline {
  using type = float;
  static float round(double v) noexcept { return float(v); }
  // Rows start ... start+count-1 into dst. Each pipeline call is a function of
  // its own (SINPE_PIPELINE), not inlined into its dispatch: one function
  // holding every dtype's pipeline made float32 tables 2.6 times slower
  // under V8 (wasm SIMD).
  SINPE_PIPELINE static void range(const PlanData& P, double start, std::size_t count,
                                   const RowsOf<float>& dst, Work& w, bool simd) {
    exact_rows_into(P, start, count, dst, w, simd);
  }
  // Rows at positions[i], i < n, into dst.
  SINPE_PIPELINE static void at(const PlanData& P, const double* positions, std::size_t n,
                                const RowsOf<float>& dst, Work& w, bool simd) {
    exact_positions_into(P, positions, n, dst, w, simd);
  }
};

// float16 or bfloat16 (Test: Float16Test, BFloat16Test): bit patterns, every
// value its float64 value rounded once (half_kernel.hpp).
template <class HalfTest, std::uint16_t (*Round)(double) noexcept>
struct HalfPipeline {
  using type = std::uint16_t;
  using Test = HalfTest;
  static std::uint16_t round(double v) noexcept { return Round(v); }
  SINPE_PIPELINE static void range(const PlanData& P, double start, std::size_t count,
                                   const RowsOf<std::uint16_t>& dst, Work& w, bool simd) {
    half_range<Test>(P, start, count, dst, w, simd);
  }
  // dst: whole rows in the plan's layout (dst.row), or a concat plan's sines
  // and cosines in arrays of their own (row == nullptr: RoPE's cos/sin).
  SINPE_PIPELINE static void at(const PlanData& P, const double* positions, std::size_t n,
                                const RowsOf<std::uint16_t>& dst, Work& w, bool simd) {
    const std::size_t stride = dst.stride;
    if (dst.row) {
      std::uint16_t* out = dst.row;
      half_rows<Test>(P, positions, n, w, simd, [out, stride](std::size_t i, std::size_t c, std::uint16_t v) {
        out[i * stride + c] = v;
      });
    } else {
      std::uint16_t *sin = dst.sin, *cos = dst.cos;
      const std::size_t h = std::size_t(P.pairs);
      half_rows<Test>(P, positions, n, w, simd, [=](std::size_t i, std::size_t c, std::uint16_t v) {
        if (c < h) sin[i * stride + c] = v;
        else cos[i * stride + c - h] = v;
      });
    }
  }
};

template <Dtype D>
struct Element;
template <>
struct Element<Dtype::float32> : Float32Pipeline {};
template <>
struct Element<Dtype::float16> : HalfPipeline<Float16Test, round_float16> {};
template <>
struct Element<Dtype::bfloat16> : HalfPipeline<BFloat16Test, round_bfloat16> {};

// f(Element<t>{}) for a vocabulary dtype t, else Status::bad_dtype.
template <class F>
Status with_dtype(Dtype t, F&& f) {
  switch (t) {
// clang-format off
#define SINPE_DTYPE(id, name, bytes) \
  case Dtype::id: \
    return f(Element<Dtype::id>{});
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return Status::bad_dtype;
}

// The output's elements as the pipeline's type.
template <class E>
typename E::type* elements(void* p) noexcept {
  return static_cast<typename E::type*>(p);
}

}  // namespace sinpe::detail
