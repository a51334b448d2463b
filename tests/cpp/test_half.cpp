// float16 / bfloat16 output against an independent rounding: every finite
// half value decoded from its bit fields, the nearest one found by comparing
// with the exact midpoint of two neighbours (ties to the even pattern), on
// the float64 reference's values. Covers ties, values one double-ulp either
// side of each midpoint, subnormals, the largest finite value and overflow,
// and the half-precision rows, encode, rope_cache and rope_cache_rows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "reference.hpp"
#include "rope_reference.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/rope_recipe.hpp"
#include "sinpe/sinpe.hpp"
#include "support.hpp"

namespace {

using sinpe::Dtype;
using sinpe::Path;
using sinpe::Status;

// A half format as a sorted table of its non-negative finite values.
struct Format {
  const char* name;
  std::uint16_t max_finite;  // pattern
  double beyond;             // the value the next pattern would have without overflow
  std::uint16_t inf;
  std::uint16_t (*core)(double) noexcept;
  double (*decode)(std::uint16_t);
};

// binary16: sign, 5 exponent bits (bias 15), 10 fraction bits.
double decode_f16(std::uint16_t b) {
  const int e = (b >> 10) & 31, m = b & 1023;
  const double mag = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(1024 + m), e - 25);
  return (b & 0x8000) ? -mag : mag;
}
// bfloat16: the top half of a float32.
double decode_bf16(std::uint16_t b) {
  const std::uint32_t u = std::uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return double(f);
}

const Format kF16{"float16", 0x7bff, 65536.0, 0x7c00, sinpe::round_to_float16, decode_f16};
const Format kBF16{"bfloat16", 0x7f7f, std::ldexp(1.0, 128), 0x7f80, sinpe::round_to_bfloat16, decode_bf16};

// The nearest pattern to v, ties to the even pattern, by exact midpoints.
std::uint16_t round_ref(const Format& f, double v) {
  if (std::isnan(v)) return std::uint16_t(f.inf | 1);  // any NaN; compared as "is NaN"
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  // Largest pattern p <= max_finite with decode(p) <= a (patterns are monotonic).
  std::uint32_t lo = 0, hi = f.max_finite;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi + 1) / 2;
    if (f.decode(std::uint16_t(mid)) <= a) lo = mid;
    else hi = mid - 1;
  }
  const double below = f.decode(std::uint16_t(lo));
  if (below == a) return std::uint16_t(sign | lo);
  const double above = lo == f.max_finite ? f.beyond : f.decode(std::uint16_t(lo + 1));
  const double midpoint = (below + above) / 2;  // exact: both have few significant bits
  std::uint32_t p;
  if (a < midpoint) p = lo;
  else if (a > midpoint) p = lo + 1;
  else p = (lo % 2 == 0) ? lo : lo + 1;
  if (p > f.max_finite) p = f.inf;
  return std::uint16_t(sign | p);
}

bool is_nan_pattern(const Format& f, std::uint16_t b) {
  return (b & f.inf) == f.inf && (b & ~(f.inf | 0x8000));
}

// Every value worth trying near each representable one: itself, the midpoint
// to the next (a tie), one double-ulp either side of it, and a quarter of the
// way; with both signs.
void check_all_patterns(const Format& f) {
  std::size_t checked = 0;
  for (std::uint32_t p = 0; p <= f.max_finite; ++p) {
    const double v = f.decode(std::uint16_t(p));
    const double next = p == f.max_finite ? f.beyond : f.decode(std::uint16_t(p + 1));
    const double mid = (v + next) / 2;
    for (double x : {v, mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300), v + (next - v) / 4,
                     next - (next - v) / 4})
      for (double s : {x, -x}) {
        const std::uint16_t want = round_ref(f, s), got = f.core(s);
        if (got != want) {
          INFO(f.name << " value " << s << " (pattern near " << p << ")");
          REQUIRE(got == want);
        }
        ++checked;
      }
  }
  CHECK(checked > 6 * std::size_t(f.max_finite));
}

}  // namespace

