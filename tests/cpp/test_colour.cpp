// The heatmap's colour stage, SIMD and scalar, against the index rule written
// out here in float64 arithmetic, bit for bit, over edge values and scales.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "colour.hpp"

namespace {

using sinpe::colour::colour_scale;
using sinpe::colour::ColourScale;

// The rule: a = float(127.5 / (vmax/2 - vmin/2)), b = float(0.5 - vmin * a64);
// t = float(float(v * a) + b); index = !(t > 0) ? 0 : t >= 255 ? 255 : int(t).
// The float32 product and sum are formed exactly in float64 and rounded once
// (double rounding is harmless for one float32 operation), so no fused
// multiply-add can creep in. Ranges that overflow a or b index in float64
// (dividing by the half range where even a64 overflows).
int rule_index(float v, double vmin, double vmax) {
  const double a64 = 127.5 / (vmax * 0.5 - vmin * 0.5);
  const float a = float(a64);
  const float b = float((vmin == 0 ? 0.0 : -vmin * a64) + 0.5);
  float t;
  if (std::isfinite(a) && std::isfinite(b)) {
    // volatile: GCC would narrow these to float operations and fuse them.
    const volatile double product = double(v) * double(a);
    const float m = float(product);
    const volatile double sum = double(m) + double(b);
    t = float(sum);
  } else {
    const double above = double(v) - vmin;
    const double scaled = std::isfinite(a64) ? above * a64 : above / (vmax * 0.5 - vmin * 0.5) * 127.5;
    t = above > 0 ? float(std::fmin(256.0, scaled + 0.5)) : 0.f;
  }
  return !(t > 0.f) ? 0 : t >= 255.f ? 255 : int(t);
}

std::vector<std::uint32_t> distinct_lut() {
  std::vector<std::uint32_t> lut(256);
  for (std::uint32_t i = 0; i < 256; ++i) lut[i] = 0x9E3779B9u * (i + 1);  // odd multiplier: all distinct
  return lut;
}

struct Range {
  double vmin, vmax;
};

const Range kRanges[] = {{-1, 1},         {0, 1},           {-1, 0},
                         {0, 255},        {-7.25, 1e-3},    {5, 5.0000005},
                         {1e6, 1e6 + 1},  {-1e-30, 1e-30},  {0, 1e-37},
                         {-1e-38, 1e-38}, {0, 5e-324},      {-1e-320, 1e-320},
                         {-3e38, 3e38},   {-1e300, 1e300},  {-3.4028234663852886e38, 3.4028234663852886e38},
                         {1e-3, 2e300},   {-2e300, -1e300}, {-1e-300, 1e-300}};

std::vector<float> values_for(const Range& r, std::mt19937& rng) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> v = {nan,
                          -nan,
                          std::numeric_limits<float>::signaling_NaN(),
                          inf,
                          -inf,
                          0.f,
                          -0.f,
                          std::numeric_limits<float>::min(),
                          -std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(),
                          std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(),
                          1.f,
                          -1.f};
  // vmin, vmax and the 256 bin edges (where the exact t crosses an integer),
  // with the floats a few steps either side of each.
  std::vector<double> anchors = {r.vmin, r.vmax};
  for (int k = 0; k <= 256; ++k) anchors.push_back(r.vmin + (k - 0.5) / 255.0 * (r.vmax - r.vmin));
  for (double x : anchors) {
    const float f = float(x);
    if (!std::isfinite(f)) continue;
    float lo = f, hi = f;
    v.push_back(f);
    for (int step = 0; step < 4; ++step) {
      lo = std::nextafter(lo, -inf);
      hi = std::nextafter(hi, inf);
      v.push_back(lo);
      v.push_back(hi);
    }
  }
  // Random values over the range and a little beyond.
  const double span = r.vmax - r.vmin;
  std::uniform_real_distribution<double> u(-0.1, 1.1);
  for (int i = 0; i < 3000; ++i) {
    const float f = float(r.vmin + u(rng) * span);
    if (std::isfinite(f)) v.push_back(f);
  }
  return v;
}

}  // namespace

