// Special rows at every block boundary (issue 23, item 8): fairseq's padding
// row (all zeros) and MAE's cls row (all zeros, before the grid) placed at
// rows 0, 1, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 4095, 4096, 4097 and
// across re-anchors, through rows, add_rows, encode, the half-precision rows
// and windowed grids, on both paths. EVERY column of EVERY row is checked
// against the independent reference (tests/cpp/reference.cpp), so a special
// row placed or zeroed wrongly past the first 64-row block, or only partly
// zeroed, fails here.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support.hpp"

using sinpe::Path;
using sinpe::Status;

namespace {

const double kSpecial[] = {0, 1, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 4095, 4096, 4097, 17000};
const int kWidths[] = {16, 30, 64};

ref::Params fairseq(double padding) {
  ref::Params p;
  p.preset = "fairseq";
  p.has_padding = true;
  p.padding_idx = padding;
  return p;
}

// Counts the values of rows at `positions` (width d, `got`) that differ from
// the reference by more than the contract (exactly, for the all-zero special
// row), and describes the first.
struct Mismatch {
  std::size_t count = 0;
  std::string first;
  void add(double p, int c, double got, double want) {
    if (count++ == 0) {
      std::ostringstream s;
      s << "position " << p << ", column " << c << ": got " << got << ", want " << want;
      first = s.str();
    }
  }
};

void compare_rows(const ref::Params& prm, int d, const std::vector<double>& positions, const float* got,
                  Mismatch& m, const float* base = nullptr) {
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const double p = positions[i];
    const std::vector<double> want = ref::row(prm, d, p);
    const bool special = prm.has_padding && p == prm.padding_idx;
    for (int c = 0; c < d; ++c) {
      const std::size_t k = i * std::size_t(d) + std::size_t(c);
      const double w = want[std::size_t(c)] + (base ? double(base[k]) : 0.0);
      const double g = got[k];
      if (special ? g != w : !(std::abs(g - w) <= kTolerance * (base ? 4 : 1))) m.add(p, c, g, w);
    }
  }
}

std::vector<double> range(double start, std::size_t n) {
  std::vector<double> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = start + double(i);
  return p;
}

}  // namespace

TEST_CASE("fairseq's padding row is all zeros at every block boundary, every other row the reference's",
          "[special-rows]") {
  for (Path path : {Path::best, Path::scalar})
    for (int d : kWidths)
      for (double pad : kSpecial) {
        const ref::Params prm = fairseq(pad);
        sinpe::Plan plan;
        REQUIRE(sinpe::make_plan(to_options(prm), d, &plan) == Status::ok);
        Mismatch m;
        // Starts that put the padding row at the first, a middle and the last
        // row of a block, and one row past a block's end.
        for (double start : {0.0, pad - 1, pad - 63, pad - 64, pad - 65, pad - 1000, -3.0}) {
          const std::size_t n = std::size_t(pad - start) + 70;
          if (start + double(n) <= pad) continue;
          std::vector<float> out(n * std::size_t(d), -9.f);
          REQUIRE(sinpe::rows(plan, start, n, out.data(), path) == Status::ok);
          compare_rows(prm, d, range(start, n), out.data(), m);
          // add_rows: the padding row adds nothing
          std::vector<float> x(n * std::size_t(d)), x0;
          for (std::size_t k = 0; k < x.size(); ++k) x[k] = float(k % 7) * 0.25f - 0.5f;
          x0 = x;
          REQUIRE(sinpe::add_rows(plan, start, n, x.data(), path) == Status::ok);
          compare_rows(prm, d, range(start, n), x.data(), m, x0.data());
        }
        // encode: a consecutive run through the padding position, then
        // scattered positions with it in the middle
        std::vector<double> positions = range(std::max(0.0, pad - 80), 160);
        for (double p : {pad + 5000, 3.0, pad, 70.0, pad, 4096.0}) positions.push_back(p);
        std::vector<float> out(positions.size() * std::size_t(d), -9.f);
        REQUIRE(sinpe::encode(plan, positions.data(), positions.size(), out.data(), path) == Status::ok);
        compare_rows(prm, d, positions, out.data(), m);
        INFO("d " << d << ", paddingIdx " << pad << ", path " << int(path) << ": " << m.first);
        CHECK(m.count == 0);
      }
}

