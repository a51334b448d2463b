// float32 output against the independent float64 references rounded once
// (the C++ conversion double -> float, round to nearest, ties to even):
// rows, encode, grid2d, rope_cache (list and range) and apply_rope's cos/sin,
// both paths, and values at and beside float32 rounding boundaries (a
// midpoint of two neighbouring float32 values), where a float32 evaluation, or
// a float64 one without its error bound, rounds the wrong way.
//
// The references agree with the core's float64 values to a few units in the
// last place of the angle and of the value (std::sin against trig.hpp, the
// frequency written out again), so a value within that slack of a midpoint
// may round to either side ("near": at large angles the slack spans several
// float32 values, any of which is then accepted); every other value must be
// bit for bit the reference's rounding.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "reference.hpp"
#include "rope_reference.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"
#include "support.hpp"

namespace {

using sinpe::Path;
using sinpe::Status;

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// got against want rounded once; slack: the reference's own error bound.
struct F32Compare {
  std::size_t values = 0, exact = 0, near = 0;
  void operator()(float got, double want, double slack, const std::string& what) {
    ++values;
    const float lo = float(want - slack), hi = float(want + slack);
    if (bits(lo) == bits(hi)) {
      if (bits(got) != bits(lo)) {
        INFO(what << ": float32 of " << want << " (slack " << slack << "): got " << got << " want " << lo);
        REQUIRE(bits(got) == bits(lo));
      }
      ++exact;
    } else {
      // Within the slack of a boundary (at large angles, of several): any float32 value the slack's
      // ends round to, or between them.
      ++near;
      if (!(got >= lo && got <= hi)) {
        INFO(what << ": float32 of " << want << " near a boundary: got " << got << " want " << lo << " ... "
                  << hi);
        REQUIRE((got >= lo && got <= hi));
      }
    }
  }
  void report(const std::string& form) const {
    std::cout << "  [float32] " << form << ": " << values << " values, " << exact
              << " bit for bit the reference rounded once, " << near
              << " within the reference's own error of a boundary (either neighbour)\n";
  }
};

// The references' slack for a value v of angle a: a few ulp of each.
double slack_of(double angle, double v, double amp = 1.0) {
  return 4e-16 * (std::fabs(angle) + std::fabs(v)) * std::max(1.0, amp) + 1e-300;
}

// The slack when the core's frequency is the reference's bit for bit: both
// take sin/cos of the same float64 angle p w, so they differ only by their
// sin/cos (the core's argument reduction is exact to ~1e-16 absolute, none
// below pi/4; std::sin to an ulp) and the product by the amplitude.
double value_slack(double angle, double v, double amp = 1.0) {
  return 4e-16 * (std::fabs(v) + std::min(1.0, std::fabs(angle))) * std::max(1.0, amp) + 1e-300;
}

std::vector<double> positions_f32() {
  std::vector<double> p = {0,     1,      2,  3,       1857,     2047,      2048, 2049, 4095,     15962,
                           65535, 131071, -5, -131072, 16777215, -16777215, 0.5,  1e-3, 12345.678};
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-16777215, 16777215);
  for (int i = 0; i < 100; ++i) p.push_back(std::floor(u(rng)));
  return p;
}

// Linear RoPE of rotary dimension r whose pair j has frequency w (up to a
// rounding or two): inv_j = base^(-2j/r) / factor.
sinpe::Options linear_rope(int r, int j, double w) {
  sinpe::Options o;
  o.rope_type = sinpe::RopeType::linear;
  o.factor = std::pow(10000.0, -2.0 * j / r) / w;
  return o;
}

}  // namespace

