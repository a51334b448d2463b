// The block kernel: row ranges across block and re-anchor boundaries, wide
// rows, in-place addition, 2-D grids and the heatmap.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>

#include "support.hpp"

namespace {

std::vector<double> range(double start, std::size_t n) {
  std::vector<double> p(n);
  std::iota(p.begin(), p.end(), start);
  return p;
}

sinpe::Plan plan_for(const ref::Params& prm, int d) {
  sinpe::Plan plan;
  REQUIRE(sinpe::make_plan(to_options(prm), d, &plan) == sinpe::Status::ok);
  return plan;
}

}  // namespace

TEST_CASE("rows over long ranges stay within the contract", "[kernel]") {
  struct Case {
    const char* preset;
    int d;
    double start;
    std::size_t count;
  };
  // 4096 x 512 covers 64 blocks with 4 re-anchors; the others start near 2^24,
  // use an odd width, or are wide enough that the kernel steps row by row.
  const Case cases[] = {{"vaswani", 512, 0, 4096},        {"vaswani", 64, 16777216.0 - 3000, 2999},
                        {"keras", 17, 1000, 1500},        {"tensor2tensor", 7, -2000, 4000},
                        {"fairseq", 64, 0, 2100},         {"diffusers", 320, 0, 1000},
                        {"guided-diffusion", 33, 5, 700}, {"vaswani", 65536, 16777000, 3},
                        {"mae", 8192, 123456, 70}};
  for (const Case& c : cases) {
    ref::Params prm;
    prm.preset = c.preset;
    const auto plan = plan_for(prm, c.d);
    for (sinpe::Path path : {sinpe::Path::best, sinpe::Path::scalar}) {
      std::vector<float> out(c.count * std::size_t(c.d));
      REQUIRE(sinpe::rows(plan, c.start, c.count, out.data(), path) == sinpe::Status::ok);
      INFO(c.preset << " d " << c.d << " start " << c.start << " path " << int(path));
      CHECK(max_error(prm, c.d, range(c.start, c.count), out) <= kTolerance);
    }
  }
}

TEST_CASE("65536 x 64: every row", "[kernel]") {
  ref::Params prm;
  const auto plan = plan_for(prm, 64);
  std::vector<float> out(65536 * 64);
  REQUIRE(sinpe::rows(plan, 0, 65536, out.data()) == sinpe::Status::ok);
  CHECK(max_error(prm, 64, range(0, 65536), out) <= kTolerance);
}

TEST_CASE("random positions up to 2^24 - 1, unsorted and with runs", "[kernel]") {
  std::mt19937_64 rng(20261121);
  std::uniform_real_distribution<double> any(-16777215.0, 16777215.0);
  std::vector<double> p;
  for (int i = 0; i < 300; ++i) p.push_back(std::floor(any(rng)));
  for (int i = 0; i < 100; ++i) p.push_back(any(rng));          // fractional
  for (double x = 16777000; x < 16777100; ++x) p.push_back(x);  // one long run
  ref::Params prm;
  for (int d : {512, 7 + 1}) {
    const auto plan = plan_for(prm, d);
    std::vector<float> out(p.size() * std::size_t(d));
    REQUIRE(sinpe::encode(plan, p.data(), p.size(), out.data()) == sinpe::Status::ok);
    CHECK(max_error(prm, d, p, out) <= kTolerance);
  }
}

TEST_CASE("the SIMD and scalar paths agree", "[kernel]") {
  ref::Params prm;
  for (const char* preset : {"vaswani", "keras", "diffusers"})
    for (int d : {6, 17, 96, 1000}) {
      prm.preset = preset;
      sinpe::Plan plan;
      if (sinpe::make_plan(to_options(prm), d, &plan) != sinpe::Status::ok) continue;
      std::vector<float> a(300 * std::size_t(d)), b(a.size());
      REQUIRE(sinpe::rows(plan, 777, 300, a.data(), sinpe::Path::best) == sinpe::Status::ok);
      REQUIRE(sinpe::rows(plan, 777, 300, b.data(), sinpe::Path::scalar) == sinpe::Status::ok);
      const auto err = sinpe_test::max_abs_error(a, b);
      INFO(preset << " d " << d << ": " << err.describe());
      CHECK(err.within(2 * kTolerance));
    }
}

TEST_CASE("add_rows adds the table to an embedding buffer", "[kernel]") {
  ref::Params prm;
  prm.preset = "fairseq";
  prm.has_padding = true;
  prm.padding_idx = 5;
  const int d = 16;
  const auto plan = plan_for(prm, d);
  std::vector<float> x(20 * d);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 13) * 0.25f - 1.0f;
  const auto before = x;
  REQUIRE(sinpe::add_rows(plan, 0, 20, x.data()) == sinpe::Status::ok);
  sinpe_test::ErrorTracker err;
  for (int r = 0; r < 20; ++r) {
    const auto want = ref::row(prm, d, r);
    for (int c = 0; c < d; ++c) {
      const std::size_t i = std::size_t(r * d + c);
      err.add(double(x[i]), double(before[i]) + want[std::size_t(c)], i);
    }
  }
  INFO(err.describe());
  CHECK(err.within(2 * kTolerance));  // one more float32 rounding for the sum
  for (int c = 0; c < d; ++c) CHECK(x[std::size_t(5 * d + c)] == before[std::size_t(5 * d + c)]);
}