TEST_CASE("round_to_float16 and round_to_bfloat16 are correctly rounded", "[half]") {
  for (const Format* f : {&kF16, &kBF16}) {
    SECTION(f->name) {
      check_all_patterns(*f);
      // Log-uniform random values over the whole range, subnormals to overflow.
      std::mt19937_64 rng(17);
      std::uniform_real_distribution<double> exponent(-140, 130), mant(1, 2);
      for (int i = 0; i < 200000; ++i) {
        const double v = std::ldexp(mant(rng), int(std::floor(exponent(rng)))) * (i % 2 ? -1 : 1);
        INFO(f->name << " " << v);
        REQUIRE(f->core(v) == round_ref(*f, v));
      }
      // Specials.
      const double inf = std::numeric_limits<double>::infinity();
      CHECK(f->core(0.0) == 0);
      CHECK(f->core(-0.0) == 0x8000);
      CHECK(f->core(inf) == f->inf);
      CHECK(f->core(-inf) == (0x8000 | f->inf));
      CHECK(is_nan_pattern(*f, f->core(std::numeric_limits<double>::quiet_NaN())));
      CHECK(f->core(std::numeric_limits<double>::denorm_min()) == 0);
      CHECK(f->core(std::numeric_limits<double>::max()) == f->inf);
      // No finite input gives NaN.
      for (double v : {1e308, -1e308, 1e-308, 5e-324}) CHECK_FALSE(is_nan_pattern(*f, f->core(v)));
    }
  }
  // Named values: float16's largest finite 65504, the overflow midpoint 65520
  // (a tie whose even neighbour is infinity), the smallest subnormal 2^-24 and
  // half of it (a tie that goes to zero).
  CHECK(sinpe::round_to_float16(65504.0) == 0x7bff);
  CHECK(sinpe::round_to_float16(std::nextafter(65520.0, 0.0)) == 0x7bff);
  CHECK(sinpe::round_to_float16(65520.0) == 0x7c00);
  CHECK(sinpe::round_to_float16(std::ldexp(1.0, -24)) == 0x0001);
  CHECK(sinpe::round_to_float16(std::ldexp(1.0, -25)) == 0x0000);
  CHECK(sinpe::round_to_float16(std::nextafter(std::ldexp(1.0, -25), 1.0)) == 0x0001);
  CHECK(sinpe::round_to_float16(std::ldexp(3.0, -25)) == 0x0002);        // 1.5 * 2^-24: tie, to even
  CHECK(sinpe::round_to_float16(std::ldexp(3.0, -26)) == 0x0001);        // 0.75 * 2^-24
  CHECK(sinpe::round_to_float16(1.0 - std::ldexp(1.0, -12)) == 0x3c00);  // tie between 1 - 2^-11 and 1
  // One rounding, not two: 1 + 2^-11 + 2^-40 lies just above the midpoint of
  // 1 and 1 + 2^-10, but rounding it to float32 first loses the 2^-40 and
  // leaves a tie that goes down to 1.
  const double above_tie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(sinpe::round_to_float16(above_tie) == 0x3c01);
  CHECK(sinpe::round_to_float16(double(float(above_tie))) == 0x3c00);
  // bfloat16: position 15962 rounds to 15936 (spacing 64 there).
  CHECK(decode_bf16(sinpe::round_to_bfloat16(15962.0)) == 15936.0);
  CHECK(sinpe::round_to_bfloat16(std::ldexp(255.0, 120)) == 0x7f7f);
  CHECK(sinpe::round_to_bfloat16(std::ldexp(511.0, 119)) == 0x7f80);  // (2 - 2^-8) 2^127: tie to infinity
}