TEST_CASE("float32 rows, encode and grid2d are the reference rounded once", "[float32]") {
  F32Compare cmp;
  const auto positions = positions_f32();
  ref::Params vaswani, diffusers, fairseq, t2t, keras, guided, whisper, mae;
  diffusers.preset = "diffusers";
  diffusers.scale = 3;
  fairseq.preset = "fairseq";
  fairseq.has_padding = true;
  fairseq.padding_idx = 1;
  t2t.preset = "tensor2tensor";
  keras.preset = "keras";
  guided.preset = "guided-diffusion";
  whisper.preset = "whisper";
  mae.preset = "mae";
  for (const ref::Params& prm : {vaswani, diffusers, fairseq, t2t, keras, guided, whisper, mae})
    for (int d : {64, 7, 2, 9, 130}) {
      sinpe::Plan plan;
      if (sinpe::make_plan(to_options(prm), d, &plan) != Status::ok) continue;  // odd widths some refuse
      double wmax = 0;
      for (double f : plan.frequencies()) wmax = std::max(wmax, std::fabs(f));
      const auto check_row = [&](const float* got, double p, const std::string& what) {
        const auto want = ref::row(prm, d, p);
        for (int c = 0; c < d; ++c)
          cmp(got[c], want[std::size_t(c)], slack_of(p * wmax, want[std::size_t(c)]),
              prm.preset + " " + what);
      };
      for (Path path : {Path::best, Path::scalar}) {
        std::vector<float> out(positions.size() * std::size_t(d), -7.f);
        REQUIRE(sinpe::encode(plan, positions.data(), positions.size(), out.data(), path) == Status::ok);
        for (std::size_t i = 0; i < positions.size(); ++i)
          check_row(out.data() + i * std::size_t(d), positions[i], "encode");
        for (double start : {-3.0, 1000.0, 16777000.0 - 300}) {
          const std::size_t n = 300;
          std::vector<float> rows(n * std::size_t(d), -7.f);
          REQUIRE(sinpe::rows(plan, start, n, rows.data(), path) == Status::ok);
          for (std::size_t i = 0; i < n; ++i)
            check_row(rows.data() + i * std::size_t(d), start + double(i), "rows");
        }
      }
    }
  // grid2d (MAE): rows of the column and row coordinates side by side.
  for (int d : {16, 64}) {
    sinpe::Plan axis;
    REQUIRE(sinpe::make_plan(to_options(mae), d / 2, &axis) == Status::ok);
    const int h = 7, w = 70;
    std::vector<float> got(std::size_t(h * w + 1) * std::size_t(d), -7.f);
    for (Path path : {Path::best, Path::scalar}) {
      REQUIRE(sinpe::grid2d(axis, h, w, true, got.data(), path) == Status::ok);
      const auto want = ref::grid2d(mae, h, w, d, true);
      REQUIRE(want.size() == got.size());
      for (std::size_t i = 0; i < got.size(); ++i) cmp(got[i], want[i], slack_of(70, want[i]), "mae grid2d");
    }
  }
  CHECK(cmp.values > 500000);
  // Positions up to 2^24: the angle's slack spans float32 values there.
  CHECK(cmp.near * 4 < cmp.values);
  cmp.report("rows / encode / grid2d");
}

