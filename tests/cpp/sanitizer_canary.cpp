// Deliberate errors the sanitizers must report, as hidden test cases that
// only `tests/cpp/sanitizers.sh --smoke` runs (npm test's smoke of
// `npm run test:sanitizers`), one at a time, each expected to stop its run
// with the named sanitizer's report: they prove the asan build is instrumented
// and its options are on, which a suite that passes cannot tell.
#include <catch2/catch.hpp>

#include <climits>
#include <vector>

namespace {
volatile int g_past_end = 4;  // volatile: the compiler cannot see the errors coming
volatile int g_largest = INT_MAX;
}  // namespace

TEST_CASE("canary: AddressSanitizer reports a heap read one past the end", "[.canary]") {
  std::vector<int> v(4, 1);
  v.shrink_to_fit();
  const volatile int x = v.data()[g_past_end];
  CHECK(x != 2);
}

TEST_CASE("canary: UndefinedBehaviorSanitizer reports a signed overflow", "[.canary]") {
  const int a = g_largest;
  const volatile int b = a + 1;
  CHECK(b != 2);
}

TEST_CASE("canary: LeakSanitizer reports an allocation never freed", "[.canary]") {
  volatile int* leaked = new int[16];
  leaked[0] = 1;
  leaked = nullptr;
  CHECK(leaked == nullptr);
}
