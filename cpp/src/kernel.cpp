// The row kernel.
//
// Rows of a sinusoidal table are rotations of each other:
//   sin((p0+j)w) = sin(p0 w) cos(j w) + cos(p0 w) sin(j w)
//   cos((p0+j)w) = cos(p0 w) cos(j w) - sin(p0 w) sin(j w)
// Rows are made in blocks of B (<= 64). For each block the anchor
// (sin, cos)(p0 w) is known in float64 (directly, by trig.hpp's sincos of the
// angle p0*w rounded as the float64 formula rounds it, or by stepping the
// previous block's anchor in float64, re-anchoring directly every kReanchor
// blocks), then rounded once to float32; cos/sin(j w)
// for j < B come from the plan's float32 table. So every output value is one
// float32 expression a*c + b*s of four correctly rounded inputs with
// a^2+b^2 = c^2+s^2 = 1: its error is at most 4 * 2^-24 = 2.38e-7 (three
// roundings of the inputs' products plus the final one), inside the 2.5e-7
// contract, with nothing accumulating across rows.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "sinpe/sinpe.hpp"
#include "trig.hpp"

#if SINPE_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace sinpe {

bool simd_compiled() noexcept { return SINPE_SIMD != 0; }

namespace {
constexpr int kReanchor = 16;  // blocks between direct float64 anchors
}

struct Kernel {
  struct Work {
    std::vector<double> sd, cd;  // anchor sin/cos in float64
    std::vector<float> sf, cf;   // the same, rounded once
    std::size_t nf = 0;

    // This thread's scratch, grown to the widest plan seen, so that a call
    // (a single row, say) allocates nothing. No entry point nests two uses.
    static Work& get(std::size_t nf) {
      thread_local Work w;
      if (w.sd.size() < nf) {
        w.sd.resize(nf);
        w.cd.resize(nf);
        w.sf.resize(nf);
        w.cf.resize(nf);
      }
      w.nf = nf;
      return w;
    }
  };

  static void direct_anchors(const Plan& P, double p0, Work& w, bool simd) {
    const std::size_t nf = P.freq_.size();
#if SINPE_SIMD
    if (simd) {
      trig::sincos_scaled(p0, P.freq_.data(), nf, w.sd.data(), w.cd.data());
      return;
    }
#else
    (void)simd;
#endif
    trig::sincos_scaled_scalar(p0, P.freq_.data(), nf, w.sd.data(), w.cd.data());
  }

  static void step_anchors(const Plan& P, Work& w) {
    const std::size_t nf = P.freq_.size();
    for (std::size_t k = 0; k < nf; ++k) {
      const double s = w.sd[k], c = w.cd[k];
      w.sd[k] = s * P.step_cos_[k] + c * P.step_sin_[k];
      w.cd[k] = c * P.step_cos_[k] - s * P.step_sin_[k];
    }
  }

  static void round_anchors(Work& w) {
    for (std::size_t k = 0; k < w.nf; ++k) {
      w.sf[k] = float(w.sd[k]);
      w.cf[k] = float(w.cd[k]);
    }
  }

  template <bool Add>
  static inline void put(float* p, float v) {
    if (Add) *p += v; else *p = v;
  }

#if SINPE_SIMD
  template <bool Add, class V>
  static inline void put(float* p, const V& v) {
    if (Add) (V::load_unaligned(p) + v).store_unaligned(p);
    else v.store_unaligned(p);
  }
#endif

  // Where frequency k's sine and cosine go in a row.
  template <Layout L>
  static inline std::size_t sin_col(std::size_t k, std::size_t h) {
    return L == Layout::interleaved ? 2 * k : L == Layout::cos_first ? h + k : k;
  }
  template <Layout L>
  static inline std::size_t cos_col(std::size_t k, std::size_t h) {
    return L == Layout::interleaved ? 2 * k + 1 : L == Layout::cos_first ? k : h + k;
  }