TEST_CASE("float32 rope_cache, rope_cache_rows and apply_rope's cos/sin are the reference rounded once",
          "[float32][rope]") {
  sinpe::Options yarn;
  yarn.rope_type = sinpe::RopeType::yarn;
  yarn.factor = 4;
  yarn.original_max_positions = 32768;
  sinpe::Options llama3;
  llama3.rope_type = sinpe::RopeType::llama3;
  llama3.factor = 8;
  llama3.original_max_positions = 8192;
  sinpe::Options standard;
  const auto positions = positions_f32();
  F32Compare cmp;
  std::size_t same_freq = 0, all_freq = 0;
  for (const sinpe::Options& o : {standard, yarn, llama3})
    for (int r : {128, 6, 96}) {
      sinpe::RopePlan plan;
      REQUIRE(sinpe::make_rope_plan(o, r, &plan) == Status::ok);
      const auto prm = to_rope_params(o);
      const double att = ref::rope_attention(prm, r);
      const auto inv = ref::rope_inv_freq(prm, r);
      const std::size_t half = std::size_t(r / 2);
      // Pairs whose frequency is the reference's bit for bit: their values are checked at the value's slack.
      std::vector<char> same(half);
      for (std::size_t k = 0; k < half; ++k) same[k] = plan.inv_freq()[k] == inv[k];
      same_freq += std::size_t(std::count(same.begin(), same.end(), 1));
      all_freq += half;
      const auto check = [&](const std::vector<float>& c, const std::vector<float>& s,
                             const std::vector<double>& p, const std::string& what) {
        std::vector<double> wc, ws;
        ref::rope_cache(prm, r, p, wc, ws);
        REQUIRE(c.size() == wc.size());
        for (std::size_t i = 0; i < c.size(); ++i) {
          const double angle = p[i / half] * inv[i % half];
          const bool tight = same[i % half];
          cmp(c[i], wc[i], tight ? value_slack(angle, wc[i], att) : slack_of(angle, wc[i], att),
              what + " cos");
          cmp(s[i], ws[i], tight ? value_slack(angle, ws[i], att) : slack_of(angle, ws[i], att),
              what + " sin");
        }
      };
      for (Path path : {Path::best, Path::scalar}) {
        std::vector<float> c(positions.size() * half, -7.f), s(c.size(), -7.f);
        REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::list(positions.data(), positions.size()),
                                  {sinpe::Dtype::float32, c.data(), s.data()}, path) == Status::ok);
        check(c, s, positions, "rope_cache");
        for (double start : {0.0, 1790.0, 16777215.0 - 300, -300.0}) {
          const std::size_t n = 300;
          std::vector<double> p(n);
          for (std::size_t i = 0; i < n; ++i) p[i] = start + double(i);
          std::vector<float> cr(n * half, -7.f), sr(cr.size(), -7.f);
          REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::range(start, n),
                                    {sinpe::Dtype::float32, cr.data(), sr.data()}, path) == Status::ok);
          check(cr, sr, p, "rope_cache_rows");
          // apply_rope of (x_a, x_b) = (1, 0) is (cos, sin) exactly (1 c - 0 s, 0 c + 1 s), both layouts.
          for (sinpe::RopeLayout layout : {sinpe::RopeLayout::half, sinpe::RopeLayout::interleaved}) {
            const bool il = layout == sinpe::RopeLayout::interleaved;
            std::vector<float> x(n * std::size_t(r), 0.f);
            for (std::size_t i = 0; i < n; ++i)
              for (std::size_t k = 0; k < half; ++k) x[i * std::size_t(r) + (il ? 2 * k : k)] = 1.f;
            REQUIRE(sinpe::apply_rope(plan, layout, r, sinpe::Positions::range(start, n), 1, x.data(),
                                      path) == Status::ok);
            std::vector<float> xc(n * half), xs(n * half);
            for (std::size_t i = 0; i < n; ++i)
              for (std::size_t k = 0; k < half; ++k) {
                xc[i * half + k] = x[i * std::size_t(r) + (il ? 2 * k : k)];
                xs[i * half + k] = x[i * std::size_t(r) + (il ? 2 * k + 1 : k + half)];
              }
            check(xc, xs, p, "apply_rope");
          }
        }
      }
    }
  CHECK(cmp.values > 500000);
  CHECK(cmp.near * 100 < cmp.values);
  // Most frequencies are the reference's bit for bit (their values checked at the tight slack).
  CHECK(same_freq * 2 > all_freq);
  std::cout << "  [float32] rope: " << same_freq << " of " << all_freq
            << " frequencies the reference's bit for bit\n";
  cmp.report("rope_cache / rope_cache_rows / apply_rope");
}

