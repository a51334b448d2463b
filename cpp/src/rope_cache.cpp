// RoPE cos/sin caches (onnxruntime's cos_cache / sin_cache layout) through
// the block kernel: float32 and half precision, one position per token,
// several axes per token, and 2-D patch grids.
#include "rope_internal.hpp"

namespace sinpe {

using detail::AxesRows;
using detail::split_rows;

Status rope_cache_rows(const RopePlan& plan, double start, std::size_t count, float* cos, float* sin,
                       Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  if (Status s = check_elements(count, half); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  detail::rows_into<false>(P, start, count, split_rows(cos, sin, half), w, path == Path::best);
  return Status::ok;
}

Status rope_cache(const RopePlan& plan, const double* positions, std::size_t n, float* cos, float* sin,
                  Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  detail::positions_into(P, positions, n, split_rows(cos, sin, half), w, path == Path::best);
  return Status::ok;
}

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

}  // namespace

Status rope_cache_rows(const RopePlan& plan, double start, std::size_t count, Dtype dtype, std::uint16_t* cos,
                       std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  if (Status s = check_elements(count, std::size_t(plan.rotary_dim() / 2)); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  // The block kernel over the whole range; the rows plan's concat row is sines then cosines.
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const auto sink = [=](std::size_t i, const float* row, double p, const auto& rows) {
    rows.convert(row, p, 0, half, sin + i * half);
    rows.convert(row, p, half, 2 * half, cos + i * half);
  };
  const bool simd = path == Path::best;
  if (dtype == Dtype::float16) detail::half_range<detail::Float16Test>(P, start, count, w, simd, sink);
  else detail::half_range<detail::BFloat16Test>(P, start, count, w, simd, sink);
  return Status::ok;
}

Status rope_cache(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype,
                  std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  if (Status s = check_elements(n, std::size_t(plan.rotary_dim() / 2)); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  half_cache(plan, positions, n, dtype, cos, sin, path);
  return Status::ok;
}
Status rope_cache_axes(const RopePlan& plan, const double* positions, std::size_t n, float* cos, float* sin,
                       Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() == 1) return rope_cache(plan, positions, n, cos, sin, path);
  const std::size_t half = std::size_t(plan.rotary_dim() / 2), axes = std::size_t(plan.axes());
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n * axes, nullptr); s != Status::ok) return s;
  const AxesRows rows(*plan.data());
  rows(positions, n, cos, sin, path == Path::best && simd_compiled());
  return Status::ok;
}
namespace {

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

// The checks of a range of grid patches.
Status check_grid_range(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                        std::size_t count) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() != 2) return Status::axes_mismatch;
  // Every row and column index is a position below 2^24.
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  if (width != 0 && height > kMaxElements / width) return Status::too_large;
  const std::size_t n = height * width;
  if (first > n || count > n - first) return Status::bad_count;
  return check_elements(count, std::size_t(plan.rotary_dim() / 2));
}

// Calls fill(patch positions, patches, patch offset) for patches [first,
// first + count), in chunks: (row, column) per patch, row-major.
template <class Fill>
void grid_chunks(std::size_t width, std::size_t first, std::size_t count, Fill fill) {
  constexpr std::size_t kChunk = 4096;
  std::vector<double> p(2 * std::min(count, kChunk));
  for (std::size_t m0 = 0; m0 < count; m0 += kChunk) {
    const std::size_t m = std::min(kChunk, count - m0);
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t patch = first + m0 + i;
      p[2 * i] = double(patch / width);
      p[2 * i + 1] = double(patch % width);
    }
    fill(p.data(), m, m0);
  }
}

}  // namespace

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                       std::size_t count, float* cos, float* sin, Path path) {
  if (Status s = check_grid_range(plan, height, width, first, count); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const AxesRows rows(*plan.data());
  const bool simd = path == Path::best && simd_compiled();
  grid_chunks(width, first, count, [&](const double* p, std::size_t m, std::size_t m0) {
    rows(p, m, cos + m0 * half, sin + m0 * half, simd);
  });
  return Status::ok;
}

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, float* cos, float* sin,
                       Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() != 2) return Status::axes_mismatch;
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  if (width != 0 && height > kMaxElements / width) return Status::too_large;
  return rope_cache_grid(plan, height, width, 0, height * width, cos, sin, path);
}

Status rope_cache_axes(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype,
                       std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() == 1) return rope_cache(plan, positions, n, dtype, cos, sin, path);
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2), axes = std::size_t(plan.axes());
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n * axes, nullptr); s != Status::ok) return s;
  axes_half_rows(*plan.data(), positions, n, dtype, cos, sin, path == Path::best);
  return Status::ok;
}

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                       std::size_t count, Dtype dtype, std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (Status s = check_grid_range(plan, height, width, first, count); s != Status::ok) return s;
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  grid_chunks(width, first, count, [&](const double* p, std::size_t m, std::size_t m0) {
    axes_half_rows(*plan.data(), p, m, dtype, cos + m0 * half, sin + m0 * half, path == Path::best);
  });
  return Status::ok;
}

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, Dtype dtype,
                       std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() != 2) return Status::axes_mismatch;
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  if (width != 0 && height > kMaxElements / width) return Status::too_large;
  return rope_cache_grid(plan, height, width, 0, height * width, dtype, cos, sin, path);
}

}  // namespace sinpe