  // Rows j < nrows of the current block, row by row (row-major writes: the
  // output's power-of-two row stride would thrash L1 sets column by column).
  template <bool Add, Layout L>
  static void emit_block(const Plan& P, const Work& w, int nrows, float* out, bool simd) {
    const std::size_t nf = P.freq_.size();
    const std::size_t h = std::size_t(P.pairs_);
    const std::size_t d = std::size_t(P.d_model_);
    const float* a = w.sf.data();
    const float* b = w.cf.data();
    for (int j = 0; j < nrows; ++j) {
      float* row = out + std::size_t(j) * d;
      // data() + offset, not &v[i]: the tables are empty when nf == 0 (d == 1).
      const float* C = P.rot_cos_.data() + std::size_t(j) * nf;
      const float* S = P.rot_sin_.data() + std::size_t(j) * nf;
      std::size_t k = 0;
#if SINPE_SIMD
      if (simd) {
        using bf = xsimd::batch<float>;
        constexpr std::size_t W = bf::size;
        for (; k + W <= h; k += W) {
          const bf va = bf::load_unaligned(a + k), vb = bf::load_unaligned(b + k);
          const bf vc = bf::load_unaligned(C + k), vs = bf::load_unaligned(S + k);
          const bf sin_v = va * vc + vb * vs;
          const bf cos_v = vb * vc - va * vs;
          if (L == Layout::interleaved) {
            put<Add>(row + 2 * k, xsimd::zip_lo(sin_v, cos_v));
            put<Add>(row + 2 * k + W, xsimd::zip_hi(sin_v, cos_v));
          } else {
            put<Add>(row + sin_col<L>(k, h), sin_v);
            put<Add>(row + cos_col<L>(k, h), cos_v);
          }
        }
      }
#else
      (void)simd;
#endif
      // The scalar path: the tail of the SIMD path, and all of the baseline build.
      for (; k < h; ++k) {
        // Both values before either store: `row` may alias the inputs for all the compiler knows.
        const float sin_v = a[k] * C[k] + b[k] * S[k];
        const float cos_v = b[k] * C[k] - a[k] * S[k];
        put<Add>(row + sin_col<L>(k, h), sin_v);
        put<Add>(row + cos_col<L>(k, h), cos_v);
      }
      if (P.odd_ == OddColumn::sine) {
        put<Add>(row + 2 * h, a[h] * C[h] + b[h] * S[h]);
      } else if (P.odd_ == OddColumn::zero && !Add) {
        row[2 * h] = 0.f;
      }
    }
  }

  template <bool Add>
  static void emit(const Plan& P, const Work& w, int nrows, float* out, bool simd) {
    switch (P.layout_) {
      case Layout::interleaved: emit_block<Add, Layout::interleaved>(P, w, nrows, out, simd); break;
      case Layout::cos_first: emit_block<Add, Layout::cos_first>(P, w, nrows, out, simd); break;
      default: emit_block<Add, Layout::concat>(P, w, nrows, out, simd); break;
    }
  }

  // Calls sink(done, nrows, block_out) for each block of rows after filling
  // block_out = target(done, nrows) with (Add ? += : =) rows start+done ...
  template <bool Add, class Target, class Sink>
  static void run(const Plan& P, double start, std::size_t count, Work& w, bool simd, Target target,
                  Sink sink) {
    if (count == 0) return;
    const std::size_t d = std::size_t(P.d_model_);
    const int B = P.block_;
    direct_anchors(P, start, w, simd);
    std::size_t done = 0;
    int blocks_since_anchor = 0;
    for (;;) {
      const int nrows = int(std::min<std::size_t>(std::size_t(B), count - done));
      round_anchors(w);
      float* out = target(done, nrows);
      emit<Add>(P, w, nrows, out, simd);
      if (P.has_padding_ && !Add) {
        // fairseq: the padding position's row is all zeros.
        const double r = P.padding_idx_ - (start + double(done));
        if (r >= 0 && r < nrows && r == std::floor(r)) std::fill_n(out + std::size_t(r) * d, d, 0.f);
      }
      sink(done, nrows, out);
      done += std::size_t(nrows);
      if (done >= count) break;
      if (++blocks_since_anchor >= kReanchor) {
        direct_anchors(P, start + double(done), w, simd);
        blocks_since_anchor = 0;
      } else {
        step_anchors(P, w);
      }
    }
  }

  template <bool Add>
  static void rows_into(const Plan& P, double start, std::size_t count, float* out, Work& w, bool simd) {
    const std::size_t d = std::size_t(P.d_model_);
    if (Add && P.has_padding_) {
      // Split around the padding row so it contributes nothing.
      const double r = P.padding_idx_ - start;
      if (r >= 0 && r < double(count) && r == std::floor(r)) {
        const std::size_t ri = std::size_t(r);
        rows_into<Add>(P, start, ri, out, w, simd);
        rows_into<Add>(P, start + double(ri + 1), count - ri - 1, out + (ri + 1) * d, w, simd);
        return;
      }
    }
    run<Add>(P, start, count, w, simd, [&](std::size_t done, int) { return out + done * d; },
             [](std::size_t, int, float*) {});
  }
};

