// The anchors' float64 sin/cos against the C library, scalar and SIMD, and the
// float32 roundings written alongside them.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "support.hpp"
#include "trig.hpp"

namespace {

std::vector<double> arguments() {
  std::vector<double> xs = {0.0,
                            -0.0,
                            1e-300,
                            0.5,
                            0.7853981633974483,
                            1.5707963267948966,
                            3.141592653589793,
                            4.71238898038469,
                            6.283185307179586,
                            823549.6,
                            823550.5,
                            16777215.0,
                            33554431.9,
                            -33554431.9,
                            33554432.0,
                            -33554432.0,
                            1e9,
                            -1e12};
  // Integers near multiples of pi/2, where the reduction cancels most.
  for (double k : {1.0, 3.0, 1e3, 355.0, 710.0, 104348.0, 1e6, 1e7, 2.1e7})
    xs.push_back(std::nearbyint(k * 1.5707963267948966));
  // Every quadrant on both sides of zero, and the points where the rounded
  // quotient x * 2/pi changes, just below and above (k + 1/2) * pi/2.
  for (int k = -9; k <= 9; ++k) {
    const double at = k * 1.5707963267948966, edge = (k + 0.5) * 1.5707963267948966;
    for (double x : {at, edge}) {
      xs.push_back(x);
      xs.push_back(std::nextafter(x, -1e300));
      xs.push_back(std::nextafter(x, 1e300));
    }
  }
  for (double k : {-16777215.0, -4097.0, 4096.0, 16777214.0, 21360000.0}) {
    const double edge = (k + 0.5) * 1.5707963267948966;
    xs.push_back(std::nextafter(edge, -1e300));
    xs.push_back(std::nextafter(edge, 1e300));
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> any(-33554432.0, 33554432.0), small(-10.0, 10.0);
  for (int i = 0; i < 20000; ++i) xs.push_back(any(rng));
  for (int i = 0; i < 2000; ++i) xs.push_back(small(rng));
  return xs;
}

double worst_error(const std::vector<double>& xs, const std::vector<double>& s,
                   const std::vector<double>& c) {
  sinpe_test::ErrorTracker err;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    err.add(s[i], std::sin(xs[i]), i);
    err.add(c[i], std::cos(xs[i]), i);
  }
  return err.worst();
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("anchor sin/cos agree with the C library to 1e-15", "[trig]") {
  const auto xs = arguments();
  std::vector<double> one(xs.size(), 1.0), s(xs.size()), c(xs.size());
  // p * 1.0 == x: the array entry points, scalar path.
  for (std::size_t i = 0; i < xs.size(); ++i)
    sinpe::trig::sincos_scaled_scalar(xs[i], one.data(), 1, &s[i], &c[i]);
  CHECK(worst_error(xs, s, c) <= 1e-15);
#if SINPE_SIMD
  // SIMD path: one position, many frequencies (x = p * freq with p = 1); the
  // large arguments among them send their whole vector to the lane-by-lane path.
  sinpe::trig::sincos_scaled(1.0, xs.data(), xs.size(), s.data(), c.data());
  CHECK(worst_error(xs, s, c) <= 1e-15);
#endif
}

TEST_CASE("anchor sin/cos take each quadrant's sign and swap", "[trig]") {
  // The float64 nearest to k*pi/2 is within 2e-15 of it, so the results are
  // within that of 0 and +-1; a wrong sign or swap would be off by 1.
  for (int k = -12; k <= 12; ++k) {
    const double x = k * 1.5707963267948966;
    const int q = ((k % 4) + 4) % 4;
    const double want_s[4] = {0, 1, 0, -1}, want_c[4] = {1, 0, -1, 0};
    double s = 0, c = 0;
    sinpe::trig::sincos_small(x, s, c);
    INFO("k = " << k);
    CHECK(std::fabs(s - want_s[q]) <= 1e-12);
    CHECK(std::fabs(c - want_c[q]) <= 1e-12);
  }
}

TEST_CASE("anchor float32 roundings equal float(s), float(c) and leave the float64 results unchanged",
          "[trig]") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> pos(-16777215.0, 16777215.0);
  // Frequencies as the presets make them (10000^(-2k/d)), plus one above the
  // fast range for large positions (scale folded into the frequency).
  std::vector<double> freq(300);
  for (std::size_t k = 0; k < freq.size(); ++k) freq[k] = std::pow(10000.0, -2.0 * double(k) / 512.0);
  freq[7] = 3.0;
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(5), std::size_t(8),
        std::size_t(9), std::size_t(17), std::size_t(256), std::size_t(300)}) {
    for (int trial = 0; trial < 20; ++trial) {
      const double p = trial == 0 ? 0.0 : trial == 1 ? 16777215.0 : pos(rng);
      std::vector<double> s0(n + 1, 7.0), c0(n + 1, 7.0), s1(n + 1, 7.0), c1(n + 1, 7.0);
      std::vector<float> sf(n + 1, 7.f), cf(n + 1, 7.f);
      sinpe::trig::sincos_scaled_scalar(p, freq.data(), n, s0.data(), c0.data());
      sinpe::trig::sincos_scaled_scalar(p, freq.data(), n, s1.data(), c1.data(), sf.data(), cf.data());
      bool same = true;
      for (std::size_t k = 0; k < n; ++k)
        same = same && same_bits(s0[k], s1[k]) && same_bits(c0[k], c1[k]) && sf[k] == float(s1[k]) &&
               cf[k] == float(c1[k]);
      INFO("scalar, n = " << n << ", p = " << p);
      CHECK(same);
      CHECK((s1[n] == 7.0 && c1[n] == 7.0 && sf[n] == 7.f && cf[n] == 7.f));  // nothing past n
#if SINPE_SIMD
      sinpe::trig::sincos_scaled(p, freq.data(), n, s0.data(), c0.data());
      std::fill(sf.begin(), sf.end(), 7.f);
      std::fill(cf.begin(), cf.end(), 7.f);
      sinpe::trig::sincos_scaled(p, freq.data(), n, s1.data(), c1.data(), sf.data(), cf.data());
      same = true;
      sinpe_test::ErrorTracker err;
      for (std::size_t k = 0; k < n; ++k) {
        same = same && same_bits(s0[k], s1[k]) && same_bits(c0[k], c1[k]) && sf[k] == float(s1[k]) &&
               cf[k] == float(c1[k]);
        const double x = p * freq[k];
        err.add(s1[k], std::sin(x), k);
        err.add(c1[k], std::cos(x), k);
      }
      INFO("SIMD, n = " << n << ", p = " << p);
      CHECK(same);
      CHECK((n == 0 ? err.count() == 0 : err.within(1e-15)));  // n = 0: nothing to compare
      CHECK((s1[n] == 7.0 && c1[n] == 7.0 && sf[n] == 7.f && cf[n] == 7.f));
#endif
    }
  }
}