namespace {

// The core's float64 values agree with the reference's to a few ulp (trig.hpp),
// so a value within a few ulp of a rounding boundary may round either way;
// elsewhere the patterns must be equal. Counts the boundary cases.
struct HalfCompare {
  const Format& f;
  std::size_t values = 0, equal = 0, boundary = 0;
  double worst_rel = 0;  // |decoded - reference| / |reference|, for the report
  void operator()(std::uint16_t got, double want, const std::string& what) {
    ++values;
    const std::uint16_t exact = round_ref(f, want);
    if (got == exact) {
      ++equal;
    } else {
      const double e = 4 * std::numeric_limits<double>::epsilon() * std::fabs(want);
      const bool near = got == round_ref(f, want - e) || got == round_ref(f, want + e);
      if (!near) {
        INFO(what << ": " << f.name << " of " << want << ": got pattern " << got << " want " << exact);
        REQUIRE(got == exact);
      }
      ++boundary;
    }
    const double d = std::fabs(f.decode(got) - want);
    if (want != 0 && !(d / std::fabs(want) <= worst_rel) && std::fabs(want) > 1e-4)
      worst_rel = d / std::fabs(want);
  }
  void report(const std::string& form) const {
    std::cout << "  [half] " << form << " " << f.name << ": " << equal << " of " << values
              << " patterns equal the independent rounding (" << boundary
              << " within 4 ulp of a boundary); largest relative error " << worst_rel << "\n";
  }
};

std::vector<double> half_positions() {
  std::vector<double> p = {0,     1,      2,  3,       1857,     2047,      2048, 2049, 4095,     15962,
                           65535, 131071, -5, -131072, 16777215, -16777215, 0.5,  1e-3, 12345.678};
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-16777215, 16777215);
  for (int i = 0; i < 200; ++i) p.push_back(std::floor(u(rng)));
  return p;
}

}  // namespace

TEST_CASE("rope_cache and rope_cache_rows in float16 and bfloat16 are the reference rounded once",
          "[half][rope]") {
  sinpe::Options yarn;
  yarn.rope_type = sinpe::RopeType::yarn;
  yarn.factor = 4;
  yarn.original_max_positions = 32768;
  sinpe::Options standard;
  const auto positions = half_positions();
  for (const Format* f : {&kF16, &kBF16}) {
    const Dtype dtype = f == &kF16 ? Dtype::float16 : Dtype::bfloat16;
    HalfCompare cmp{*f};
    for (const sinpe::Options& o : {standard, yarn})
      for (int r : {128, 6, 96}) {
        sinpe::RopePlan plan;
        REQUIRE(sinpe::make_rope_plan(o, r, &plan) == Status::ok);
        const auto prm = to_rope_params(o);
        const std::size_t half = std::size_t(r / 2);
        std::vector<double> wc, ws;
        ref::rope_cache(prm, r, positions, wc, ws);
        for (Path path : {Path::best, Path::scalar}) {
          std::vector<std::uint16_t> c(positions.size() * half, 0xdead), s(c.size(), 0xdead);
          REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::list(positions.data(), positions.size()),
                                    {dtype, c.data(), s.data()}, path) == Status::ok);
          for (std::size_t i = 0; i < c.size(); ++i) {
            cmp(c[i], wc[i], "rope_cache cos");
            cmp(s[i], ws[i], "rope_cache sin");
          }
          for (double start : {0.0, 1790.0, 16777215.0 - 300, -300.0}) {
            const std::size_t n = 300;
            std::vector<double> p(n);
            for (std::size_t i = 0; i < n; ++i) p[i] = start + double(i);
            std::vector<double> rc, rs;
            ref::rope_cache(prm, r, p, rc, rs);
            std::vector<std::uint16_t> cr(n * half, 0xdead), sr(cr.size(), 0xdead);
            REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::range(start, n), {dtype, cr.data(), sr.data()},
                                      path) == Status::ok);
            for (std::size_t i = 0; i < cr.size(); ++i) {
              cmp(cr[i], rc[i], "rope_cache_rows cos");
              cmp(sr[i], rs[i], "rope_cache_rows sin");
            }
          }
        }
      }
    CHECK(cmp.values > 100000);
    CHECK(cmp.boundary * 1000 <= cmp.values);  // boundary cases are rare, not the rule
    cmp.report("rope_cache / rope_cache_rows");
  }
}

