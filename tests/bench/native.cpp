// Native timing of the core (the "native C++" rows of npm run bench): the same
// cases as tests/bench/cases.mjs, called straight into the core (no JS, no
// copies). tests/bench/run.mjs builds it with -O3 -march=native in
// build/bench-native. Prints one JSON object: per case the median
// milliseconds (per row for the single-row case) and the max abs error against
// float64 std::sin/std::cos.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "sinpe/sinpe.hpp"

namespace {

struct Timing {
  double ms;
  int reps;
};

template <class F>
Timing median_ms(F&& f, int min_reps = 21) {
  using clock = std::chrono::steady_clock;
  const auto ms_since = [](clock::time_point a) {
    return std::chrono::duration<double, std::milli>(clock::now() - a).count();
  };
  // Warm-up: at least 5 calls and 100 ms.
  double last = 0;
  const auto w0 = clock::now();
  for (int calls = 0; calls < 5 || (ms_since(w0) < 100 && calls < 500); ++calls) {
    const auto a = clock::now();
    f();
    last = ms_since(a);
  }
  const int reps = std::max(min_reps, std::min(201, int(std::ceil(400.0 / std::max(last, 1e-3)))));
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = clock::now();
    f();
    t.push_back(ms_since(a));
  }
  std::sort(t.begin(), t.end());
  const double med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
  return {med, reps};
}

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
      m = std::max({m, std::fabs(row[2 * k] - std::sin(a)), std::fabs(row[2 * k + 1] - std::cos(a))});
    }
  }
  return m;
}

bool first = true;
void emit(const char* key, Timing t, double err) {
  char e[32] = "null";  // no error figure (heatmap: colour indices, checked in cases.mjs)
  if (!std::isnan(err)) std::snprintf(e, sizeof e, "%.4g", err);
  std::printf("%s\n    \"%s\": {\"ms\": %.6g, \"reps\": %d, \"err\": %s}", first ? "" : ",", key, t.ms, t.reps, e);
  first = false;
}

}  // namespace

int main() {
  sinpe::Plan p512, p64;
  if (sinpe::make_plan(sinpe::Options{}, 512, &p512) != sinpe::Status::ok ||
      sinpe::make_plan(sinpe::Options{}, 64, &p64) != sinpe::Status::ok)
    return 1;
  std::vector<float> out(65536 * 64);

#if defined(__clang__)
  const char* cc = "clang++ ";
#elif defined(__GNUC__)
  const char* cc = "g++ ";
#else
  const char* cc = "";
#endif
  std::printf("{\n  \"compiler\": \"%s%s\",\n  \"simd\": %s,\n  \"cases\": {", cc, __VERSION__,
              sinpe::simd_compiled() ? "true" : "false");

  Timing t = median_ms([&] { sinpe::rows(p512, 0, 4096, out.data()); });
  emit("table4096x512", t, max_error(out.data(), 0, 4096, 512));

  t = median_ms([&] { sinpe::rows(p64, 0, 65536, out.data()); });
  emit("table65536x64", t, max_error(out.data(), 0, 65536, 64));

  // 1000 random integer positions in [0, max), including 0 and max - 1; one call
  // per row. max = 2^24, and 2^19 for the diagnostic case (small angles only).
  for (const int max : {16777216, 1 << 19}) {
    std::mt19937 rng(0x5eed);
    std::uniform_int_distribution<int> pos(0, max - 1);
    std::vector<double> ps(1000);
    for (double& x : ps) x = pos(rng);
    ps.front() = 0;
    ps.back() = max - 1;
    t = median_ms([&] {
      for (std::size_t i = 0; i < ps.size(); ++i) sinpe::encode(p512, &ps[i], 1, out.data() + i * 512);
    });
    double err = 0;
    for (std::size_t i = 0; i < ps.size(); ++i) err = std::max(err, max_error(out.data() + i * 512, ps[i], 1, 512));
    emit(max == 16777216 ? "row512" : "row512below2^19", {t.ms / double(ps.size()), t.reps}, err);
  }

  std::vector<std::uint8_t> lut(1024), px(std::size_t(2048) * 512 * 4);
  for (int i = 0; i < 256; ++i) {
    lut[4 * i] = std::uint8_t(i);
    lut[4 * i + 1] = std::uint8_t(i * 7);
    lut[4 * i + 2] = std::uint8_t(255 - i);
    lut[4 * i + 3] = 255;
  }
  for (double start : {0.0, 16000000.0}) {
    t = median_ms([&] { sinpe::heatmap(p512, start, 2048, 0, 512, lut.data(), -1, 1, px.data()); });
    emit(start == 0 ? "heatmap2048x512@0" : "heatmap2048x512@16000000", t, NAN);
  }
  std::printf("\n  }\n}\n");
}
