// The sinusoidal entry points: rows, add_rows, encode, grid2d, heatmap. The
// pipelines are float32_kernel.hpp, rounded_kernel.hpp and half_kernel.hpp.
#include <cstdint>
#include <cstring>

#include "colour.hpp"
#include "float32_kernel.hpp"
#include "output.hpp"
#include "rounded_kernel.hpp"

namespace sinpe {

bool simd_compiled() noexcept { return simd::lanes<simd::FloatBatch> > 1; }

namespace {

using detail::PlanData;
using detail::Rows;
using detail::Work;

// The pairs whose sine or cosine lies in columns [c0, c1) of the plan's layout.
detail::Pairs window_pairs(const PlanData& P, std::size_t c0, std::size_t c1) {
  const std::size_t h = std::size_t(P.pairs);
  if (P.layout == Layout::interleaved) return {c0 / 2, std::min(h, (c1 + 1) / 2)};
  // Split layouts: columns [0, h) hold one function of pairs 0..h-1, [h, 2h) the other.
  std::size_t first = SIZE_MAX, end = 0;
  const auto add = [&](std::size_t lo, std::size_t hi) {
    if (lo >= hi) return;
    first = std::min(first, lo);
    end = std::max(end, hi);
  };
  add(c0, std::min(c1, h));
  add(std::max(c0, h) - h, std::min(c1, 2 * h) - std::min(std::min(c1, 2 * h), h));
  return first < end ? detail::Pairs{first, end} : detail::Pairs{0, 0};
}

}  // namespace

Status rows(const Plan& plan, double start, std::size_t count, const Output& out, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (!detail::known_dtype(out.dtype)) return Status::bad_dtype;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  if (Status s = check_elements(count, std::size_t(plan.d_model())); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (out.data == nullptr) return Status::null_pointer;
  const PlanData& P = plan.data();
  Work& w = Work::get(P.freq.size());
  return detail::with_dtype(out.dtype, [&](auto element) {
    using E = decltype(element);
    E::range(P, start, count, detail::rows_at(P, detail::elements<E>(out.data)), w, path == Path::best);
    return Status::ok;
  });
}

Status add_rows(const Plan& plan, double start, std::size_t count, float* inout, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  if (Status s = check_elements(count, std::size_t(plan.d_model())); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (inout == nullptr) return Status::null_pointer;
  const PlanData& P = plan.data();
  Work& w = Work::get(P.freq.size());
  detail::rows_into<true>(P, start, count, detail::rows_at(P, inout), w, path == Path::best);
  return Status::ok;
}

Status encode(const Plan& plan, const double* positions, std::size_t n, const Output& out, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (!detail::known_dtype(out.dtype)) return Status::bad_dtype;
  if (Status s = check_elements(n, std::size_t(plan.d_model())); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || out.data == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  const PlanData& P = plan.data();
  Work& w = Work::get(P.freq.size());
  return detail::with_dtype(out.dtype, [&](auto element) {
    using E = decltype(element);
    E::at(P, positions, n, detail::rows_at(P, detail::elements<E>(out.data)), w, path == Path::best);
    return Status::ok;
  });
}

std::uint16_t round_to_float16(double v) noexcept { return detail::round_float16(v); }
std::uint16_t round_to_bfloat16(double v) noexcept { return detail::round_bfloat16(v); }

Status grid2d(const Plan& axis, std::size_t height, std::size_t width, bool cls_token, std::size_t first,
              std::size_t count, float* out, Path path) {
  if (!axis.valid()) return Status::invalid_plan;
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  const std::size_t D = std::size_t(axis.d_model());
  const std::size_t d = 2 * D;
  if (width != 0 && height > (kMaxElements / d) / width) return Status::too_large;
  const std::size_t cells = height * width + (cls_token ? 1 : 0);
  if (first > cells || count > cells - first) return Status::bad_count;
  if (count == 0) return Status::ok;
  if (out == nullptr) return Status::null_pointer;
  const bool simd = path == Path::best;
  const PlanData& P = axis.data();
  Work& w = Work::get(P.freq.size());
  std::vector<float> xs(std::min(count, width) * D), y(D);
  std::size_t m = first;
  const std::size_t end = first + count;
  float* o = out;
  if (cls_token && m == 0) {
    std::fill_n(o, d, 0.f);
    o += d;
    ++m;
  }
  // One grid row (or the part of it in the window) at a time: the column
  // coordinates' encodings, then the row coordinate's, interleaved per cell.
  while (m < end) {
    const std::size_t cell = m - (cls_token ? 1 : 0);
    const std::size_t r = cell / width, c = cell % width;
    const std::size_t n = std::min(width - c, end - m);
    detail::exact_rows_into(P, double(c), n, detail::rows_at(P, xs.data()), w, simd);
    detail::exact_rows_into(P, double(r), 1, detail::rows_at(P, y.data()), w, simd);
    for (std::size_t i = 0; i < n; ++i, o += d) {
      std::memcpy(o, &xs[i * D], D * sizeof(float));
      std::memcpy(o + D, y.data(), D * sizeof(float));
    }
    m += n;
  }
  return Status::ok;
}

Status grid2d(const Plan& axis, std::size_t height, std::size_t width, bool cls_token, float* out,
              Path path) {
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  return grid2d(axis, height, width, cls_token, 0, height * width + (cls_token ? 1 : 0), out, path);
}

Status heatmap(const Plan& plan, double start, std::size_t count, int col0, int cols, const std::uint8_t* lut,
               double vmin, double vmax, std::uint8_t* out, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  if (Status s = check_column_window(plan, col0, cols); s != Status::ok) return s;
  if (Status s = check_value_range(vmin, vmax); s != Status::ok) return s;
  if (Status s = check_elements(count, std::size_t(cols)); s != Status::ok) return s;
  if (count == 0 || cols == 0) return Status::ok;
  if (lut == nullptr || out == nullptr) return Status::null_pointer;
  const PlanData& P = plan.data();
  const std::size_t d = std::size_t(P.d_model);
  Work& w = Work::get(P.freq.size());
  thread_local std::vector<float> block;
  block.resize(std::size_t(P.block) * d);
  const colour::ColourScale scale = colour::colour_scale(vmin, vmax);
  const auto* table = reinterpret_cast<const std::uint32_t*>(lut);
  const bool simd = path == Path::best;
  detail::run<false>(
      P, start, count, w, simd, [&](std::size_t, int) { return detail::rows_at(P, block.data()); },
      [&](std::size_t done, int nrows) {
        for (int j = 0; j < nrows; ++j) {
          const float* v = block.data() + std::size_t(j) * d + std::size_t(col0);
          auto* px = reinterpret_cast<std::uint32_t*>(out + (done + std::size_t(j)) * std::size_t(cols) * 4);
          if (simd) colour::colourize(v, std::size_t(cols), scale, table, px);
          else colour::colourize_scalar(v, std::size_t(cols), scale, table, px);
        }
      },
      window_pairs(P, std::size_t(col0), std::size_t(col0 + cols)));
  return Status::ok;
}

}  // namespace sinpe
