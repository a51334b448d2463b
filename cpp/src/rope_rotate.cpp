// In-place RoPE rotation of query/key buffers: cache rows of 64 tokens at a
// time, each token's heads rotated in the half or interleaved layout.
#include "rope_internal.hpp"
#include "rounded_kernel.hpp"

namespace sinpe {

using detail::AxesRows;
using detail::split_rows;

Status check_head_dim(const RopePlan& plan, int head_dim) noexcept {
  if (head_dim < 1 || head_dim > kMaxDModel) return Status::bad_head_dim;
  if (plan.valid() && plan.rotary_dim() > head_dim) return Status::rotary_dim_above_head_dim;
  return Status::ok;
}

namespace {

// x'_a = x_a c - x_b s, x'_b = x_b c + x_a s for pairs (j, j + half), W lanes at a time.
template <class V>
std::size_t rotate_half(std::size_t j, std::size_t half, const float* c, const float* s, float* x) {
  constexpr std::size_t W = simd::lanes<V>;
  for (; j + W <= half; j += W) {
    const V xa = simd::load<V>(x + j), xb = simd::load<V>(x + j + half);
    const V vc = simd::load<V>(c + j), vs = simd::load<V>(s + j);
    simd::store<false>(x + j, xa * vc - xb * vs);
    simd::store<false>(x + j + half, xb * vc + xa * vs);
  }
  return j;
}

// Pairs (2j, 2j+1). The SIMD path rotates whole vectors: x' = x c2 + swap(x) s2
// with c2 = (c_j, c_j), s2 = (-s_j, s_j) per pair, the same products and sums.
std::size_t rotate_interleaved_simd(std::size_t i, std::size_t r, const float* c2, const float* s2,
                                    float* x) {
#if SINPE_SIMD
  using V = simd::FloatBatch;
  constexpr std::size_t W = simd::lanes<V>;
  for (; i + W <= r; i += W) {
    const V v = simd::load<V>(x + i);
    simd::store<false>(x + i, v * simd::load<V>(c2 + i) + simd::swap_pairs(v) * simd::load<V>(s2 + i));
  }
#else
  (void)r, (void)c2, (void)s2, (void)x;
#endif
  return i;
}

void rotate_interleaved_scalar(std::size_t i, std::size_t r, const float* c, const float* s, float* x) {
  for (; i < r; i += 2) {
    const float xa = x[i], xb = x[i + 1], cj = c[i / 2], sj = s[i / 2];
    x[i] = xa * cj - xb * sj;
    x[i + 1] = xb * cj + xa * sj;
  }
}

constexpr std::size_t kTokensPerChunk = 64;

// Rotates n tokens of x; fill(t0, tokens, cos, sin) makes the cache rows of
// tokens [t0, t0 + tokens).
template <class Fill>
void rotate(const RopePlan& plan, RopeLayout layout, int head_dim, std::size_t n, std::size_t num_heads,
            float* x, bool simd, Fill fill) {
  const std::size_t r = std::size_t(plan.rotary_dim()), half = r / 2, hd = std::size_t(head_dim);
  thread_local std::vector<float> cos, sin, c2, s2;
  cos.resize(kTokensPerChunk * half);
  sin.resize(kTokensPerChunk * half);
  c2.resize(r);
  s2.resize(r);
  for (std::size_t t0 = 0; t0 < n; t0 += kTokensPerChunk) {
    const std::size_t tokens = std::min(kTokensPerChunk, n - t0);
    fill(t0, tokens, cos.data(), sin.data());
    for (std::size_t t = 0; t < tokens; ++t) {
      const float* c = cos.data() + t * half;
      const float* s = sin.data() + t * half;
      float* token = x + (t0 + t) * num_heads * hd;
      if (layout == RopeLayout::half) {
        for (std::size_t h = 0; h < num_heads; ++h) {
          float* v = token + h * hd;
          std::size_t j = 0;
          if (simd) j = rotate_half<simd::FloatBatch>(j, half, c, s, v);
          rotate_half<float>(j, half, c, s, v);
        }
      } else {
        if (simd)
          for (std::size_t j = 0; j < half; ++j) {
            c2[2 * j] = c2[2 * j + 1] = c[j];
            s2[2 * j] = -s[j];
            s2[2 * j + 1] = s[j];
          }
        for (std::size_t h = 0; h < num_heads; ++h) {
          float* v = token + h * hd;
          const std::size_t i = simd ? rotate_interleaved_simd(0, r, c2.data(), s2.data(), v) : 0;
          rotate_interleaved_scalar(i, r, c, s, v);
        }
      }
    }
  }
}

// The checks apply_rope and apply_rope_axes share, before anything is read.
Status check_apply(const RopePlan& plan, RopeLayout layout, int head_dim, std::size_t n,
                   std::size_t num_heads) {
  if (!plan.valid()) return Status::invalid_plan;
  if (int(layout) < 0 || int(layout) > int(RopeLayout::interleaved)) return Status::bad_rope_layout;
  if (Status s = check_head_dim(plan, head_dim); s != Status::ok) return s;
  if (num_heads != 0 && n > kMaxElements / num_heads / std::size_t(head_dim)) return Status::too_large;
  return Status::ok;
}

}  // namespace

namespace {

// One position per token (a list), on every axis.
Status rotate_list(const RopePlan& plan, RopeLayout layout, int head_dim, const double* positions,
                   std::size_t n, std::size_t num_heads, float* x, Path path) {
  if (Status s = check_apply(plan, layout, head_dim, n, num_heads); s != Status::ok) return s;
  if (n == 0 || num_heads == 0) return Status::ok;
  if (positions == nullptr || x == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  const detail::PlanData& P = plan.rows_plan().data();
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const bool simd = path == Path::best && simd_compiled();
  detail::Work& w = detail::Work::get(P.freq.size());
  rotate(plan, layout, head_dim, n, num_heads, x, simd,
         [&](std::size_t t0, std::size_t tokens, float* cos, float* sin) {
           detail::exact_positions_into(P, positions + t0, tokens, split_rows(cos, sin, half), w, simd);
         });
  return Status::ok;
}

// Positions start, start + 1, ..., start + n - 1, on every axis.
Status rotate_range(const RopePlan& plan, RopeLayout layout, int head_dim, double start, std::size_t n,
                    std::size_t num_heads, float* x, Path path) {
  if (Status s = check_apply(plan, layout, head_dim, n, num_heads); s != Status::ok) return s;
  if (Status s = check_row_range(start, n); s != Status::ok) return s;
  if (n == 0 || num_heads == 0) return Status::ok;
  if (x == nullptr) return Status::null_pointer;
  const detail::PlanData& P = plan.rows_plan().data();
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const bool simd = path == Path::best && simd_compiled();
  detail::Work& w = detail::Work::get(P.freq.size());
  rotate(plan, layout, head_dim, n, num_heads, x, simd,
         [&](std::size_t t0, std::size_t tokens, float* cos, float* sin) {
           detail::exact_rows_into(P, start + double(t0), tokens, split_rows(cos, sin, half), w, simd);
         });
  return Status::ok;
}

// plan.axes() positions per token, token-major.
Status rotate_axes(const RopePlan& plan, RopeLayout layout, int head_dim, const double* positions,
                   std::size_t n, std::size_t num_heads, float* x, Path path) {
  if (Status s = check_apply(plan, layout, head_dim, n, num_heads); s != Status::ok) return s;
  if (plan.axes() == 1) return rotate_list(plan, layout, head_dim, positions, n, num_heads, x, path);
  if (n == 0 || num_heads == 0) return Status::ok;
  if (positions == nullptr || x == nullptr) return Status::null_pointer;
  const std::size_t axes = std::size_t(plan.axes());
  if (Status s = check_positions(positions, n * axes, nullptr); s != Status::ok) return s;
  const bool simd = path == Path::best && simd_compiled();
  const AxesRows rows(*plan.data());
  rotate(plan, layout, head_dim, n, num_heads, x, simd,
         [&](std::size_t t0, std::size_t tokens, float* cos, float* sin) {
           rows(positions + t0 * axes, tokens, cos, sin, simd);
         });
  return Status::ok;
}

// Patches [first, first + count) of a height x width grid, one token each.
Status rotate_grid(const RopePlan& plan, RopeLayout layout, int head_dim, const Positions& at,
                   std::size_t num_heads, float* x, Path path) {
  if (Status s = check_apply(plan, layout, head_dim, at.count, num_heads); s != Status::ok) return s;
  if (Status s = detail::check_grid_range(plan, at.height, at.width, at.first, at.count); s != Status::ok)
    return s;
  if (at.count == 0 || num_heads == 0) return Status::ok;
  if (x == nullptr) return Status::null_pointer;
  const bool simd = path == Path::best && simd_compiled();
  const AxesRows rows(*plan.data());
  double p[2 * kTokensPerChunk];
  rotate(plan, layout, head_dim, at.count, num_heads, x, simd,
         [&](std::size_t t0, std::size_t tokens, float* cos, float* sin) {
           for (std::size_t i = 0; i < tokens; ++i) {
             const std::size_t patch = at.first + t0 + i;
             p[2 * i] = double(patch / at.width);
             p[2 * i + 1] = double(patch % at.width);
           }
           rows(p, tokens, cos, sin, simd);
         });
  return Status::ok;
}

}  // namespace

Status apply_rope(const RopePlan& plan, RopeLayout layout, int head_dim, const Positions& at,
                  std::size_t num_heads, float* x, Path path) {
  switch (at.kind) {
    case Positions::Kind::list:
      return rotate_list(plan, layout, head_dim, at.values, at.count, num_heads, x, path);
    case Positions::Kind::range:
      return rotate_range(plan, layout, head_dim, at.start, at.count, num_heads, x, path);
    case Positions::Kind::axes:
      return rotate_axes(plan, layout, head_dim, at.values, at.count, num_heads, x, path);
    case Positions::Kind::grid: return rotate_grid(plan, layout, head_dim, at, num_heads, x, path);
  }
  return Status::bad_count;  // not a kind of position source
}

}  // namespace sinpe