TEST_CASE("rows and encode in float16 and bfloat16 are the reference rounded once", "[half]") {
  const auto positions = half_positions();
  for (const Format* f : {&kF16, &kBF16}) {
    const Dtype dtype = f == &kF16 ? Dtype::float16 : Dtype::bfloat16;
    HalfCompare cmp{*f};
    ref::Params vaswani, diffusers, fairseq, t2t;
    diffusers.preset = "diffusers";
    diffusers.scale = 3;
    fairseq.preset = "fairseq";
    fairseq.has_padding = true;
    fairseq.padding_idx = 1;
    t2t.preset = "tensor2tensor";
    for (const ref::Params& prm : {vaswani, diffusers, fairseq, t2t})
      for (int d : {64, 7, 2, 9}) {
        sinpe::Plan plan;
        if (sinpe::make_plan(to_options(prm), d, &plan) != Status::ok)
          continue;  // odd widths some presets refuse
        for (Path path : {Path::best, Path::scalar}) {
          std::vector<std::uint16_t> out(positions.size() * std::size_t(d), 0xdead);
          REQUIRE(sinpe::encode(plan, positions.data(), positions.size(), {dtype, out.data()}, path) ==
                  Status::ok);
          for (std::size_t i = 0; i < positions.size(); ++i) {
            const auto want = ref::row(prm, d, positions[i]);
            for (int c = 0; c < d; ++c)
              cmp(out[i * std::size_t(d) + std::size_t(c)], want[std::size_t(c)], prm.preset);
          }
          const std::size_t n = 130;
          std::vector<std::uint16_t> rows(n * std::size_t(d), 0xdead);
          REQUIRE(sinpe::rows(plan, -3, n, {dtype, rows.data()}, path) == Status::ok);
          for (std::size_t i = 0; i < n; ++i) {
            const auto want = ref::row(prm, d, -3.0 + double(i));
            for (int c = 0; c < d; ++c)
              cmp(rows[i * std::size_t(d) + std::size_t(c)], want[std::size_t(c)], prm.preset);
          }
        }
      }
    CHECK(cmp.values > 50000);
    CHECK(cmp.boundary * 1000 <= cmp.values);
    cmp.report("rows / encode");
  }
}

TEST_CASE("entry points with a dtype refuse one outside the vocabulary and bad input, writing nothing",
          "[half][errors]") {
  sinpe::RopePlan rp;
  REQUIRE(sinpe::make_rope_plan(sinpe::Options{}, 8, &rp) == Status::ok);
  sinpe::Plan plan;
  REQUIRE(sinpe::make_plan(sinpe::Options{}, 8, &plan) == Status::ok);
  std::vector<std::uint16_t> a(64, 0xabcd), b(64, 0xabcd);
  const auto untouched = [&] {
    return std::all_of(a.begin(), a.end(), [](std::uint16_t v) { return v == 0xabcd; }) &&
           std::all_of(b.begin(), b.end(), [](std::uint16_t v) { return v == 0xabcd; });
  };
  const double p[] = {0, 1, std::numeric_limits<double>::quiet_NaN()};
  CHECK(sinpe::rope_cache(rp, sinpe::Positions::range(0, 4),
                          {Dtype(sinpe::kDtypeCount), a.data(), b.data()}) == Status::bad_dtype);
  CHECK(sinpe::rope_cache(rp, sinpe::Positions::range(0, 4), {Dtype(7), a.data(), b.data()}) ==
        Status::bad_dtype);
  CHECK(sinpe::rope_cache(rp, sinpe::Positions::list(p, 2), {Dtype(-1), a.data(), b.data()}) ==
        Status::bad_dtype);
  CHECK(sinpe::rope_cache(rp, sinpe::Positions::list(p, 3), {Dtype::float16, a.data(), b.data()}) ==
        Status::position_not_finite);
  CHECK(sinpe::rope_cache(rp, sinpe::Positions::range(0.5, 4), {Dtype::bfloat16, a.data(), b.data()}) ==
        Status::bad_start);
  CHECK(sinpe::rope_cache(rp, sinpe::Positions::range(16777214, 4), {Dtype::float16, a.data(), b.data()}) ==
        Status::position_out_of_range);
  CHECK(sinpe::rope_cache(rp, sinpe::Positions::range(0, 4), {Dtype::float16, nullptr, b.data()}) ==
        Status::null_pointer);
  // A dtype outside the vocabulary, on each side of it: refused by every entry point.
  for (const Dtype bad : {Dtype(-1), Dtype(sinpe::kDtypeCount)}) {
    CHECK(sinpe::rows(plan, 0, 4, {bad, a.data()}) == Status::bad_dtype);
    CHECK(sinpe::encode(plan, p, 2, {bad, a.data()}) == Status::bad_dtype);
    CHECK(sinpe::rope_cache(rp, sinpe::Positions::range(0, 4), {bad, a.data(), b.data()}) ==
          Status::bad_dtype);
    CHECK(sinpe::rope_cache(rp, sinpe::Positions::list(p, 2), {bad, a.data(), b.data()}) ==
          Status::bad_dtype);
    for (const sinpe::Recipe recipe : {sinpe::Recipe::exact, sinpe::Recipe::float32})
      CHECK(sinpe::rope_cache_recipe(rp, recipe, sinpe::Positions::range(0, 4), {bad, a.data(), b.data()}) ==
            Status::bad_dtype);
  }
  CHECK(sinpe::rows(plan, 0, 4, {Dtype::float16, nullptr}) == Status::null_pointer);
  CHECK(sinpe::encode(plan, p, 3, {Dtype::bfloat16, a.data()}) == Status::position_not_finite);
  CHECK(sinpe::rows(plan, std::numeric_limits<double>::infinity(), 2, {Dtype::float16, a.data()}) ==
        Status::bad_start);
  CHECK(sinpe::rows(sinpe::Plan{}, 0, 2, {Dtype::float16, a.data()}) == Status::invalid_plan);
  CHECK(untouched());
  CHECK(std::string(sinpe::dtype_name(Dtype::bfloat16)) == "bfloat16");
  CHECK(std::string(sinpe::status_name(Status::bad_dtype)) == "bad_dtype");
}