TEST_CASE("colour stage: the index rule bit for bit, SIMD and scalar, over edge values and scales",
          "[colour]") {
  const auto lut = distinct_lut();
  std::mt19937 rng(42);
  for (const Range& r : kRanges) {
    const auto v = values_for(r, rng);
    const ColourScale s = colour_scale(r.vmin, r.vmax);
    std::vector<std::uint32_t> want(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) want[i] = lut[std::size_t(rule_index(v[i], r.vmin, r.vmax))];
    INFO("vmin " << r.vmin << ", vmax " << r.vmax << (s.in_float ? " (float32 index)" : " (float64 index)"));
    // Every start offset (vector loop, then tails of each length), with a
    // sentinel after the end that must survive.
    for (std::size_t off = 0; off < 5; ++off) {
      const std::size_t n = v.size() - off;
      std::vector<std::uint32_t> simd(n + 1, 0xDEADBEEFu), scalar(n + 1, 0xDEADBEEFu);
      sinpe::colour::colourize(v.data() + off, n, s, lut.data(), simd.data());
      sinpe::colour::colourize_scalar(v.data() + off, n, s, lut.data(), scalar.data());
      std::size_t bad_simd = 0, bad_scalar = 0, first_bad = n;
      for (std::size_t i = 0; i < n; ++i) {
        if (simd[i] != want[off + i]) {
          ++bad_simd;
          first_bad = std::min(first_bad, i);
        }
        if (scalar[i] != want[off + i]) ++bad_scalar;
      }
      INFO("offset " << off << ", first mismatch at value " << (first_bad < n ? v[off + first_bad] : 0.f));
      CHECK(bad_simd == 0);
      CHECK(bad_scalar == 0);
      CHECK(simd[n] == 0xDEADBEEFu);
      CHECK(scalar[n] == 0xDEADBEEFu);
    }
  }
}

TEST_CASE("colour stage: entry round((v - vmin) / (vmax - vmin) * 255), clamped, away from bin edges",
          "[colour]") {
  // The meaning of the rule, from the float64 mapping: a value whose exact
  // position is farther from a bin edge than the rule's float32 roundings can
  // move it gets that bin's entry; NaN gets entry 0.
  const auto lut = distinct_lut();
  std::mt19937 rng(7);
  std::size_t checked = 0;
  for (const Range& r : kRanges) {
    const ColourScale s = colour_scale(r.vmin, r.vmax);
    const auto v = values_for(r, rng);
    std::vector<std::uint32_t> out(v.size());
    sinpe::colour::colourize(v.data(), v.size(), s, lut.data(), out.data());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (std::isnan(v[i])) {
        bad += out[i] != lut[0];
        ++checked;
        continue;
      }
      // With a range so wide that a rounds to 0, v * a is NaN for v = +-inf
      // and the rule sends it to entry 0 like any NaN.
      if (std::isinf(v[i]) && s.a == 0.f) continue;
      // (v - vmin) / (vmax - vmin) * 255 + 0.5, with halves so that huge ranges do not overflow.
      const double pos = (double(v[i]) * 0.5 - r.vmin * 0.5) / (r.vmax * 0.5 - r.vmin * 0.5) * 255.0 + 0.5;
      // Rounding a, b, v * a and the sum to float32 moves t by at most
      // 2^-24 * (2|v a| + |b| + |t|); with near-equal vmin, vmax that can be many bins.
      const double va = std::fabs(double(v[i]) * double(s.a));
      const double slack = 1e-3 + std::ldexp(2 * va + std::fabs(double(s.b)) + std::fabs(pos), -22);
      if (std::fabs(pos - std::nearbyint(pos)) < slack) continue;
      const double idx = std::fmin(255.0, std::fmax(0.0, std::floor(pos)));
      bad += out[i] != lut[std::size_t(idx)];
      ++checked;
    }
    INFO("vmin " << r.vmin << ", vmax " << r.vmax);
    CHECK(bad == 0);
  }
  CHECK(checked > 20000);
}