Status rows(const Plan& plan, double start, std::size_t count, float* out, Path path) {
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  if (Status s = check_elements(count, std::size_t(plan.d_model())); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (out == nullptr) return Status::bad_buffer;
  Kernel::Work& w = Kernel::Work::get(plan.frequencies().size());
  Kernel::rows_into<false>(plan, start, count, out, w, path == Path::best);
  return Status::ok;
}

Status add_rows(const Plan& plan, double start, std::size_t count, float* inout, Path path) {
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  if (Status s = check_elements(count, std::size_t(plan.d_model())); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (inout == nullptr) return Status::bad_buffer;
  Kernel::Work& w = Kernel::Work::get(plan.frequencies().size());
  Kernel::rows_into<true>(plan, start, count, inout, w, path == Path::best);
  return Status::ok;
}

Status encode(const Plan& plan, const double* positions, std::size_t n, float* out, Path path) {
  if (Status s = check_elements(n, std::size_t(plan.d_model())); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || out == nullptr) return Status::bad_buffer;
  for (std::size_t i = 0; i < n; ++i)
    if (Status s = check_position(positions[i]); s != Status::ok) return s;
  const std::size_t d = std::size_t(plan.d_model());
  Kernel::Work& w = Kernel::Work::get(plan.frequencies().size());
  // Runs of consecutive positions (p, p+1, ...) share the block kernel; any
  // other position gets its own float64 anchor.
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && positions[j] == positions[j - 1] + 1.0) ++j;
    Kernel::rows_into<false>(plan, positions[i], j - i, out + i * d, w, path == Path::best);
    i = j;
  }
  return Status::ok;
}

Status grid2d(const Plan& axis, std::size_t height, std::size_t width, bool cls_token, std::size_t first,
              std::size_t count, float* out, Path path) {
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  const std::size_t D = std::size_t(axis.d_model());
  const std::size_t d = 2 * D;
  if (width != 0 && height > (kMaxElements / d) / width) return Status::too_large;
  const std::size_t cells = height * width + (cls_token ? 1 : 0);
  if (first > cells || count > cells - first) return Status::bad_count;
  if (count == 0) return Status::ok;
  if (out == nullptr) return Status::bad_buffer;
  const bool simd = path == Path::best;
  Kernel::Work& w = Kernel::Work::get(axis.frequencies().size());
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
    Kernel::rows_into<false>(axis, double(c), n, xs.data(), w, simd);
    Kernel::rows_into<false>(axis, double(r), 1, y.data(), w, simd);
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

Status heatmap(const Plan& plan, double start, std::size_t count, int col0, int cols,
               const std::uint8_t* lut, double vmin, double vmax, std::uint8_t* out, Path path) {
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  const int d = plan.d_model();
  if (col0 < 0 || cols < 0 || col0 > d || cols > d - col0) return Status::bad_column_window;
  if (!std::isfinite(vmin) || !std::isfinite(vmax) || !(vmin < vmax)) return Status::bad_value_range;
  if (Status s = check_elements(count, std::size_t(cols)); s != Status::ok) return s;
  if (count == 0 || cols == 0) return Status::ok;
  if (lut == nullptr || out == nullptr) return Status::bad_buffer;
  Kernel::Work& w = Kernel::Work::get(plan.frequencies().size());
  std::vector<float> block(std::size_t(plan.block_rows()) * std::size_t(d));
  // t = v * a + b with a = 255 / (vmax - vmin), b = 0.5 - vmin * a, both formed in
  // float64 (vmax/2 - vmin/2 cannot overflow) and rounded once: vmin/vmax beyond
  // the float range (say -1e300 ... 1e300) still map v to the right entry, which
  // float(vmin) = -inf did not.
  const double a64 = 127.5 / (vmax * 0.5 - vmin * 0.5);
  const float a = float(a64);
  const float b = float((vmin == 0 ? 0.0 : -vmin * a64) + 0.5);
  // A value range under ~1e-36 overflows a or b in float: index in float64 instead.
  const bool in_float = std::isfinite(a) && std::isfinite(b);
  Kernel::run<false>(
      plan, start, count, w, path == Path::best, [&](std::size_t, int) { return block.data(); },
      [&](std::size_t done, int nrows, float* values) {
        for (int j = 0; j < nrows; ++j) {
          const float* v = values + std::size_t(j) * std::size_t(d) + col0;
          std::uint8_t* px = out + ((done + std::size_t(j)) * std::size_t(cols)) * 4;
          for (int c = 0; c < cols; ++c) {
            float t = v[c] * a + b;
            if (!in_float) {
              const double above = double(v[c]) - vmin;  // > 0, or the index is 0 (no 0 * inf)
              t = above > 0 ? float(std::fmin(256.0, above * a64 + 0.5)) : 0.f;
            }
            // !(t > 0) also catches NaN (v == vmin == 0 with a = inf for a subnormal range),
            // which int(t) would turn into an out-of-range LUT index.
            const int idx = !(t > 0.f) ? 0 : t >= 255.f ? 255 : int(t);
            std::memcpy(px + 4 * c, lut + 4 * idx, 4);
          }
        }
      });
  return Status::ok;
}

}  // namespace sinpe
