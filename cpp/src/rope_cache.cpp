// RoPE cos/sin caches (onnxruntime's cos_cache / sin_cache layout) through
// the block kernel: one entry point, rope_cache, for every position source
// (a list, a range, several axes per token, a 2-D patch grid) and every
// output dtype (float32, or float16 / bfloat16 rounded once).
#include "half_kernel.hpp"
#include "rope_internal.hpp"
#include "rounded_kernel.hpp"

namespace sinpe {

using detail::AxesRows;
using detail::split_rows;

namespace {

// Cache rows at positions[i], i < n: the rows plan's concat row is sines then cosines.
void half_cache(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype, std::uint16_t* cos,
                std::uint16_t* sin, Path path) {
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const auto store = [=](std::size_t i, std::size_t c, std::uint16_t v) {
    if (c < half) sin[i * half + c] = v;
    else cos[i * half + c - half] = v;
  };
  const bool simd = path == Path::best;
  if (dtype == Dtype::float16) detail::half_rows<detail::round_float16>(P, positions, n, w, simd, store);
  else detail::half_rows<detail::round_bfloat16>(P, positions, n, w, simd, store);
}

bool is_half(Dtype dtype) { return dtype == Dtype::float16 || dtype == Dtype::bfloat16; }

// A half dtype whose range holds the plan's values: |cos|, |sin| reach 1, so
// the largest is the attention factor, and float16 refuses one that rounds
// past its largest finite value (bfloat16 has float32's range, which the plan
// already checked).
Status check_half(const RopePlan& plan, Dtype dtype) {
  if (!is_half(dtype)) return Status::bad_dtype;
  if (dtype == Dtype::float16 &&
      detail::round_float16(plan.attention_factor()) > detail::round_float16(limits::max_float16))
    return Status::float16_overflow;
  return Status::ok;
}

// Cache rows of tokens [0, n) of a multi-axis plan in half precision: per
// axis, the rounded rows of its pairs' frequencies, scattered to their pairs.
void axes_half_rows(const detail::RopeData& D, const double* positions, std::size_t n, Dtype dtype,
                    std::uint16_t* cos, std::uint16_t* sin, bool simd) {
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
      if (dtype == Dtype::float16)
        detail::half_rows<detail::round_float16>(P, p.data(), m, work, simd, store);
      else detail::half_rows<detail::round_bfloat16>(P, p.data(), m, work, simd, store);
    }
  }
}

// The output's dtype: float32, or a half dtype that holds the plan's values.
Status check_out(const RopePlan& plan, Dtype dtype) {
  return dtype == Dtype::float32 ? Status::ok : check_half(plan, dtype);
}

bool is_float32(const CacheOut& out) { return out.dtype == Dtype::float32; }
float* floats(void* p) { return static_cast<float*>(p); }
std::uint16_t* bits(void* p) { return static_cast<std::uint16_t*>(p); }

// One position per token, on every axis.
Status cache_list(const RopePlan& plan, const double* positions, std::size_t n, const CacheOut& out,
                  Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_out(plan, out.dtype); s != Status::ok) return s;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  if (is_float32(out)) {
    const detail::PlanData& P = plan.rows_plan().data();
    detail::Work& w = detail::Work::get(P.freq.size());
    detail::exact_positions_into(P, positions, n, split_rows(floats(out.cos), floats(out.sin), half), w,
                                 path == Path::best);
  } else {
    half_cache(plan, positions, n, out.dtype, bits(out.cos), bits(out.sin), path);
  }
  return Status::ok;
}

// Positions start, start + 1, ..., start + count - 1: the block kernel over the whole range.
Status cache_range(const RopePlan& plan, double start, std::size_t count, const CacheOut& out, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_out(plan, out.dtype); s != Status::ok) return s;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  if (Status s = check_elements(count, half); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  const bool simd = path == Path::best;
  if (is_float32(out)) {
    detail::exact_rows_into(P, start, count, split_rows(floats(out.cos), floats(out.sin), half), w, simd);
    return Status::ok;
  }
  // The rows plan's concat row is sines then cosines.
  const detail::RowsOf<std::uint16_t> dst{nullptr, bits(out.sin), bits(out.cos), nullptr, half};
  if (out.dtype == Dtype::float16) detail::half_range<detail::Float16Test>(P, start, count, dst, w, simd);
  else detail::half_range<detail::BFloat16Test>(P, start, count, dst, w, simd);
  return Status::ok;
}

// plan.axes() positions per token, token-major.
Status cache_axes(const RopePlan& plan, const double* positions, std::size_t n, const CacheOut& out,
                  Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() == 1) return cache_list(plan, positions, n, out, path);
  if (Status s = check_out(plan, out.dtype); s != Status::ok) return s;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2), axes = std::size_t(plan.axes());
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n * axes, nullptr); s != Status::ok) return s;
  if (is_float32(out)) {
    const AxesRows rows(*plan.data());
    rows(positions, n, floats(out.cos), floats(out.sin), path == Path::best && simd_compiled());
  } else {
    axes_half_rows(*plan.data(), positions, n, out.dtype, bits(out.cos), bits(out.sin), path == Path::best);
  }
  return Status::ok;
}

// Patches [first, first + count) of a height x width grid.
Status cache_grid(const RopePlan& plan, const Positions& at, const CacheOut& out, Path path) {
  if (Status s = detail::check_grid_range(plan, at.height, at.width, at.first, at.count); s != Status::ok)
    return s;
  if (Status s = check_out(plan, out.dtype); s != Status::ok) return s;
  if (at.count == 0) return Status::ok;
  if (out.cos == nullptr || out.sin == nullptr) return Status::null_pointer;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  if (is_float32(out)) {
    float *cos = floats(out.cos), *sin = floats(out.sin);
    const AxesRows rows(*plan.data());
    const bool simd = path == Path::best && simd_compiled();
    detail::grid_chunks(at.width, at.first, at.count, [&](const double* p, std::size_t m, std::size_t m0) {
      rows(p, m, cos + m0 * half, sin + m0 * half, simd);
    });
  } else {
    std::uint16_t *cos = bits(out.cos), *sin = bits(out.sin);
    detail::grid_chunks(at.width, at.first, at.count, [&](const double* p, std::size_t m, std::size_t m0) {
      axes_half_rows(*plan.data(), p, m, out.dtype, cos + m0 * half, sin + m0 * half, path == Path::best);
    });
  }
  return Status::ok;
}

}  // namespace

Status rope_cache(const RopePlan& plan, const Positions& at, const CacheOut& out, Path path) {
  switch (at.kind) {
    case Positions::Kind::list: return cache_list(plan, at.values, at.count, out, path);
    case Positions::Kind::range: return cache_range(plan, at.start, at.count, out, path);
    case Positions::Kind::axes: return cache_axes(plan, at.values, at.count, out, path);
    case Positions::Kind::grid: return cache_grid(plan, at, out, path);
  }
  return Status::bad_count;  // not a kind of position source
}

}  // namespace sinpe
