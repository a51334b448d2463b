// The half-precision decision rules on their own, against an independent
// rounding (the nearest value of the format found from its bit fields, ties
// to the even pattern): a value the rule decides must be what every value
// within its margin E rounds to. HalfTestNear (float64 values, decided by
// their float32 rounding) and HalfLanes (float32 vectors, through to_half),
// at and beside midpoints of both formats, near the smallest value each can
// decide, and near float16's overflow midpoint 65520.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "half.hpp"

namespace {

struct Fmt {
  int m, bias;  // stored mantissa bits, exponent bias
};
constexpr Fmt kHalf{10, 15}, kBHalf{7, 127};

// The value of pattern b (no NaN, no infinity).
double decode(Fmt f, std::uint32_t b) {
  const std::uint32_t mag = b & 0x7fffu, e = mag >> f.m, man = mag & ((1u << f.m) - 1);
  const double v = e == 0 ? std::ldexp(double(man), 1 - f.bias - f.m)
                          : std::ldexp(double((1u << f.m) + man), int(e) - f.bias - f.m);
  return (b & 0x8000u) ? -v : v;
}

// The nearest pattern to v, ties to even, infinity beyond the last midpoint.
std::uint16_t nearest(Fmt f, double v) {
  const std::uint32_t inf = ((2u * std::uint32_t(f.bias) + 1u) << f.m), sign = std::signbit(v) ? 0x8000u : 0u;
  const double a = std::fabs(v);
  std::uint32_t lo = 0, hi = inf - 1;  // largest finite pattern
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi + 1) / 2;
    if (decode(f, mid) <= a) lo = mid;
    else hi = mid - 1;
  }
  const double below = decode(f, lo);
  const double above = lo == inf - 1 ? std::ldexp(1.0, f.bias + 1) : decode(f, lo + 1);
  const double midpoint = below + (above - below) / 2;
  std::uint32_t p = a < midpoint ? lo : a > midpoint ? lo + 1 : (lo % 2 ? lo + 1 : lo);
  if (p >= inf) p = inf;
  return std::uint16_t(sign | p);
}

// Midpoints worth trying: a few per binade from far below 1 to the top, and
// the ones next to the smallest decidable values.
std::vector<double> midpoints(Fmt f) {
  std::vector<double> out;
  const int top = std::min(f.bias, 40);
  for (int e = -30; e <= top; ++e)
    for (double frac : {0.0, 1.0, 2.0, 77.0, double((1 << f.m) - 2), double((1 << f.m) - 1)}) {
      const double lo_v = std::ldexp(1.0 + frac / (1 << f.m), e);
      out.push_back(lo_v + std::ldexp(1.0, e - f.m - 1));  // halfway to the next value
    }
  return out;
}

template <class Near>
void check_near(Fmt f, double E, std::size_t& decided_close, std::size_t& undecided) {
  const Near near(E);
  for (double mu : midpoints(f))
    for (double sign : {1.0, -1.0}) {
      std::vector<double> ts;
      for (int k = -6; k <= 6; ++k) ts.push_back(mu * (1 + k * std::ldexp(1.0, -52)));
      for (double q : {0.25, 0.5, 0.99, 1.01, 1.5, 2.0, 4.0, 100.0, 1e4}) {
        ts.push_back(mu + q * E);
        ts.push_back(mu - q * E);
      }
      const double u32 = std::ldexp(std::fabs(mu), -24);  // about half a float32 ulp
      for (double q : {0.5, 0.999, 1.001, 2.0, 3.0}) {
        ts.push_back(mu + q * u32);
        ts.push_back(mu - q * u32);
      }
      for (double t : ts) {
        t *= sign;
        bool d;
        const std::uint16_t p = near.pattern(t, &d);
        if (!d) {
          ++undecided;
          continue;
        }
        const std::uint16_t lo = nearest(f, t - E), hi = nearest(f, t + E);
        INFO("E " << E << " t " << t << " midpoint " << mu);
        REQUIRE(lo == hi);
        REQUIRE(p == lo);
        if (std::fabs(std::fabs(t) - mu) < 4 * E + 2 * u32) ++decided_close;
      }
    }
}

}  // namespace

