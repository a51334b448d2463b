// Native timing of the core (the "native C++" column of npm run bench).
// Prints one JSON object: median milliseconds per case.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "sinpe/sinpe.hpp"

namespace {
template <class F>
double median_ms(F&& f, int reps) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    const auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
}  // namespace

int main() {
  sinpe::Plan p512, p64;
  sinpe::make_plan(sinpe::Options{}, 512, &p512);
  sinpe::make_plan(sinpe::Options{}, 64, &p64);
  std::vector<float> out(65536 * 64);
  const double t4096 = median_ms([&] { sinpe::rows(p512, 0, 4096, out.data()); }, 41);
  const double t65536 = median_ms([&] { sinpe::rows(p64, 0, 65536, out.data()); }, 41);
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> pos(0, 16777215);
  std::vector<double> ps(1000);
  for (double& x : ps) x = pos(rng);
  const double trows = median_ms(
      [&] {
        for (double x : ps) sinpe::encode(p512, &x, 1, out.data());
      },
      21);
  std::printf("{\"table4096x512\": %.4f, \"table65536x64\": %.4f, \"row512\": %.6f}\n", t4096, t65536,
              trows / 1000.0);
}