TEST_CASE("fairseq's padding row in float16 and bfloat16 is all zero bit patterns, in every column",
          "[special-rows][half]") {
  for (sinpe::Dtype dtype : {sinpe::Dtype::float16, sinpe::Dtype::bfloat16})
    for (int d : kWidths)
      for (double pad : kSpecial) {
        sinpe::Plan plan;
        REQUIRE(sinpe::make_plan(to_options(fairseq(pad)), d, &plan) == Status::ok);
        const double start = std::max(0.0, pad - 70);
        const std::size_t n = 140;
        std::vector<std::uint16_t> out(n * std::size_t(d), 0x1234);
        REQUIRE(sinpe::rows(plan, start, n, {dtype, out.data()}) == Status::ok);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const bool special = start + double(i) == pad;
          std::size_t zeros = 0;
          for (int c = 0; c < d; ++c) zeros += out[i * std::size_t(d) + std::size_t(c)] == 0 ? 1 : 0;
          // an ordinary row has a cosine of 1 or near it in its lowest-frequency pair: never all zeros
          if (special ? zeros != std::size_t(d) : zeros == std::size_t(d)) ++wrong;
        }
        INFO("d " << d << ", paddingIdx " << pad << ", dtype " << int(dtype));
        CHECK(wrong == 0);
      }
}

TEST_CASE("MAE's cls row is all zeros before the grid, and every cell the reference's, in every window",
          "[special-rows]") {
  ref::Params prm;
  prm.preset = "mae";
  for (Path path : {Path::best, Path::scalar})
    for (int d : {16, 64})
      // cells = h*w + 1 around block boundaries: 63, 64, 65, 129, 1025, 4097
      for (auto [h, w] : {std::pair<int, int>{62, 1}, {9, 7}, {8, 8}, {16, 8}, {32, 32}, {64, 64}}) {
        sinpe::Plan axis;
        REQUIRE(sinpe::make_grid_plan(to_options(prm), d, &axis) == Status::ok);
        const std::vector<double> want = ref::grid2d(prm, h, w, d, true);
        const std::size_t cells = std::size_t(h) * std::size_t(w) + 1;
        std::size_t wrong = 0;
        std::string first;
        // the whole grid, then windows that start at, just before and just after block boundaries
        for (std::size_t from :
             {std::size_t(0), std::size_t(1), std::size_t(63), std::size_t(64), std::size_t(65),
              std::size_t(127), std::size_t(128), std::size_t(1024), std::size_t(4096)}) {
          if (from >= cells) continue;
          for (std::size_t count : {cells - from, std::min<std::size_t>(cells - from, 70)}) {
            std::vector<float> out(count * std::size_t(d), -9.f);
            REQUIRE(sinpe::grid2d(axis, std::size_t(h), std::size_t(w), true, from, count, out.data(),
                                  path) == Status::ok);
            for (std::size_t i = 0; i < count; ++i)
              for (int c = 0; c < d; ++c) {
                const double g = out[i * std::size_t(d) + std::size_t(c)];
                const double v = want[(from + i) * std::size_t(d) + std::size_t(c)];
                const bool cls = from + i == 0;
                if (cls ? g != 0.0 : !(std::abs(g - v) <= kTolerance)) {
                  if (wrong++ == 0) {
                    std::ostringstream s;
                    s << "window [" << from << ", " << from + count << "), cell " << from + i << ", column "
                      << c << ": got " << g << ", want " << v;
                    first = s.str();
                  }
                }
              }
          }
        }
        INFO("d " << d << ", grid " << h << " x " << w << ", path " << int(path) << ": " << first);
        CHECK(wrong == 0);
      }
}
