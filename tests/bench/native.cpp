// Native timing of the core (the "native" bound of npm run bench): the cases
// of tests/bench/cases.mjs called straight into the core, no JS, no copies.
// tests/bench/run.mjs builds it with -O3 -march=native in build/bench-native
// (the --quick run uses the generic build in build/native). Prints one JSON
// object: per case the median milliseconds (per row for the single-row case)
// and its error against float64 std::sin/std::cos.
//   sinpe_bench_native [--quick]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "../../cpp/src/colour.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"

namespace {

struct Timing {
  double ms;
  int reps;
};

bool quick = false;

template <class F>
Timing median_ms(F&& f) {
  using clock = std::chrono::steady_clock;
  const auto ms_since = [](clock::time_point a) {
    return std::chrono::duration<double, std::milli>(clock::now() - a).count();
  };
  // Warm-up: at least 3 calls and 100 ms (20 ms when quick).
  double last = 0;
  const auto w0 = clock::now();
  const double warm = quick ? 20 : 100;
  for (int calls = 0; calls < 3 || (ms_since(w0) < warm && calls < 500); ++calls) {
    const auto a = clock::now();
    f();
    last = ms_since(a);
  }
  const int min_reps = quick ? 3 : 21;
  const double budget = quick ? 50 : 400;
  const int reps = std::max(min_reps, std::min(201, int(std::ceil(budget / std::max(last, 1e-3)))));
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = clock::now();
    f();
    t.push_back(ms_since(a));
  }
  std::sort(t.begin(), t.end());
  const double med =
      reps % 2 ? t[std::size_t(reps / 2)] : (t[std::size_t(reps / 2 - 1)] + t[std::size_t(reps / 2)]) / 2;
  return {med, reps};
}

// The larger error, NaN if either is NaN (std::max would drop a NaN second
// argument): a NaN value is outside the contract whatever follows it.
double worse(double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b); }

// The float64 formula: PE(pos, 2k) = sin(pos * 10000^(-2k/d)), PE(pos, 2k+1) = cos(...).
double max_error(const float* out, double start, std::size_t n, int d) {
  const int h = d / 2;
  std::vector<double> w(static_cast<std::size_t>(h));
  for (int k = 0; k < h; ++k) w[std::size_t(k)] = std::pow(10000.0, -2.0 * k / d);
  double m = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const double pos = start + double(r);
    const float* row = out + r * std::size_t(d);
    for (int k = 0; k < h; ++k) {
      const double a = pos * w[std::size_t(k)];
      m = worse(m, worse(std::fabs(row[2 * k] - std::sin(a)), std::fabs(row[2 * k + 1] - std::cos(a))));
    }
  }
  return m;
}

// RoPE 'default' in float64: inv_j = 1 / base^(2j/r).
std::vector<double> rope_inv(int r) {
  std::vector<double> inv(std::size_t(r / 2));
  for (int j = 0; j < r / 2; ++j) inv[std::size_t(j)] = 1.0 / std::pow(10000.0, 2.0 * j / r);
  return inv;
}

// A float16 / bfloat16 bit pattern's value.
double decode16(sinpe::Dtype dtype, std::uint16_t b) {
  if (dtype == sinpe::Dtype::bfloat16) {
    const std::uint32_t u = std::uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  const int e = (b >> 10) & 31, m = b & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (b & 0x8000) ? -v : v;
}

bool first = true;
void emit(const char* key, Timing t, double err) {
  // null: no error figure (heatmap: colour indices, checked in cases.mjs), or
  // a non-finite one, which run.mjs counts as outside the contract.
  char e[32] = "null";
  if (std::isfinite(err)) std::snprintf(e, sizeof e, "%.4g", err);
  std::printf("%s\n    \"%s\": {\"ms\": %.6g, \"reps\": %d, \"err\": %s}", first ? "" : ",", key, t.ms,
              t.reps, e);
  first = false;
}

}  // namespace