namespace {

// Linear RoPE of rotary dimension r whose pair j has frequency w (up to a
// rounding or two): inv_j = base^(-2j/r) / factor.
sinpe::Options linear_rope(int r, int j, double w) {
  sinpe::Options o;
  o.rope_type = sinpe::RopeType::linear;
  o.factor = std::pow(10000.0, -2.0 * j / r) / w;
  return o;
}

// Rows [first, n) of the range of n positions from start, through both paths,
// against the reference's cos (wc) and sin (ws) of those rows; rows before
// first are computed but not checked.
void check_range_rows(HalfCompare& cmp, const sinpe::RopePlan& plan, sinpe::Dtype dtype, double start,
                      std::size_t first, std::size_t n, std::size_t h, const std::vector<double>& wc,
                      const std::vector<double>& ws, const std::string& what) {
  for (Path path : {Path::best, Path::scalar}) {
    std::vector<std::uint16_t> c(n * h, 0xdead), s(n * h, 0xdead);
    REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::range(start, n), {dtype, c.data(), s.data()}, path) ==
            Status::ok);
    for (std::size_t i = first * h; i < n * h; ++i) {
      cmp(c[i], wc[i - first * h], what + " cos");
      cmp(s[i], ws[i - first * h], what + " sin");
    }
  }
}

// Values that lie on a rounding boundary of f (a midpoint of two neighbours),
// positive: near 1, near 1/2, in the middle of the range, near the smallest
// normal value, and (float16) among the subnormals and half the smallest one.
std::vector<double> boundaries(const Format& f) {
  std::vector<double> b;
  for (double x : {1.0, 0.5, 0.7, 0.1, 3e-3, 1e-4, 6.2e-5, 2e-7, 5e-8}) {
    const std::uint16_t p = round_ref(f, x);
    const double below = f.decode(std::uint16_t(p - 1)), at = f.decode(p);
    if (at > 0 && below >= 0) b.push_back((below + at) / 2);
  }
  if (&f == &kF16) b.push_back(std::ldexp(1.0, -25));  // the tie between 0 and the smallest subnormal
  return b;
}

}  // namespace