TEST_CASE("anchor float32 roundings scaled by an amplitude: float(amp * s), float(amp * c)", "[trig]") {
  // RoPE's attention factor scales the float32 anchors (yarn's 0.1 ln(32) + 1, say).
  const double amp = 0.1 * std::log(32.0) + 1.0;
  std::vector<double> freq(67);
  for (std::size_t k = 0; k < freq.size(); ++k) freq[k] = std::pow(500000.0, -2.0 * double(k) / 128.0);
  for (double p : {0.0, 1.0, 4097.5, 131071.0, 16777215.0, -3.25}) {
    const std::size_t n = freq.size();
    std::vector<double> s(n), c(n);
    std::vector<float> sf(n), cf(n);
    bool same = true;
    sinpe::trig::sincos_scaled_scalar(p, freq.data(), n, s.data(), c.data(), sf.data(), cf.data(), amp);
    for (std::size_t k = 0; k < n; ++k)
      same = same && sf[k] == float(s[k] * amp) && cf[k] == float(c[k] * amp);
#if SINPE_SIMD
    sinpe::trig::sincos_scaled(p, freq.data(), n, s.data(), c.data(), sf.data(), cf.data(), amp);
    for (std::size_t k = 0; k < n; ++k)
      same = same && sf[k] == float(s[k] * amp) && cf[k] == float(c[k] * amp);
#endif
    INFO("p = " << p);
    CHECK(same);
  }
}
