// The float32 recipe of RoPE caches (sinpe/rope_recipe.hpp).
//
// What transformers' rotary embeddings and onnxruntime-genai's
// make_rotary_embedding_caches_from_scratch compute in float32:
//   inv_freq  float32 tensor: the rope type's rule in float32 arithmetic, op by
//             op, with a correctly rounded float32 pow (plan.inv_freq_float32())
//   t         = arange(N).float()                     position as float32
//   freqs     = outer(t, inv_freq)                    float32 product
//   cos, sin  = freqs.cos(), freqs.sin()              float32
//   cos, sin *= attention factor                      float32 product
//   cache     = cos.to(dtype)                         one cast
// The cos/sin of the float32 angle are evaluated in float64 and rounded to
// float32 (correctly rounded but for ties); torch's own float32 cos/sin are
// within ~1 ulp of that. The angle's float32 rounding is what makes the
// recipe drift from the exact values: |p inv| 2^-24 radians (2e-4 at
// position 4096, 9e-3 at 131072).
//
// C++ float arithmetic is IEEE binary32 here (FLT_EVAL_METHOD 0 on wasm and
// x86-64 SSE), so each float expression below rounds as torch's kernels do.
#include "sinpe/rope_recipe.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "output.hpp"

namespace sinpe {

namespace {

// n tokens of A positions each, rows written from row `row0` on, each value
// cast once to E's element type.
template <class E>
void float32_rows(const RopePlan& plan, const double* positions, std::size_t n, typename E::type* cos,
                  typename E::type* sin, std::size_t row0) {
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const auto A = std::size_t(plan.axes());
  const std::vector<float>& inv32 = plan.inv_freq_float32();
  const std::vector<int>& pair_axes = plan.pair_axes();
  const auto att = float(plan.attention_factor());
  const bool scaled = att != 1.0f;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < half; ++j) {
      const std::size_t axis = A == 1 ? 0 : std::size_t(pair_axes[j]);
      const auto t = float(positions[i * A + axis]);
      const float angle = t * inv32[j];
      auto c = float(std::cos(double(angle)));
      auto s = float(std::sin(double(angle)));
      if (scaled) {
        c = c * att;
        s = s * att;
      }
      const std::size_t at = (row0 + i) * half + j;
      cos[at] = E::round(double(c));
      sin[at] = E::round(double(s));
    }
  }
}

Status common_checks(const RopePlan& plan, Dtype dtype, std::size_t n) {
  if (!plan.valid()) return Status::invalid_plan;
  if (!detail::known_dtype(dtype)) return Status::bad_dtype;
  return check_elements(n, std::size_t(plan.rotary_dim() / 2));
}

// The float32 recipe's checks of each position source (after common_checks).
Status check_source(const RopePlan& plan, const Positions& at, const CacheOut& out) {
  const std::size_t n = at.count;
  switch (at.kind) {
    case Positions::Kind::list:
    case Positions::Kind::axes: {
      if (n == 0) return Status::ok;
      if (at.values == nullptr || out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
      const std::size_t per = at.kind == Positions::Kind::axes ? std::size_t(plan.axes()) : 1;
      return check_positions(at.values, n * per, nullptr);
    }
    case Positions::Kind::range:
      if (Status s = check_row_range(at.start, n); s != Status::ok) return s;
      break;
    case Positions::Kind::grid:
      if (plan.axes() != 2) return Status::axes_mismatch;
      if (at.width != 0 && at.height > std::size_t(kMaxElements) / at.width) return Status::too_large;
      if (at.first > at.height * at.width || n > at.height * at.width - at.first) return Status::bad_count;
      break;
    default: return Status::bad_count;  // not a kind of position source
  }
  if (n == 0) return Status::ok;
  if (out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
  return Status::ok;
}

// Tokens [i0, i0 + m) of `at` as plan.axes() positions each, token-major.
void token_positions(const Positions& at, std::size_t A, std::size_t i0, std::size_t m, double* p) {
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t t = i0 + i;
    switch (at.kind) {
      case Positions::Kind::axes:
        for (std::size_t a = 0; a < A; ++a) p[i * A + a] = at.values[t * A + a];
        break;
      case Positions::Kind::list:
        for (std::size_t a = 0; a < A; ++a) p[i * A + a] = at.values[t];
        break;
      case Positions::Kind::range:
        for (std::size_t a = 0; a < A; ++a) p[i * A + a] = at.start + double(t);
        break;
      case Positions::Kind::grid: {
        const std::size_t patch = at.first + t;
        p[2 * i] = double(patch / at.width);
        p[2 * i + 1] = double(patch % at.width);
        break;
      }
    }
  }
}

}  // namespace

Status rope_cache_recipe(const RopePlan& plan, Recipe recipe, const Positions& at, const CacheOut& out) {
  // The exact cache checks everything, its dtype included, itself.
  if (recipe == Recipe::exact) return rope_cache(plan, at, out);
  if (Status s = common_checks(plan, out.dtype, at.count); s != Status::ok) return s;
  if (recipe != Recipe::float32) return Status::bad_recipe;
  if (Status s = check_source(plan, at, out); s != Status::ok || at.count == 0) return s;
  return detail::with_dtype(out.dtype, [&](auto element) {
    using E = decltype(element);
    const auto A = std::size_t(plan.axes());
    constexpr std::size_t kChunk = 1024;
    std::vector<double> p(std::min(at.count, kChunk) * A);
    for (std::size_t i0 = 0; i0 < at.count; i0 += kChunk) {
      const std::size_t m = std::min(kChunk, at.count - i0);
      token_positions(at, A, i0, m, p.data());
      // A grid's row and column indices are positions too.
      if (at.kind == Positions::Kind::grid)
        if (Status s = check_positions(p.data(), 2 * m, nullptr); s != Status::ok) return s;
      float32_rows<E>(plan, p.data(), m, detail::elements<E>(out.cos), detail::elements<E>(out.sin), i0);
    }
    return Status::ok;
  });
}

}  // namespace sinpe
