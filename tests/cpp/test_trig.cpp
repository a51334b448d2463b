// The anchors' float64 sin/cos against the C library, scalar and SIMD.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "trig.hpp"

namespace {

std::vector<double> arguments() {
  std::vector<double> xs = {0.0, -0.0, 1e-300, 0.5, 0.7853981633974483, 1.5707963267948966, 3.141592653589793,
                            4.71238898038469, 6.283185307179586, 823549.6, 823550.5, 16777215.0, 33554431.9,
                            -33554431.9, 33554432.0, 1e9, -1e12};
  // Integers near multiples of pi/2, where the reduction cancels most.
  for (double k : {1.0, 3.0, 1e3, 355.0, 710.0, 104348.0, 1e6, 1e7, 2.1e7})
    xs.push_back(std::nearbyint(k * 1.5707963267948966));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> any(-33554432.0, 33554432.0), small(-10.0, 10.0);
  for (int i = 0; i < 20000; ++i) xs.push_back(any(rng));
  for (int i = 0; i < 2000; ++i) xs.push_back(small(rng));
  return xs;
}

}  // namespace

TEST_CASE("anchor sin/cos agree with the C library to 1e-15", "[trig]") {
  const auto xs = arguments();
  std::vector<double> one(xs.size(), 1.0), s(xs.size()), c(xs.size());
  double worst = 0;
  // p * 1.0 == x: the array entry points, scalar path.
  for (std::size_t i = 0; i < xs.size(); ++i) {
    sinpe::trig::sincos_scaled_scalar(xs[i], one.data(), 1, &s[i], &c[i]);
    worst = std::max({worst, std::fabs(s[i] - std::sin(xs[i])), std::fabs(c[i] - std::cos(xs[i]))});
  }
  CHECK(worst <= 1e-15);
#if SINPE_SIMD
  // SIMD path: one position, many frequencies (x = p * freq with p = 1).
  sinpe::trig::sincos_scaled(1.0, xs.data(), xs.size(), s.data(), c.data());
  double worst_simd = 0;
  for (std::size_t i = 0; i < xs.size(); ++i)
    worst_simd = std::max({worst_simd, std::fabs(s[i] - std::sin(xs[i])), std::fabs(c[i] - std::cos(xs[i]))});
  CHECK(worst_simd <= 1e-15);
#endif
}