// The block kernel's float32 values decide each pattern only when they are
// farther from every rounding boundary than their error bound; values whose
// exact result is a boundary, or 1e-16 ... 1e-8 (relative) beside one, must
// take the exact path. Frequencies are chosen so that sin or cos of one
// position is such a value, that position sitting at the rows where blocks
// and direct anchors change (63/64/65, 1023/1024/1025 rows into a range) at
// small and large positions, in both formats and with both signs.
TEST_CASE("half-precision values at and beside rounding boundaries take the exact path",
          "[half][rope][boundary]") {
  const double kPi = 3.14159265358979323846;
  for (const Format* f : {&kF16, &kBF16}) {
    const Dtype dtype = f == &kF16 ? Dtype::float16 : Dtype::bfloat16;
    HalfCompare cmp{*f};
    std::size_t near = 0;  // values within 2^-30 (relative) of a boundary
    // 16 pairs, the chosen one moving across the vector lanes from case to case.
    constexpr int r = 16 * 2;
    int j = 0;
    for (double target : boundaries(*f))
      for (double rel : {0.0, 0x1p-50, -0x1p-50, 0x1p-45, -0x1p-45, 0x1p-38, -0x1p-38, 0x1p-30, -0x1p-30,
                         0x1p-26, -0x1p-26})
        for (double sign : {1.0, -1.0})
          for (bool sine : {true, false})
            for (double start : {0.0, 100000.0, 16775000.0})
              for (std::size_t row : {0, 1, 63, 64, 65, 1023, 1024, 1025}) {
                const double p = start + double(row);
                if (p == 0) continue;
                const double y = target * (1 + rel);
                // sin(p w) = sign * y or cos(p w) = sign * y, in the first turn.
                const double angle = sine ? (sign > 0 ? std::asin(y) : kPi + std::asin(y))
                                          : (sign > 0 ? std::acos(y) : kPi - std::acos(y));
                j = (j + 5) % (r / 2);
                const sinpe::Options o = linear_rope(r, j, angle / p);
                sinpe::RopePlan plan;
                REQUIRE(sinpe::make_rope_plan(o, r, &plan) == Status::ok);
                // The rows around p of a range that starts at start: only those checked.
                const std::size_t n = row + 2, first = row == 0 ? 0 : row - 1;
                std::vector<double> pos;
                for (std::size_t i = first; i < n; ++i) pos.push_back(start + double(i));
                std::vector<double> wc, ws;
                ref::rope_cache(to_rope_params(o), r, pos, wc, ws);
                const std::size_t h = r / 2, at = (row - first) * h + std::size_t(j);
                const double want = sine ? ws[at] : wc[at];
                const double e = std::ldexp(std::fabs(want), -30);
                if (round_ref(*f, want - e) != round_ref(*f, want + e)) ++near;
                check_range_rows(cmp, plan, dtype, start, first, n, h, wc, ws, "rope_cache_rows");
                for (Path path : {Path::best, Path::scalar}) {
                  // The same row through the arbitrary-positions path.
                  std::vector<std::uint16_t> c1(h, 0xdead), s1(h, 0xdead);
                  REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::list(&p, 1),
                                            {dtype, c1.data(), s1.data()}, path) == Status::ok);
                  for (std::size_t k = 0; k < h; ++k) {
                    cmp(c1[k], wc[(row - first) * h + k], "rope_cache cos");
                    cmp(s1[k], ws[(row - first) * h + k], "rope_cache sin");
                  }
                }
              }
    // The targets were realised: thousands of values within 2^-30 of a boundary.
    CHECK(near > 2000);
    cmp.report("boundary rope_cache_rows / rope_cache");
  }
}