// Frequencies chosen so that sin or cos of one position is a float32 rounding
// boundary (a midpoint of two neighbours) times (1 + rel), rel from 0 to
// 2^-30: the float32 kernel (error 2.4e-7) cannot decide any of them, and a
// float64 evaluation (error ~1e-16 plus its angle's) must send the ones within
// its error bound to the exact path. The position sits at the rows where
// blocks and direct anchors change (63/64/65, 1023/1024/1025 rows into a
// range) at small and large positions, with both signs, the chosen pair moving
// across vector lanes; through rope_cache_rows, rope_cache at that one
// position, and both paths.
TEST_CASE("float32 values at and beside rounding boundaries are the reference rounded once",
          "[float32][rope][boundary]") {
  const double kPi = 3.14159265358979323846;
  // Midpoints between neighbouring float32 values near 1, 1/2, 0.7, 0.1, 3e-3, 1e-4, 2e-7 and 1e-30.
  std::vector<double> targets;
  for (double x : {1.0, 0.5, 0.7, 0.1, 3e-3, 1e-4, 2e-7, 1e-30}) {
    const float f = float(x);
    const float below = std::nextafter(f, 0.f);
    targets.push_back((double(below) + double(f)) / 2);
  }
  F32Compare cmp;
  std::size_t near = 0;  // values within 2^-40 (relative) of a boundary, beyond the reference's slack
  constexpr int r = 16 * 2;
  int j = 0;
  for (double target : targets)
    for (double rel :
         {0.0, 0x1p-50, -0x1p-50, 0x1p-45, -0x1p-45, 0x1p-41, -0x1p-41, 0x1p-38, -0x1p-38, 0x1p-30, -0x1p-30})
      for (double sign : {1.0, -1.0})
        for (bool sine : {true, false})
          for (double start : {0.0, 100000.0, 16775000.0})
            for (std::size_t row : {1, 63, 64, 65, 1023, 1024, 1025}) {
              const double p = start + double(row);
              const double y = target * (1 + rel);
              const double angle = sine ? (sign > 0 ? std::asin(y) : kPi + std::asin(y))
                                        : (sign > 0 ? std::acos(y) : kPi - std::acos(y));
              j = (j + 5) % (r / 2);
              const sinpe::Options o = linear_rope(r, j, angle / p);
              sinpe::RopePlan plan;
              REQUIRE(sinpe::make_rope_plan(o, r, &plan) == Status::ok);
              const auto prm = to_rope_params(o);
              const auto inv = ref::rope_inv_freq(prm, r);
              const auto slack = [&](std::size_t k, double angle, double v) {
                return plan.inv_freq()[k] == inv[k] ? value_slack(angle, v) : slack_of(angle, v);
              };
              const std::size_t n = row + 2, first = row - 1, h = r / 2;
              std::vector<double> pos;
              for (std::size_t i = first; i < n; ++i) pos.push_back(start + double(i));
              std::vector<double> wc, ws;
              ref::rope_cache(prm, r, pos, wc, ws);
              const std::size_t at = (row - first) * h + std::size_t(j);
              const double want = sine ? ws[at] : wc[at];
              const double sl = slack(std::size_t(j), p * inv[std::size_t(j)], want);
              const double e = std::ldexp(std::fabs(want), -40);
              if (std::fabs(want) > 1e-300 && float(want - sl) == float(want + sl) &&
                  float(want - e) != float(want + e))
                ++near;
              for (Path path : {Path::best, Path::scalar}) {
                std::vector<float> c(n * h, -7.f), s(n * h, -7.f);
                REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::range(start, n),
                                          {sinpe::Dtype::float32, c.data(), s.data()}, path) == Status::ok);
                for (std::size_t i = first * h; i < n * h; ++i) {
                  const double angle_i = pos[i / h - first] * inv[i % h];
                  cmp(c[i], wc[i - first * h], slack(i % h, angle_i, wc[i - first * h]),
                      "rope_cache_rows cos");
                  cmp(s[i], ws[i - first * h], slack(i % h, angle_i, ws[i - first * h]),
                      "rope_cache_rows sin");
                }
                std::vector<float> c1(h, -7.f), s1(h, -7.f);
                REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::list(&p, 1),
                                          {sinpe::Dtype::float32, c1.data(), s1.data()}, path) == Status::ok);
                for (std::size_t k = 0; k < h; ++k) {
                  const double angle_k = p * inv[k];
                  const std::size_t w = (row - first) * h + k;
                  cmp(c1[k], wc[w], slack(k, angle_k, wc[w]), "rope_cache cos");
                  cmp(s1[k], ws[w], slack(k, angle_k, ws[w]), "rope_cache sin");
                }
              }
            }
  // The targets were realised: thousands of values within 2^-40 of a boundary, yet decidable.
  CHECK(near > 2000);
  std::cout << "  [float32] boundary traps: " << near
            << " values within 2^-40 (relative) of a float32 midpoint, outside the reference's slack\n";
  cmp.report("boundary rope_cache_rows / rope_cache");
}