int main(int argc, char** argv) {
  quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  sinpe::Plan p512;
  sinpe::RopePlan rope128;
  if (sinpe::make_plan(sinpe::Options{}, 512, &p512) != sinpe::Status::ok ||
      sinpe::make_rope_plan(sinpe::Options{}, 128, &rope128) != sinpe::Status::ok)
    return 1;

#if defined(__clang__)
  const char* cc = "clang++ ";
#elif defined(__GNUC__)
  const char* cc = "g++ ";
#else
  const char* cc = "";
#endif
  std::printf("{\n  \"compiler\": \"%s%s\",\n  \"simd\": %s,\n  \"cases\": {", cc, __VERSION__,
              sinpe::simd_compiled() ? "true" : "false");

  // --- table 4096 x 512
  std::vector<float> out(std::size_t(4096) * 512);
  Timing t = median_ms([&] { sinpe::rows(p512, 0, 4096, out.data()); });
  emit("table4096x512", t, max_error(out.data(), 0, 4096, 512));

  // --- one row d = 512 at 1000 random integer positions in [0, 2^24), incl. 0 and 2^24 - 1; one call per
  // row.
  {
    std::mt19937 rng(0x5eed);
    std::uniform_int_distribution<int> pos(0, (1 << 24) - 1);
    std::vector<double> ps(1000);
    for (double& x : ps) x = pos(rng);
    ps.front() = 0;
    ps.back() = (1 << 24) - 1;
    t = median_ms([&] {
      for (std::size_t i = 0; i < ps.size(); ++i) sinpe::encode(p512, &ps[i], 1, out.data() + i * 512);
    });
    double err = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
      err = worse(err, max_error(out.data() + i * 512, ps[i], 1, 512));
    emit("row512", {t.ms / double(ps.size()), t.reps}, err);
  }

  // --- heatmap 2048 x 512 (values -1 ... 1), and its colour stage alone
  {
    std::vector<std::uint8_t> lut(1024), px(std::size_t(2048) * 512 * 4);
    std::vector<std::uint32_t> lut32(256), px32(std::size_t(2048) * 512);
    for (int i = 0; i < 256; ++i) {
      lut[std::size_t(4 * i)] = std::uint8_t(i);
      lut[std::size_t(4 * i + 1)] = std::uint8_t(i * 7);
      lut[std::size_t(4 * i + 2)] = std::uint8_t(255 - i);
      lut[std::size_t(4 * i + 3)] = 255;
      std::memcpy(&lut32[std::size_t(i)], &lut[std::size_t(4 * i)], 4);
    }
    t = median_ms([&] { sinpe::heatmap(p512, 0, 2048, 0, 512, lut.data(), -1, 1, px.data()); });
    emit("heatmap2048x512", t, NAN);
    sinpe::rows(p512, 0, 2048, out.data());
    const auto scale = sinpe::colour::colour_scale(-1, 1);
    t = median_ms([&] {
      sinpe::colour::colourize(out.data(), std::size_t(2048) * 512, scale, lut32.data(), px32.data());
    });
    emit("colour2048x512", t, NAN);
  }

  // --- RoPE cos/sin cache, 131072 positions x rotaryDim 128
  {
    const std::size_t n = 131072, half = 64;
    std::vector<float> cos(n * half), sin(n * half);
    std::vector<double> positions(n);
    for (std::size_t i = 0; i < n; ++i) positions[i] = double(i);
    const auto inv = rope_inv(128);
    const auto cache_error = [&] {
      double err = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < half; ++j) {
          const double a = double(i) * inv[j];
          err = worse(err, worse(std::fabs(cos[i * half + j] - std::cos(a)),
                                 std::fabs(sin[i * half + j] - std::sin(a))));
        }
      return err;
    };
    t = median_ms([&] {
      sinpe::rope_cache(rope128, sinpe::Positions::range(0, n),
                        {sinpe::Dtype::float32, cos.data(), sin.data()});
    });
    emit("ropeCacheRows131072x128", t, cache_error());
    std::fill(cos.begin(), cos.end(), NAN);
    std::fill(sin.begin(), sin.end(), NAN);
    t = median_ms([&] {
      sinpe::rope_cache(rope128, sinpe::Positions::list(positions.data(), n),
                        {sinpe::Dtype::float32, cos.data(), sin.data()});
    });
    emit("ropeCache131072x128", t, cache_error());
    // The same cache as float16 / bfloat16 bit patterns (each value rounded
    // once from float64); err: max |decoded - float64|, at most half a unit
    // in the last place (2^-12 for float16, 2^-9 for bfloat16, near 1).
    std::vector<std::uint16_t> cos16(n * half), sin16(n * half);
    for (sinpe::Dtype dtype : {sinpe::Dtype::float16, sinpe::Dtype::bfloat16}) {
      t = median_ms([&] {
        sinpe::rope_cache(rope128, sinpe::Positions::range(0, n), {dtype, cos16.data(), sin16.data()});
      });
      double err16 = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < half; ++j) {
          const double a = double(i) * inv[j];
          err16 = worse(err16, worse(std::fabs(decode16(dtype, cos16[i * half + j]) - std::cos(a)),
                                     std::fabs(decode16(dtype, sin16[i * half + j]) - std::sin(a))));
        }
      emit(dtype == sinpe::Dtype::float16 ? "ropeCacheRows131072x128Float16"
                                          : "ropeCacheRows131072x128Bfloat16",
           t, err16);
    }
  }

  // --- M-RoPE cache (Qwen2-VL: mropeSection [16, 24, 24], base 1e6), 131072 tokens x rotaryDim 128,
  // positions (t, h, w) = (i, i + i % 7, i + i % 11); err against float64 cos/sin of each pair's axis.
  {
    const std::size_t n = 131072, half = 64;
    sinpe::Options o;
    o.base = 1e6;
    o.mrope_section = std::vector<double>{16, 24, 24};
    sinpe::RopePlan mrope;
    if (sinpe::make_rope_plan(o, 128, &mrope) != sinpe::Status::ok) return 1;
    std::vector<double> pos(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
      pos[3 * i] = double(i);
      pos[3 * i + 1] = double(i + i % 7);
      pos[3 * i + 2] = double(i + i % 11);
    }
    std::vector<float> cos(n * half), sin(n * half);
    t = median_ms([&] {
      sinpe::rope_cache(mrope, sinpe::Positions::axes(pos.data(), n),
                        {sinpe::Dtype::float32, cos.data(), sin.data()});
    });
    std::vector<double> inv(half);
    for (std::size_t j = 0; j < half; ++j) inv[j] = 1.0 / std::pow(1e6, 2.0 * double(j) / 128);
    double err = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < half; ++j) {
        const double a = pos[3 * i + (j < 16 ? 0 : j < 40 ? 1 : 2)] * inv[j];
        err = worse(err, worse(std::fabs(cos[i * half + j] - std::cos(a)),
                               std::fabs(sin[i * half + j] - std::sin(a))));
      }
    emit("mropeCache131072x128", t, err);
  }

  // --- RoPE rotation in place, 2048 tokens x 32 heads x 128 (half layout); the
  // error is max |x' - exact| / (|x_a| + |x_b|) over the pairs of one application.
  {
    const std::size_t n = 2048, heads = 32, hd = 128, half = 64;
    std::vector<double> positions(n);
    for (std::size_t i = 0; i < n; ++i) positions[i] = double(i);
    std::vector<float> x0(n * heads * hd), x(x0.size());
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-2.f, 2.f);
    for (float& v : x0) v = u(rng);
    x = x0;
    sinpe::apply_rope(rope128, sinpe::RopeLayout::half, int(hd), sinpe::Positions::list(positions.data(), n),
                      heads, x.data());
    const auto inv = rope_inv(128);
    double err = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t j = 0; j < half; ++j) {
          const std::size_t o = (i * heads + h) * hd;
          const double xa = x0[o + j], xb = x0[o + j + half], c = std::cos(double(i) * inv[j]),
                       s = std::sin(double(i) * inv[j]);
          const double scale = std::fabs(xa) + std::fabs(xb);
          if (scale == 0) continue;
          err = worse(err, worse(std::fabs(x[o + j] - (xa * c - xb * s)) / scale,
                                 std::fabs(x[o + j + half] - (xb * c + xa * s)) / scale));
        }
    t = median_ms([&] {
      sinpe::apply_rope(rope128, sinpe::RopeLayout::half, int(hd),
                        sinpe::Positions::list(positions.data(), n), heads, x.data());
    });
    emit("applyRope2048x32x128", t, err);
  }
  std::printf("\n  }\n}\n");
}