TEST_CASE("grid2d reproduces MAE's get_2d_sincos_pos_embed", "[kernel]") {
  ref::Params prm;
  prm.preset = "mae";
  for (bool cls : {false, true}) {
    sinpe::Plan axis;
    REQUIRE(sinpe::make_grid_plan(to_options(prm), 64, &axis) == sinpe::Status::ok);
    const int H = 7, W = 5, d = 64;
    std::vector<float> out((std::size_t(H * W) + cls) * d);
    REQUIRE(sinpe::grid2d(axis, H, W, cls, out.data()) == sinpe::Status::ok);
    const auto want = ref::grid2d(prm, H, W, d, cls);
    REQUIRE(want.size() == out.size());
    const auto err = sinpe_test::max_abs_error(out, want);
    INFO(err.describe());
    CHECK(err.within(kTolerance));
  }
  sinpe::Plan axis;
  CHECK(sinpe::make_grid_plan(to_options(prm), 66, &axis) == sinpe::Status::d_model_not_multiple_of_4);
}

TEST_CASE("heatmap maps values through the lookup table", "[kernel]") {
  std::vector<std::uint8_t> lut(256 * 4);
  for (int i = 0; i < 256; ++i) {
    lut[std::size_t(4 * i)] = std::uint8_t(i);
    lut[std::size_t(4 * i + 1)] = std::uint8_t(255 - i);
    lut[std::size_t(4 * i + 2)] = std::uint8_t(i / 2);
    lut[std::size_t(4 * i + 3)] = 255;
  }
  ref::Params prm;
  const int d = 128, col0 = 10, cols = 50;
  const auto plan = plan_for(prm, d);
  const double start = 16000000;
  const std::size_t count = 200;
  std::vector<std::uint8_t> px(count * cols * 4);
  REQUIRE(sinpe::heatmap(plan, start, count, col0, cols, lut.data(), -1.0, 1.0, px.data()) ==
          sinpe::Status::ok);
  int mismatches = 0;
  for (std::size_t r = 0; r < count; ++r) {
    const auto want = ref::row(prm, d, start + double(r));
    for (int c = 0; c < cols; ++c) {
      const double t = (want[std::size_t(col0 + c)] + 1.0) / 2.0 * 255.0;
      const int idx = int(px[(r * cols + std::size_t(c)) * 4]);
      // The value is exact to 2.4e-7, so the index may differ by one only at a bin edge.
      if (std::fabs(idx - t) > 0.5 + 1e-4) ++mismatches;
      REQUIRE(px[(r * cols + std::size_t(c)) * 4 + 1] == 255 - idx);
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("a heatmap window is the same pixels as those columns of the whole row", "[kernel]") {
  // The kernel makes only the pairs a window shows; every layout, odd widths,
  // windows inside one half, across the halves and at the ends.
  std::vector<std::uint8_t> lut(256 * 4);
  for (int i = 0; i < 256; ++i)
    for (int c = 0; c < 4; ++c) lut[std::size_t(4 * i + c)] = std::uint8_t((i * (c + 3)) % 256);
  for (const char* preset : {"vaswani", "keras", "tensor2tensor", "guided-diffusion"})
    for (const char* layout : {"interleaved", "concat", "cos-first"})
      for (int d : {9, 64}) {
        ref::Params prm;
        prm.preset = preset;
        prm.layout = layout;
        sinpe::Plan plan;
        if (sinpe::make_plan(to_options(prm), d, &plan) != sinpe::Status::ok) continue;
        const std::size_t count = 70;
        std::vector<std::uint8_t> whole(count * std::size_t(d) * 4);
        REQUIRE(sinpe::heatmap(plan, 1000, count, 0, d, lut.data(), -1, 1, whole.data()) ==
                sinpe::Status::ok);
        const int h = d / 2;
        for (const auto [c0, n] :
             {std::pair{0, 1}, {3, 2}, {h - 2, 4}, {h, 1}, {h + 1, 3}, {d - 1, 1}, {1, d - 2}}) {
          std::vector<std::uint8_t> part(count * std::size_t(n) * 4);
          REQUIRE(sinpe::heatmap(plan, 1000, count, c0, n, lut.data(), -1, 1, part.data()) ==
                  sinpe::Status::ok);
          for (std::size_t r = 0; r < count; ++r) {
            INFO(preset << " " << layout << " d " << d << " window [" << c0 << ", " << c0 + n << ") row "
                        << r);
            REQUIRE(std::memcmp(&part[r * std::size_t(n) * 4],
                                &whole[(r * std::size_t(d) + std::size_t(c0)) * 4], std::size_t(n) * 4) == 0);
          }
        }
      }
}