// Large angles: p w of 1e5 ... 1e8 radians, where the block kernel's angle
// (anchor plus j w) and the float64 formula's fl(p w) differ by up to a few
// 1e-9, so a value can sit between a rounding boundary and the kernel's own
// float64 recomputation of it. Each target is a boundary of f reached by
// sin or cos of one position (rows 63/64/65 and 1023/1024/1025 of a range,
// where blocks and direct anchors change); the nearest frequency lands within
// a few 1e-9 of it, and the pattern must still be the reference's value
// rounded once. RoPE caches (split layout) and the diffusers table (its first
// frequency is the scale; interleaved layout), both paths.
TEST_CASE("half-precision values a few 1e-9 from a boundary at large angles are decided exactly",
          "[half][rope][boundary]") {
  const double kPi = 3.14159265358979323846;
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> wdist(0.5, 6.0);
  for (const Format* f : {&kF16, &kBF16}) {
    const Dtype dtype = f == &kF16 ? Dtype::float16 : Dtype::bfloat16;
    HalfCompare cmp{*f};
    std::size_t near = 0;  // values nearer a boundary than the kernel's angle error, beyond the reference's
    std::vector<double> targets = boundaries(*f);
    if (f == &kF16) targets.push_back(std::ldexp(1.0, -24));  // the smallest subnormal itself
    for (double target : targets)
      for (double sign : {1.0, -1.0})
        for (bool sine : {true, false})
          for (double start : {100000.0, 16775000.0})
            for (std::size_t row : {63, 64, 65, 1023, 1024, 1025}) {
              const double p = start + double(row);
              // An angle a whole number of turns beyond the one whose sine or cosine is sign * target.
              const double base_angle = sine ? (sign > 0 ? std::asin(target) : -std::asin(target))
                                             : (sign > 0 ? std::acos(target) : kPi - std::acos(target));
              const double turns = std::floor(p * wdist(rng) / (2 * kPi));
              const double w0 = (base_angle + 2 * kPi * turns) / p;
              const double b = sign * target;
              // The frequency within 20 ulp of w0 whose sin or cos of fl(p w) lands nearest the target
              // yet beyond the reference's own few ulp of it; for RoPE, w as the reference derives it
              // from the option (table 0), for diffusers the scale itself (table 1).
              const auto rope_w = [&](double w) {
                return ref::rope_inv_freq(to_rope_params(linear_rope(8, 0, w)), 8)[0];
              };
              const auto pick = [&](bool rope) {
                double c = w0, w = w0, best = HUGE_VAL;
                for (int k = 0; k < 20; ++k) c = std::nextafter(c, 0.0);
                for (int k = 0; k < 41; ++k, c = std::nextafter(c, HUGE_VAL)) {
                  const double a = p * (rope ? rope_w(c) : c);
                  const double gap = std::fabs((sine ? std::sin(a) : std::cos(a)) - b);
                  if (gap > 16 * std::numeric_limits<double>::epsilon() * target && gap < best) {
                    best = gap;
                    w = c;
                  }
                }
                return w;
              };
              const std::size_t n = row + 2, first = row - 1;
              std::vector<double> pos;
              for (std::size_t i = first; i < n; ++i) pos.push_back(start + double(i));
              for (int table = 0; table < 2; ++table) {
                const double w = pick(table == 0);
                std::vector<double> want;  // rows first .. n-1: the target's sine and cosine columns
                std::vector<std::uint16_t> got[2];
                std::size_t width, col;
                if (table == 0) {
                  // RoPE, r = 8: pair 0 has frequency w (linear_rope), columns sin then cos.
                  const sinpe::Options o = linear_rope(8, 0, w);
                  sinpe::RopePlan plan;
                  REQUIRE(sinpe::make_rope_plan(o, 8, &plan) == Status::ok);
                  std::vector<double> wc, ws;
                  ref::rope_cache(to_rope_params(o), 8, pos, wc, ws);
                  width = 4;
                  col = 0;
                  for (std::size_t i = 0; i < pos.size(); ++i) {
                    want.push_back(ws[i * width + col]);
                    want.push_back(wc[i * width + col]);
                  }
                  for (Path path : {Path::best, Path::scalar}) {
                    std::vector<std::uint16_t> c(n * width, 0xdead), s(n * width, 0xdead);
                    REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::range(start, n),
                                              {dtype, c.data(), s.data()}, path) == Status::ok);
                    auto& g = got[path == Path::best ? 0 : 1];
                    for (std::size_t i = first; i < n; ++i) {
                      g.push_back(s[i * width + col]);
                      g.push_back(c[i * width + col]);
                    }
                  }
                } else {
                  // diffusers, d = 8, interleaved: column 0 is sin(p scale), column 1 its cosine.
                  ref::Params prm;
                  prm.preset = "diffusers";
                  prm.layout = "interleaved";
                  prm.scale = w;
                  sinpe::Plan plan;
                  REQUIRE(sinpe::make_plan(to_options(prm), 8, &plan) == Status::ok);
                  for (double q : pos) {
                    const auto r = ref::row(prm, 8, q);
                    want.push_back(r[0]);
                    want.push_back(r[1]);
                  }
                  for (Path path : {Path::best, Path::scalar}) {
                    std::vector<std::uint16_t> out(n * 8, 0xdead);
                    REQUIRE(sinpe::rows(plan, start, n, {dtype, out.data()}, path) == Status::ok);
                    auto& g = got[path == Path::best ? 0 : 1];
                    for (std::size_t i = first; i < n; ++i) {
                      g.push_back(out[i * 8]);
                      g.push_back(out[i * 8 + 1]);
                    }
                  }
                }
                // The value of the targeted row: near the boundary, yet beyond the reference's own few ulp.
                const double v = want[2 * (row - first) + (sine ? 0 : 1)];
                const double gap = std::fabs(v - b);
                if (gap > 8 * std::numeric_limits<double>::epsilon() * target && gap < std::ldexp(p * w, -50))
                  ++near;
                for (const auto& g : got) {
                  REQUIRE(g.size() == want.size());
                  for (std::size_t i = 0; i < g.size(); ++i)
                    cmp(g[i], want[i],
                        table == 0 ? "large-angle rope_cache_rows" : "large-angle diffusers rows");
                }
              }
            }
    // The targets were realised: hundreds of values nearer a boundary than 4 ulp of their angle.
    CHECK(near > 300);
    cmp.report("large-angle boundary rows");
  }
}

