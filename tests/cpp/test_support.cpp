// The error helper every accuracy check uses: a NaN or infinite error must
// fail the comparison wherever it appears, and comparing nothing must fail.
#include <catch2/catch.hpp>

#include <limits>
#include <vector>

#include "support.hpp"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

sinpe_test::ErrorTracker track(const std::vector<double>& errors) {
  sinpe_test::ErrorTracker t;
  for (std::size_t i = 0; i < errors.size(); ++i) t.add(errors[i], i);
  return t;
}

}  // namespace

TEST_CASE("ErrorTracker: NaN or infinity anywhere fails, an empty set fails", "[support]") {
  CHECK(track({1e-9, 2e-9, 0}).within(1e-8));
  CHECK(track({1e-9, 2e-9, 0}).worst() == 2e-9);
  CHECK(track({1e-9, 2e-9, 0}).at() == 1);
  CHECK_FALSE(track({1e-9, 1e-3, 0}).within(1e-8));  // a finite wrong value
  CHECK_FALSE(track({kNaN, 1e-9, 0}).within(1e-8));  // NaN first: later finite errors do not clear it
  CHECK_FALSE(track({0, 1e-9, kNaN}).within(1e-8));  // NaN last
  CHECK_FALSE(track({0, kInf, 1e-9}).within(1e-8));
  CHECK_FALSE(track({0, -kInf, 1e-9}).within(1e-8));
  CHECK_FALSE(track({0, kInf}).within(kInf));  // an infinite error fails whatever the tolerance
  CHECK(track({0, kInf, 1e-9}).worst() == kInf);
  CHECK(track({0, kInf, 1e-9}).at() == 1);
  CHECK(std::isnan(track({kInf, kNaN}).worst()));  // NaN wins over infinity
  CHECK(track({0, 1e-9, kNaN, 1e-9}).at() == 2);
  CHECK(track({0, 1e-9, kNaN, 1e-9}).non_finite() == 1);
  const sinpe_test::ErrorTracker empty;
  CHECK_FALSE(empty.within(1e-8));
  CHECK_FALSE(empty.within(kInf));
  CHECK(empty.describe() == "no values compared");
  CHECK(track({kNaN}).describe().find("1 NaN") != std::string::npos);
}

TEST_CASE("ErrorTracker: got - want, with NaN or infinity on either side", "[support]") {
  sinpe_test::ErrorTracker t;
  t.add(1.0, 1.0, 0);
  CHECK(t.within(0));
  t.add(0.5, kNaN, 1);  // a NaN reference fails too
  CHECK_FALSE(t.within(1));
  sinpe_test::ErrorTracker u;
  u.add(kInf, kInf, 0);  // inf - inf is NaN: not a match
  CHECK_FALSE(u.within(1));
  CHECK_FALSE(sinpe_test::max_abs_error(std::vector<float>{1, 2}, std::vector<double>{1}).within(1));
  CHECK_FALSE(sinpe_test::max_abs_error(std::vector<float>{}, std::vector<double>{}).within(1));
  CHECK(sinpe_test::max_abs_error(std::vector<float>{1, 2}, std::vector<double>{1, 2}).within(0));
}

TEST_CASE("max_error against the reference fails on one NaN or infinite cell", "[support]") {
  ref::Params prm;
  const int d = 8;
  const std::vector<double> positions = {0, 1, 2, 3, 4, 5, 6};
  std::vector<float> out;
  for (double p : positions)
    for (double v : ref::row(prm, d, p)) out.push_back(float(v));
  CHECK(max_error(prm, d, positions, out) <= kTolerance);
  for (const float bad : {float(kNaN), float(kInf), -float(kInf), out[5 * d] + 1e-3f}) {
    auto broken = out;
    broken[5 * d] = bad;  // row 5, column 0, followed by correct cells
    INFO("cell value " << bad);
    CHECK_FALSE(max_error(prm, d, positions, broken) <= kTolerance);
  }
  CHECK_FALSE(max_error(prm, d, {}, {}) <= kTolerance);
}