TEST_CASE("HalfTestNear decides only values whose whole margin rounds alike", "[half][boundary]") {
  using sinpe::detail::HalfTestNear;
  for (double E : {0x1p-60, 0x1p-44, 0x1p-39, 0x1p-34, 0x1p-28, 0x1p-20}) {
    std::size_t close16 = 0, und16 = 0, close_b = 0, und_b = 0;
    check_near<HalfTestNear<10, 15>>(kHalf, E, close16, und16);
    check_near<HalfTestNear<7, 127>>(kBHalf, E, close_b, und_b);
    INFO("E " << E);
    // Not vacuous: values a few E from a midpoint were decided, and some were left.
    CHECK(close16 > 100);
    CHECK(close_b > 100);
    CHECK(und16 > 0);
    CHECK(und_b > 0);
  }
  // Zeros, values below the smallest decidable one, beyond the range: never decided.
  const HalfTestNear<10, 15> f16(0x1p-39);
  bool d = true;
  for (double t :
       {0.0, -0.0, 0x1p-15, -0x1p-20, 65536.0, 1e6, 1e300, std::numeric_limits<double>::infinity()}) {
    f16.pattern(t, &d);
    CHECK_FALSE(d);
  }
  const HalfTestNear<7, 127> bf16(0x1p-39);
  for (double t : {0.0, 0x1p-20, 1e39, std::numeric_limits<double>::quiet_NaN()}) {
    bf16.pattern(t, &d);
    CHECK_FALSE(d);
  }
}

namespace {

// to_half's lanes (HalfLanes in the SIMD flavour) on float32 values near
// midpoints: decided lanes are what every value within E rounds to.
template <class Test>
void check_lanes(Fmt f, double E, double vmax, std::size_t& decided_close, std::size_t& undecided) {
  const Test test(E, vmax);
  std::vector<float> vs;
  // First, so that they go through the vector lanes, not to_half's scalar tail.
  for (float v : {0.0f, -0.0f, test.lo, std::nextafter(test.lo, 0.0f), test.lo_mid, -test.lo_mid,
                  std::nextafter(test.lo_mid, 1.0f), 65504.0f, 65519.0f, 65520.0f, 65521.0f, 65535.0f,
                  65536.0f, 70000.0f, 65600.0f, -1e5f, 3e5f, 1e30f, std::numeric_limits<float>::infinity()})
    if (std::fabs(v) <= vmax) vs.push_back(v);
  for (double mu : midpoints(f)) {
    if (!(mu < vmax) || mu > 3e38) continue;
    const float m32 = float(mu);
    for (double sign : {1.0, -1.0}) {
      float x = m32;
      for (int k = 0; k < 40; ++k) x = std::nextafter(x, 0.0f);
      for (int k = 0; k < 81; ++k, x = std::nextafter(x, 1e30f)) vs.push_back(float(sign) * x);
      for (double q : {0.5, 0.99, 1.01, 1.5, 3.0}) {
        vs.push_back(float(sign * (mu + q * E)));
        vs.push_back(float(sign * (mu - q * E)));
      }
    }
  }
  std::vector<std::uint16_t> out(vs.size());
  const std::uint16_t kUndecided = 0xdead;
  // 0xdead is a NaN pattern in both formats, which no finite input rounds to.
  sinpe::detail::to_half(test, vs.data(), vs.size(), out.data(), true,
                         [&](std::size_t) { return kUndecided; });
  for (std::size_t i = 0; i < vs.size(); ++i) {
    if (out[i] == kUndecided) {
      ++undecided;
      continue;
    }
    const double v = vs[i];
    INFO("E " << E << " v " << v << " vmax " << vmax);
    REQUIRE(std::isfinite(v));
    const std::uint16_t lo = nearest(f, v - E), hi = nearest(f, v + E);
    REQUIRE(lo == hi);
    REQUIRE(out[i] == lo);
    const double mu = decode(f, lo & 0x7fffu);
    const double next = decode(f, (lo & 0x7fffu) + 1);
    if (std::fabs(std::fabs(v) - (mu + (next - mu) / 2)) < 3 * E ||
        std::fabs(std::fabs(v) - (mu - (mu - decode(f, (lo & 0x7fffu) ? (lo & 0x7fffu) - 1 : 0)) / 2)) <
            3 * E)
      ++decided_close;
  }
}

}  // namespace