// Values near the top of a format's range, through a large attention factor A:
// the scalar route skips the range's top test when every value is below
// 2^(B+1) (A (1 + 2^-40) below its last float32 midpoint), so each value here
// must still be the reference's rounded once. Pair 0 of YaRN keeps w = 1, so
// A cos(p0) with |cos p0| near 1 (p0 near a multiple of pi) is chosen to be a
// rounding boundary of the format times (1 + rel), p0 at rows 63/64/65 of a
// range; A is the boundary over |cos(fl(p0 w))| as the reference computes it.
TEST_CASE("half-precision values near the top of the range with a large attention factor",
          "[half][rope][boundary]") {
  for (const Format* f : {&kF16, &kBF16}) {
    const Dtype dtype = f == &kF16 ? Dtype::float16 : Dtype::bfloat16;
    HalfCompare cmp{*f};
    std::size_t near = 0;  // values within 2^-30 (relative) of a boundary
    // Midpoints between neighbours in the top binade reachable (float16: below 65504 + 16,
    // bfloat16: 2 A must stay a finite float32), and one lower down.
    const std::vector<double> mids =
        f == &kF16
            ? std::vector<double>{65488.0, 65456.0, 49168.0, 32784.0}
            : std::vector<double>{std::ldexp(1 + 100.5 / 128, 126), std::ldexp(1 + 0.5 / 128, 126), 65408.0};
    for (double mu : mids)
      for (double p0 : {22.0, 44.0, 355.0, 710.0, 104348.0})
        for (double rel : {0.0, 0x1p-50, -0x1p-50, 0x1p-44, -0x1p-44, 0x1p-38, -0x1p-38, 0x1p-30, -0x1p-30})
          for (std::size_t row : {63, 64, 65}) {
            sinpe::Options o;
            o.rope_type = sinpe::RopeType::yarn;
            o.factor = 4;
            o.original_max_positions = 32768;
            constexpr int r = 8;
            ref::RopeParams prm = to_rope_params(o);
            const double w = ref::rope_inv_freq(prm, r)[0];
            const double c = std::cos(p0 * w);
            REQUIRE(std::fabs(c) > 0.9995);
            o.attention_factor = mu * (1 + rel) / std::fabs(c);
            prm = to_rope_params(o);
            sinpe::RopePlan plan;
            REQUIRE(sinpe::make_rope_plan(o, r, &plan) == Status::ok);
            const double start = p0 - double(row);
            const std::size_t n = row + 2, first = row - 1, h = r / 2;
            std::vector<double> pos;
            for (std::size_t i = first; i < n; ++i) pos.push_back(start + double(i));
            std::vector<double> wc, ws;
            ref::rope_cache(prm, r, pos, wc, ws);
            const double want = wc[(row - first) * h];
            const double e = std::ldexp(std::fabs(want), -30);
            if (round_ref(*f, want - e) != round_ref(*f, want + e)) ++near;
            check_range_rows(cmp, plan, dtype, start, first, n, h, wc, ws, "top-of-range rope_cache_rows");
          }
    // The targets were realised: most values within 2^-30 of a boundary.
    CHECK(near >= mids.size() * 5 * 3 * 6);
    cmp.report("top-of-range rope_cache_rows");
  }
}
