// RoPE cos/sin caches (onnxruntime's cos_cache / sin_cache layout) through
// the block kernel: one entry point, rope_cache, for every position source
// (a list, a range, several axes per token, a 2-D patch grid) and every
// output dtype (output.hpp: float32, or float16 / bfloat16 rounded once). A
// call checks its source and its output once (check_cache), then fills the
// cache through one dispatch on the dtype (fill, over the element type).
#include "output.hpp"
#include "rope_internal.hpp"

namespace sinpe {

using detail::AxesRows;
using detail::split_rows;

namespace {

// Cache rows of tokens [0, n) of a multi-axis plan in half precision (Test's
// format): per axis, the rounded rows of its pairs' frequencies, scattered to
// their pairs.
template <class Test>
void axes_half_rows(const detail::RopeData& D, const double* positions, std::size_t n, std::uint16_t* cos,
                    std::uint16_t* sin, bool simd) {
  const std::size_t axes = std::size_t(D.axes), half = std::size_t(D.rotary_dim / 2);
  constexpr std::size_t kChunk = 64;
  std::vector<double> p(kChunk);
  for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
    const std::size_t m = std::min(kChunk, n - i0);
    for (std::size_t a = 0; a < axes; ++a) {
      const detail::PlanData& P = D.axis_rows[a].data();
      const std::vector<std::size_t>& pairs = D.axis_pairs[a];
      const std::size_t k = pairs.size();
      for (std::size_t i = 0; i < m; ++i) p[i] = positions[(i0 + i) * axes + a];
      const auto store = [&](std::size_t i, std::size_t c, std::uint16_t v) {
        const std::size_t row = (i0 + i) * half;
        if (c < k) sin[row + pairs[c]] = v;
        else cos[row + pairs[c - k]] = v;
      };
      detail::Work& work = detail::Work::get(P.freq.size());
      detail::half_rows<Test>(P, p.data(), m, work, simd, store);
    }
  }
}

// Multi-axis cache rows as E's elements: tokens [0, n), positions
// token-major, into cos and sin. Half precision: axes_half_rows.
template <class E>
struct AxesCache {
  const detail::RopeData& D;
  bool simd;
  AxesCache(const detail::RopeData& data, Path path) : D(data), simd(path == Path::best) {}
  void operator()(const double* p, std::size_t n, std::uint16_t* cos, std::uint16_t* sin) const {
    axes_half_rows<typename E::Test>(D, p, n, cos, sin, simd);
  }
};
// float32: the multi-axis kernel (axes_kernel.hpp), one per call.
template <>
struct AxesCache<detail::Element<Dtype::float32>> {
  AxesRows rows;
  bool simd;
  AxesCache(const detail::RopeData& data, Path path)
      : rows(data), simd(path == Path::best && simd_compiled()) {}
  void operator()(const double* p, std::size_t n, float* cos, float* sin) const {
    rows(p, n, cos, sin, simd);
  }
};

// Whether the dtype's range holds the plan's values: |cos|, |sin| reach 1,
// so the largest is the attention factor, and float16 refuses one that
// rounds past its largest finite value (float32 and bfloat16 have the range
// the plan already checked).
Status check_range(const RopePlan& plan, Dtype dtype) {
  if (dtype == Dtype::float16 &&
      detail::round_float16(plan.attention_factor()) > detail::round_float16(limits::max_float16))
    return Status::float16_overflow;
  return Status::ok;
}

// Every check of a call, each once, in this order per source: the plan, the
// source's range, the output (a vocabulary dtype whose range holds the
// values, then, when anything is to be written, its pointers), the
// positions. A Kind outside the enum: bad_count.
Status check_cache(const RopePlan& plan, const Positions& at, const CacheOut& out) {
  const std::size_t n = at.count;
  const auto output = [&]() {
    if (!detail::known_dtype(out.dtype)) return Status::bad_dtype;
    return check_range(plan, out.dtype);
  };
  switch (at.kind) {
    case Positions::Kind::list:
    case Positions::Kind::axes: {
      if (!plan.valid()) return Status::invalid_plan;
      if (Status s = output(); s != Status::ok) return s;
      if (Status s = check_elements(n, std::size_t(plan.rotary_dim() / 2)); s != Status::ok) return s;
      if (n == 0) return Status::ok;
      if (at.values == nullptr || out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
      const std::size_t per = at.kind == Positions::Kind::axes ? std::size_t(plan.axes()) : 1;
      return check_positions(at.values, n * per, nullptr);
    }
    case Positions::Kind::range:
      if (!plan.valid()) return Status::invalid_plan;
      if (Status s = output(); s != Status::ok) return s;
      if (Status s = check_row_range(at.start, n); s != Status::ok) return s;
      if (Status s = check_elements(n, std::size_t(plan.rotary_dim() / 2)); s != Status::ok) return s;
      break;
    case Positions::Kind::grid:
      if (Status s = detail::check_grid_range(plan, at.height, at.width, at.first, n); s != Status::ok)
        return s;
      if (Status s = output(); s != Status::ok) return s;
      break;
    default: return Status::bad_count;  // not a kind of position source
  }
  if (n == 0) return Status::ok;
  if (out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
  return Status::ok;
}

// The cache of a checked call, as E's elements.
template <class E>
void fill(const RopePlan& plan, const Positions& at, const CacheOut& out, Path path) {
  using T = typename E::type;
  T* cos = detail::elements<E>(out.cos);
  T* sin = detail::elements<E>(out.sin);
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const detail::PlanData& P = plan.rows_plan().data();
  const bool simd = path == Path::best;
  switch (at.kind) {
    case Positions::Kind::axes:
      if (plan.axes() > 1) {
        AxesCache<E>(*plan.data(), path)(at.values, at.count, cos, sin);
        return;
      }
      [[fallthrough]];  // one axis: a list
    case Positions::Kind::list:
      E::at(P, at.values, at.count, split_rows(cos, sin, half), detail::Work::get(P.freq.size()), simd);
      return;
    case Positions::Kind::range:
      // The block kernel over the whole range.
      E::range(P, at.start, at.count, split_rows(cos, sin, half), detail::Work::get(P.freq.size()), simd);
      return;
    case Positions::Kind::grid: {
      const AxesCache<E> rows(*plan.data(), path);
      detail::grid_chunks(at.width, at.first, at.count, [&](const double* p, std::size_t m, std::size_t m0) {
        rows(p, m, cos + m0 * half, sin + m0 * half);
      });
      return;
    }
  }
}

}  // namespace

Status rope_cache(const RopePlan& plan, const Positions& at, const CacheOut& out, Path path) {
  if (Status s = check_cache(plan, at, out); s != Status::ok || at.count == 0) return s;
  return detail::with_dtype(out.dtype, [&](auto element) {
    fill<decltype(element)>(plan, at, out, path);
    return Status::ok;
  });
}

}  // namespace sinpe