TEST_CASE("half-precision vector lanes decide only values whose whole margin rounds alike",
          "[half][boundary]") {
  using sinpe::detail::BFloat16Test;
  using sinpe::detail::Float16Test;
  const double inf = std::numeric_limits<double>::infinity();
  for (double E : {0x1p-30, 0x1p-22 * (1 + 0x1p-18), 0x1p-21, 0x1p-16}) {
    std::size_t close16 = 0, und16 = 0, close_b = 0, und_b = 0;
    for (double vmax : {1.0001, 8.0, inf}) {
      check_lanes<Float16Test>(kHalf, E, vmax, close16, und16);
      check_lanes<BFloat16Test>(kBHalf, E, vmax, close_b, und_b);
    }
    INFO("E " << E);
    CHECK(close16 > 100);
    CHECK(close_b > 100);
    CHECK(und16 > 100);
    CHECK(und_b > 100);
  }
}

// The scalar route's loop tests only the bottom of HalfTestNear's range when
// the values' bound vmax keeps every float32 rounding below the format's
// range end 2^(B+1) (check_hi false): then that test must agree with the
// full one on every value within vmax. check_hi is compared with the float32
// conversion itself, around the point where fl32(vmax) reaches 2^16
// (float16) or float32's infinity (bfloat16); the values tried are the
// float32 values just below fl32(vmax), float16's last midpoints and the
// midpoints of both formats, both signs.
TEST_CASE("HalfTestNear tests the range's top only when values can reach it", "[half][boundary]") {
  using sinpe::detail::HalfTestNear;
  const double inf = std::numeric_limits<double>::infinity();
  const double top16 = 65536.0, top_b = std::ldexp(1.0, 128);
  std::size_t compared = 0, skipped_top = 0;
  const auto check = [&](auto near, Fmt f, double top, double vmax) {
    INFO("vmax " << vmax);
    // check_hi exactly when fl32(vmax) is not below the range end (fl32(vmax) = inf when beyond float32).
    const float fv = vmax < 3.5e38 ? float(vmax) : std::numeric_limits<float>::infinity();
    REQUIRE(near.check_hi == !(double(fv) < top));
    if (near.check_hi) return;
    ++skipped_top;
    std::vector<double> ts;
    float x = fv;
    for (int k = 0; k < 200; ++k, x = std::nextafter(x, 0.0f)) ts.push_back(double(x));
    for (double mu : midpoints(f))
      if (mu <= vmax) ts.push_back(mu);
    for (double t : {65488.0, 65504.0, 65519.0, 65520.0, 65521.0})
      if (t <= vmax) ts.push_back(t);
    ts.push_back(vmax);
    for (double t : ts)
      for (double s : {t, -t}) {
        const std::uint32_t u = decltype(near)::bits(s);
        const std::uint32_t lo2 = 2 * near.lo_bits, span2 = 2 * near.span;
        const std::uint32_t quick = decltype(near)::template undecided<false>(u, lo2, span2);
        const std::uint32_t full = decltype(near)::template undecided<true>(u, lo2, span2);
        INFO("t " << s);
        REQUIRE((quick != 0) == (full != 0));
        bool d;
        const std::uint16_t p = near.pattern(s, &d);
        REQUIRE(d == (full == 0));
        if (d) REQUIRE(p == nearest(f, s));
        ++compared;
      }
  };
  for (double E : {0x1p-60, 0x1p-34}) {
    for (double vmax : {1.0, 65504.0, 65519.0, 65520.0, std::nextafter(top16 * (1 - 0x1p-25), 0.0),
                        top16 * (1 - 0x1p-25), top16 * (1 - 0x1p-26), top16, 1e5, inf})
      check(HalfTestNear<10, 15>(E, vmax), kHalf, top16, vmax);
    for (double vmax : {1.0, 3.0e38, std::nextafter(top_b * (1 - 0x1p-25), 0.0), top_b * (1 - 0x1p-25),
                        top_b * (1 - 0x1p-26), 1e300, inf})
      check(HalfTestNear<7, 127>(E, vmax), kBHalf, top_b, vmax);
  }
  // Both outcomes met: bounds that skip the top test, and ones that keep it.
  CHECK(skipped_top >= 2 * (5 + 3));
  CHECK(compared > 5000);
  // The default bound (none) keeps the top test.
  CHECK(HalfTestNear<10, 15>(0x1p-40).check_hi);
  CHECK(HalfTestNear<7, 127>(0x1p-40).check_hi);
}
