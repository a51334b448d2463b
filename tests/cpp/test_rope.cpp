// RoPE against the independent float64 reference (rope_reference.cpp): the
// frequencies and attention factor of every rope type, cache rows at any
// positions and row ranges, in-place rotation in both layouts with partial
// rotary and odd head counts, on both code paths, each within the accuracy
// contract of rope.hpp; the relative-position property; and bad input, which
// must yield the status naming the argument and leave every output untouched.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "expected_reads.hpp"
#include "options.hpp"
#include "rope_reference.hpp"
#include "sinpe/rope.hpp"
#include "support.hpp"

namespace {

using sinpe::Option;
using sinpe::Path;
using sinpe::RopeLayout;
using sinpe::RopeType;
using sinpe::Status;

// The accuracy contract (rope.hpp, README).
constexpr double kCacheTolerance = 2.5e-7;     // x max(1, att)
constexpr double kRotateTolerance = 5e-7;      // x max(1, att) (|x_a| + |x_b|)
constexpr double kFrequencyTolerance = 1e-12;  // relative
constexpr double kMaxPosition = 16777215.0;    // 2^24 - 1
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

sinpe::Options rope(RopeType t) {
  sinpe::Options o;
  o.rope_type = t;
  return o;
}

// Phi-3-like longrope rescale factors for r/2 pairs: short ones near 1, long ones growing.
std::vector<double> short_factors(int r) {
  std::vector<double> f;
  for (int j = 0; j < r / 2; ++j) f.push_back(1.0 + 0.02 * j);
  return f;
}
std::vector<double> long_factors(int r) {
  std::vector<double> f;
  for (int j = 0; j < r / 2; ++j) f.push_back(1.0 + 0.5 * std::pow(double(j), 1.2));
  return f;
}

// One configuration of a rope type, for any rotary dimension r.
struct RopeCase {
  const char* name;
  sinpe::Options (*make)(int r);
};

// Every rope type with the options that change its formula: published
// configurations (Llama 3.1/3.2, Qwen2.5, gpt-oss, DeepSeek, Phi-3) and the
// branches between them.
const std::vector<RopeCase>& rope_cases() {
  static const std::vector<RopeCase> cases = {
      {"default", [](int) { return rope(RopeType::standard); }},
      {"default base 500000",
       [](int) {
         auto o = rope(RopeType::standard);
         o.base = 500000;
         return o;
       }},
      {"linear factor 4",
       [](int) {
         auto o = rope(RopeType::linear);
         o.factor = 4;
         return o;
       }},
      {"linear factor 0.25 base 1e6",
       [](int) {
         auto o = rope(RopeType::linear);
         o.factor = 0.25;
         o.base = 1e6;
         return o;
       }},
      {"dynamic without seqLen",
       [](int) {
         auto o = rope(RopeType::dynamic);
         o.factor = 2;
         o.max_positions = 2048;
         return o;
       }},
      {"dynamic seqLen 8192 > maxPositions",
       [](int) {
         auto o = rope(RopeType::dynamic);
         o.factor = 2;
         o.max_positions = 2048;
         o.seq_len = 8192;
         return o;
       }},
      {"dynamic seqLen 100 < maxPositions",
       [](int) {
         auto o = rope(RopeType::dynamic);
         o.factor = 4;
         o.max_positions = 4096;
         o.seq_len = 100;
         return o;
       }},
      {"yarn Qwen2.5 (factor 4, originalMaxPositions 32768, base 1e6)",
       [](int) {
         auto o = rope(RopeType::yarn);
         o.factor = 4;
         o.original_max_positions = 32768;
         o.base = 1e6;
         return o;
       }},
      {"yarn gpt-oss (factor 32, truncate false, base 150000)",
       [](int) {
         auto o = rope(RopeType::yarn);
         o.factor = 32;
         o.original_max_positions = 4096;
         o.base = 150000;
         o.beta_fast = 32;
         o.beta_slow = 1;
         o.truncate = false;
         return o;
       }},
      {"yarn DeepSeek (mscale 1, mscaleAllDim 0.8, factor 40)",
       [](int) {
         auto o = rope(RopeType::yarn);
         o.factor = 40;
         o.original_max_positions = 4096;
         o.mscale = 1;
         o.mscale_all_dim = 0.8;
         return o;
       }},
      {"yarn attentionFactor 1.25",
       [](int) {
         auto o = rope(RopeType::yarn);
         o.factor = 8;
         o.original_max_positions = 2048;
         o.attention_factor = 1.25;
         return o;
       }},
      {"yarn originalMaxPositions + maxPositions, no factor",
       [](int) {
         auto o = rope(RopeType::yarn);
         o.original_max_positions = 4096;
         o.max_positions = 131072;
         return o;
       }},
      {"yarn maxPositions + factor (L = maxPositions)",
       [](int) {
         auto o = rope(RopeType::yarn);
         o.max_positions = 8192;
         o.factor = 4;
         return o;
       }},
      {"yarn betaFast 16 betaSlow 2 truncate false",
       [](int) {
         auto o = rope(RopeType::yarn);
         o.factor = 3;
         o.original_max_positions = 1000;
         o.beta_fast = 16;
         o.beta_slow = 2;
         o.truncate = false;
         return o;
       }},
      {"longrope Phi-3 short (no seqLen)",
       [](int r) {
         auto o = rope(RopeType::longrope);
         o.short_factor = short_factors(r);
         o.long_factor = long_factors(r);
         o.original_max_positions = 4096;
         o.max_positions = 131072;
         return o;
       }},
      {"longrope seqLen = originalMaxPositions (short)",
       [](int r) {
         auto o = rope(RopeType::longrope);
         o.short_factor = short_factors(r);
         o.long_factor = long_factors(r);
         o.original_max_positions = 4096;
         o.max_positions = 131072;
         o.seq_len = 4096;
         return o;
       }},
      {"longrope seqLen = originalMaxPositions + 1 (long)",
       [](int r) {
         auto o = rope(RopeType::longrope);
         o.short_factor = short_factors(r);
         o.long_factor = long_factors(r);
         o.original_max_positions = 4096;
         o.max_positions = 131072;
         o.seq_len = 4097;
         return o;
       }},
      {"longrope attentionFactor 1.1, factor 8",
       [](int r) {
         auto o = rope(RopeType::longrope);
         o.short_factor = short_factors(r);
         o.long_factor = long_factors(r);
         o.original_max_positions = 4096;
         o.factor = 8;
         o.attention_factor = 1.1;
         o.seq_len = 5000;
         return o;
       }},
      {"longrope maxPositions + factor (L = maxPositions)",
       [](int r) {
         auto o = rope(RopeType::longrope);
         o.short_factor = short_factors(r);
         o.long_factor = long_factors(r);
         o.max_positions = 4096;
         o.factor = 2;
         o.seq_len = 10000;
         return o;
       }},
      {"llama3 Llama 3.1 (defaults, base 500000)",
       [](int) {
         auto o = rope(RopeType::llama3);
         o.base = 500000;
         return o;
       }},
      {"llama3 Llama 3.2 (factor 32)",
       [](int) {
         auto o = rope(RopeType::llama3);
         o.base = 500000;
         o.factor = 32;
         o.low_freq_factor = 1;
         o.high_freq_factor = 4;
         o.original_max_positions = 8192;
         return o;
       }},
      {"llama3 factor 4 low 2 high 8 originalMaxPositions 4096",
       [](int) {
         auto o = rope(RopeType::llama3);
         o.factor = 4;
         o.low_freq_factor = 2;
         o.high_freq_factor = 8;
         o.original_max_positions = 4096;
         return o;
       }},
      // Gemma 4's full-attention layers: base 1e6, a quarter of the pairs turning.
      {"proportional partialRotaryFactor 0.25 base 1e6",
       [](int) {
         auto o = rope(RopeType::proportional);
         o.base = 1e6;
         o.partial_rotary_factor = 0.25;
         return o;
       }},
      {"proportional factor 8 partialRotaryFactor 0.6",
       [](int) {
         auto o = rope(RopeType::proportional);
         o.factor = 8;
         o.partial_rotary_factor = 0.6;
         return o;
       }},
      {"proportional (defaults: every pair turns)", [](int) { return rope(RopeType::proportional); }},
  };
  return cases;
}

// Largest errors per rope type over a test case, as fractions of the contract.
struct Worst {
  sinpe_test::ErrorTracker absolute, ratio;
  void add(double err, double tol) {
    absolute.add(err);
    ratio.add(err / tol);
  }
};
using WorstByType = std::map<std::string, Worst>;

void report(const char* what, const WorstByType& worst) {
  std::ostringstream s;
  s << what << ", largest error per rope type (absolute; fraction of the contract):";
  for (const auto& [type, w] : worst)
    s << "\n  " << type << ": " << w.absolute.worst() << " (" << w.ratio.worst() << ")";
  WARN(s.str());
}

sinpe::RopePlan plan_for(const sinpe::Options& o, int r) {
  sinpe::RopePlan plan;
  REQUIRE(sinpe::make_rope_plan(o, r, &plan) == Status::ok);
  REQUIRE(plan.valid());
  REQUIRE(plan.rotary_dim() == r);
  return plan;
}

// Positions crossing 64-row blocks and 16-block re-anchors, fractional,
// negative, near +-(2^24 - 1), in runs and scattered.
std::vector<double> cache_positions() {
  std::vector<double> p;
  for (int i = 0; i < 2100; ++i) p.push_back(i);                        // 33 blocks, 2 re-anchors
  for (int i = 0; i < 130; ++i) p.push_back(0.5 + i);                   // a fractional run
  for (int i = 0; i < 1100; ++i) p.push_back(kMaxPosition - 1099 + i);  // run ending at 2^24 - 1
  for (int i = 0; i < 70; ++i) p.push_back(-kMaxPosition + i);          // run from -(2^24 - 1)
  for (int i = 0; i < 100; ++i) p.push_back(-3000.0 + i);               // negative run
  std::mt19937_64 rng(0x5eed0001);
  std::uniform_real_distribution<double> any(-kMaxPosition, kMaxPosition);
  for (int i = 0; i < 300; ++i) p.push_back(std::floor(any(rng)));  // scattered integers
  for (int i = 0; i < 200; ++i) p.push_back(any(rng));              // scattered fractional
  for (double x : {1e-9, -0.25, 0.125, 3.75, 16777214.5, -16777214.75, 8388608.5, 1.0, 0.0, 1.0, 2.0})
    p.push_back(x);
  return p;
}

// |got - want| <= tolerance for each of n*half cos and sin values.
void compare_cache(const std::vector<float>& cos, const std::vector<float>& sin,
                   const std::vector<double>& want_cos, const std::vector<double>& want_sin, double att,
                   Worst& worst, const std::string& what) {
  const double tol = kCacheTolerance * std::max(1.0, att);
  REQUIRE(cos.size() == want_cos.size());
  sinpe_test::ErrorTracker err;
  for (std::size_t i = 0; i < cos.size(); ++i)
    for (double e : {std::fabs(double(cos[i]) - want_cos[i]), std::fabs(double(sin[i]) - want_sin[i])}) {
      worst.add(e, tol);
      err.add(e, i);
    }
  INFO(what << ": " << err.describe() << " (tolerance " << tol << ")");
  CHECK(err.within(tol));
}

}  // namespace

TEST_CASE("RoPE frequencies and attention factor equal the float64 reference", "[rope]") {
  WorstByType worst;
  for (const RopeCase& c : rope_cases())
    for (int r : {2, 6, 32, 64, 80, 96, 128, 256}) {
      const sinpe::Options o = c.make(r);
      const auto plan = plan_for(o, r);
      const auto prm = to_rope_params(o);
      const auto want = ref::rope_inv_freq(prm, r);
      const double att = ref::rope_attention(prm, r);
      INFO(c.name << " r " << r);
      REQUIRE(plan.inv_freq().size() == want.size());
      sinpe_test::ErrorTracker rel;
      for (std::size_t j = 0; j < want.size(); ++j) {
        // proportional's still pairs: exactly 0 both sides.
        const double got = plan.inv_freq()[j];
        rel.add(want[j] == 0 ? (got == 0 ? 0.0 : kInf) : std::fabs(got - want[j]) / want[j], j);
      }
      INFO(rel.describe());
      CHECK(rel.within(kFrequencyTolerance));
      const double att_rel = std::fabs(plan.attention_factor() - att) / att;
      CHECK(att_rel <= kFrequencyTolerance);
      rel.add(att_rel, want.size());
      worst[sinpe::rope_type_name(o.rope_type)].add(rel.worst(), kFrequencyTolerance);
    }
  report("inv_j and attention factor (relative)", worst);
}

TEST_CASE("the cases exercise every branch they name", "[rope]") {
  // Without these the comparisons above could pass on formulas that agree by accident.
  const auto inv = [](const sinpe::Options& o) { return plan_for(o, 64).inv_freq(); };
  const auto att = [](const sinpe::Options& o) { return plan_for(o, 64).attention_factor(); };
  const auto find = [](const char* name) {
    for (const RopeCase& c : rope_cases())
      if (std::string(c.name) == name) return c.make(64);
    FAIL("no case " << name);
    return sinpe::Options{};
  };
  CHECK(inv(find("longrope seqLen = originalMaxPositions (short)")) ==
        inv(find("longrope Phi-3 short (no seqLen)")));
  CHECK(inv(find("longrope seqLen = originalMaxPositions + 1 (long)")) !=
        inv(find("longrope Phi-3 short (no seqLen)")));
  CHECK(inv(find("dynamic seqLen 8192 > maxPositions")) != inv(find("dynamic without seqLen")));
  CHECK(inv(find("yarn gpt-oss (factor 32, truncate false, base 150000)")) != [&] {
    auto o = find("yarn gpt-oss (factor 32, truncate false, base 150000)");
    o.truncate = true;
    return inv(o);
  }());
  CHECK(att(find("yarn DeepSeek (mscale 1, mscaleAllDim 0.8, factor 40)")) != 1.0);
  CHECK(att(find("yarn Qwen2.5 (factor 4, originalMaxPositions 32768, base 1e6)")) > 1.0);
  CHECK(att(find("longrope Phi-3 short (no seqLen)")) > 1.0);
  CHECK(att(find("yarn attentionFactor 1.25")) == 1.25);
  CHECK(inv(find("llama3 Llama 3.1 (defaults, base 500000)")) != inv(find("default base 500000")));
  // proportional: exponents over the whole rotary dimension (not a quarter of it),
  // pairs beyond the fraction still; the factor divides.
  {
    const auto p = inv(find("proportional partialRotaryFactor 0.25 base 1e6"));
    auto d = rope(RopeType::standard);
    d.base = 1e6;
    const auto full = inv(d);
    CHECK(p[7] == full[7]);
    CHECK(p[7] > 0);
    CHECK(p[8] == 0);
    CHECK(p[31] == 0);
    const auto f = inv(find("proportional factor 8 partialRotaryFactor 0.6"));  // floor(0.6 * 64 / 2) = 19
    CHECK(f[18] > 0);
    CHECK(f[19] == 0);
    CHECK(f[3] == inv(rope(RopeType::standard))[3] / 8);
    CHECK(inv(find("proportional (defaults: every pair turns)")) == inv(rope(RopeType::standard)));
  }
}

TEST_CASE("rope_cache and rope_cache_rows are within the contract", "[rope]") {
  const auto positions = cache_positions();
  struct Range {
    double start;
    std::size_t count;
  };
  // Whole blocks, one short of and one past a block, re-anchors, both ends of the range.
  const Range ranges[] = {{0, 2100},
                          {kMaxPosition - 1099, 1100},
                          {-kMaxPosition, 1030},
                          {-40, 80},
                          {5, 1},
                          {0, 64},
                          {0, 65},
                          {100, 63},
                          {1023, 2},
                          {7, 1025}};
  WorstByType worst;
  for (const RopeCase& c : rope_cases())
    for (int r : {64, 128, 6}) {
      const sinpe::Options o = c.make(r);
      const auto plan = plan_for(o, r);
      const auto prm = to_rope_params(o);
      const double att = ref::rope_attention(prm, r);
      const std::size_t half = std::size_t(r / 2);
      Worst& w = worst[sinpe::rope_type_name(o.rope_type)];
      std::vector<double> want_cos, want_sin;
      ref::rope_cache(prm, r, positions, want_cos, want_sin);
      for (Path path : {Path::best, Path::scalar}) {
        INFO(c.name << " r " << r << " path " << int(path));
        std::vector<float> cos(positions.size() * half, -7.f), sin(cos.size(), -7.f);
        REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::list(positions.data(), positions.size()),
                                  {sinpe::Dtype::float32, cos.data(), sin.data()}, path) == Status::ok);
        compare_cache(cos, sin, want_cos, want_sin, att, w, "rope_cache");
        for (const Range& range : ranges) {
          std::vector<double> p(range.count);
          for (std::size_t i = 0; i < range.count; ++i) p[i] = range.start + double(i);
          std::vector<double> rc, rs;
          ref::rope_cache(prm, r, p, rc, rs);
          std::vector<float> cr(range.count * half, -7.f), sr(cr.size(), -7.f);
          REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::range(range.start, range.count),
                                    {sinpe::Dtype::float32, cr.data(), sr.data()}, path) == Status::ok);
          std::ostringstream what;
          what << "rope_cache_rows(" << range.start << ", " << range.count << ")";
          compare_cache(cr, sr, rc, rs, att, w, what.str());
        }
      }
    }
  report("rope_cache / rope_cache_rows", worst);
}

TEST_CASE("rope caches of wide rotary dimensions (the kernel's narrow and row-by-row blocks)", "[rope]") {
  std::vector<double> positions;
  for (int i = 0; i < 40; ++i) positions.push_back(1000 + i);
  for (double x : {0.0, 0.5, -77.0, 16777215.0, -16777215.0, 123456.789}) positions.push_back(x);
  for (const char* name :
       {"default", "yarn Qwen2.5 (factor 4, originalMaxPositions 32768, base 1e6)",
        "llama3 Llama 3.1 (defaults, base 500000)", "longrope attentionFactor 1.1, factor 8"})
    for (int r : {2048, 8192, 65536}) {
      const RopeCase* c = nullptr;
      for (const RopeCase& k : rope_cases())
        if (std::string(k.name) == name) c = &k;
      REQUIRE(c != nullptr);
      const sinpe::Options o = c->make(r);
      const auto plan = plan_for(o, r);
      const auto prm = to_rope_params(o);
      std::vector<double> want_cos, want_sin;
      ref::rope_cache(prm, r, positions, want_cos, want_sin);
      Worst w;
      for (Path path : {Path::best, Path::scalar}) {
        INFO(name << " r " << r << " path " << int(path) << " block " << plan.rows_plan().block_rows());
        std::vector<float> cos(positions.size() * std::size_t(r / 2)), sin(cos.size());
        REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::list(positions.data(), positions.size()),
                                  {sinpe::Dtype::float32, cos.data(), sin.data()}, path) == Status::ok);
        compare_cache(cos, sin, want_cos, want_sin, ref::rope_attention(prm, r), w, "rope_cache");
      }
    }
}

namespace {

// Float32 inputs with ordinary, tiny, zero and large values.
std::vector<float> random_x(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-3.f, 3.f);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = u(rng);
    if (i % 37 == 5) x[i] = 0.f;
    if (i % 41 == 7) x[i] *= 1e-30f;
    if (i % 43 == 11) x[i] *= 1e4f;
  }
  return x;
}

// Token positions: a run crossing apply_rope's 64-token chunks, then scattered
// integer, fractional, negative and extreme positions.
std::vector<double> token_positions() {
  std::vector<double> p;
  for (int i = 0; i < 70; ++i) p.push_back(i);
  for (double x : {16777215.0, -16777215.0, 0.5, 1e6 + 0.25, -3.0, 4096.0, 4097.0, 99999.0, 16777214.5, 2.0})
    p.push_back(x);
  std::mt19937_64 rng(0x5eed0002);
  std::uniform_real_distribution<double> any(-kMaxPosition, kMaxPosition);
  for (int i = 0; i < 50; ++i) p.push_back(i % 2 ? any(rng) : std::floor(any(rng)));
  return p;
}

// The pair partner of rotated dimension i < r.
std::size_t partner(std::size_t i, std::size_t r, RopeLayout layout) {
  if (layout == RopeLayout::half) return i < r / 2 ? i + r / 2 : i - r / 2;
  return i ^ 1u;
}

// Checks `got`, x rotated (vectors of hd floats, the first r rotated), against
// the float64 reference `want`: each rotated value within the contract, the
// other columns unchanged bit for bit; the errors go to w.
void check_rotation(const std::vector<float>& x, const std::vector<float>& got,
                    const std::vector<double>& want, std::size_t vectors, std::size_t hd, std::size_t r,
                    RopeLayout layout, double att, Worst& w) {
  REQUIRE(got.size() == vectors * hd);
  REQUIRE(want.size() == got.size());
  sinpe_test::ErrorTracker ratios;
  std::size_t changed_pass_through = 0;
  for (std::size_t v = 0; v < vectors; ++v)
    for (std::size_t i = 0; i < hd; ++i) {
      const std::size_t at = v * hd + i;
      if (i >= r) {
        if (std::memcmp(&got[at], &x[at], sizeof(float)) != 0) ++changed_pass_through;
        continue;
      }
      const std::size_t b = v * hd + partner(i, r, layout);
      const double scale = std::max(1.0, att) * (std::fabs(double(x[at])) + std::fabs(double(x[b])));
      const double e = std::fabs(double(got[at]) - want[at]);
      const double ratio = scale > 0 ? e / (kRotateTolerance * scale) : (e == 0 ? 0 : kInf);
      w.add(ratio * kRotateTolerance, kRotateTolerance);
      ratios.add(ratio, at);
    }
  CHECK(changed_pass_through == 0);
  INFO(ratios.describe());
  CHECK(ratios.within(1.0));
}

}  // namespace

TEST_CASE("apply_rope rotates both layouts within the contract", "[rope]") {
  const auto positions = token_positions();
  const std::size_t n = positions.size();
  struct Dims {
    int head_dim, rotary_dim;
  };
  // Full, partial (phi-2: 32 of 80; GPT-J: 64 of 256), and widths that are no
  // multiple of the SIMD width.
  const Dims dims[] = {{128, 128}, {64, 64}, {80, 32}, {256, 64}, {6, 6},   {10, 10},
                       {10, 4},    {6, 2},   {2, 2},   {96, 96},  {34, 30}, {18, 18}};
  WorstByType worst;
  std::uint64_t seed = 1;
  for (const RopeCase& c : rope_cases())
    for (const Dims& d : dims) {
      const sinpe::Options o = c.make(d.rotary_dim);
      const auto plan = plan_for(o, d.rotary_dim);
      const auto prm = to_rope_params(o);
      const double att = ref::rope_attention(prm, d.rotary_dim);
      Worst& w = worst[sinpe::rope_type_name(o.rope_type)];
      const std::size_t hd = std::size_t(d.head_dim), r = std::size_t(d.rotary_dim);
      for (RopeLayout layout : {RopeLayout::half, RopeLayout::interleaved})
        for (std::size_t heads : {1, 3, 5}) {
          const auto x = random_x(n * heads * hd, seed++);
          const auto want =
              ref::rope_rotate(prm, x, positions, d.head_dim, d.rotary_dim, sinpe::rope_layout_name(layout));
          for (Path path : {Path::best, Path::scalar}) {
            INFO(c.name << " headDim " << d.head_dim << " rotaryDim " << d.rotary_dim << " layout "
                        << sinpe::rope_layout_name(layout) << " heads " << heads << " path " << int(path));
            auto got = x;
            REQUIRE(sinpe::apply_rope(plan, layout, d.head_dim, sinpe::Positions::list(positions.data(), n),
                                      heads, got.data(), path) == Status::ok);
            check_rotation(x, got, want, n * heads, hd, r, layout, att, w);
          }
        }
    }
  report("apply_rope, error / (max(1, att) (|x_a| + |x_b|))", worst);
}

TEST_CASE("apply_rope over a range of positions rotates token i by start + i", "[rope]") {
  // Ranges across the 64-token chunks and the block kernel's re-anchoring,
  // negative ones and ones ending at the largest position.
  const std::pair<double, std::size_t> ranges[] = {
      {0, 200}, {-70, 140}, {4000, 129}, {16777215.0 - 130, 131}, {-16777215.0, 65}, {99999, 1}};
  struct Dims {
    int head_dim, rotary_dim;
  };
  const Dims dims[] = {{128, 128}, {80, 32}, {10, 4}, {34, 30}};
  WorstByType worst;
  std::uint64_t seed = 101;
  for (const RopeCase& c : rope_cases())
    for (const Dims& d : dims) {
      const sinpe::Options o = c.make(d.rotary_dim);
      const auto plan = plan_for(o, d.rotary_dim);
      const auto prm = to_rope_params(o);
      const double att = ref::rope_attention(prm, d.rotary_dim);
      Worst& w = worst[sinpe::rope_type_name(o.rope_type)];
      const std::size_t hd = std::size_t(d.head_dim), r = std::size_t(d.rotary_dim), heads = 2;
      for (auto [start, n] : ranges) {
        std::vector<double> positions(n);
        for (std::size_t i = 0; i < n; ++i) positions[i] = start + double(i);
        for (RopeLayout layout : {RopeLayout::half, RopeLayout::interleaved}) {
          const auto x = random_x(n * heads * hd, seed++);
          const auto want =
              ref::rope_rotate(prm, x, positions, d.head_dim, d.rotary_dim, sinpe::rope_layout_name(layout));
          for (Path path : {Path::best, Path::scalar}) {
            INFO(c.name << " headDim " << d.head_dim << " rotaryDim " << d.rotary_dim << " start " << start
                        << " count " << n << " layout " << sinpe::rope_layout_name(layout) << " path "
                        << int(path));
            auto got = x;
            REQUIRE(sinpe::apply_rope(plan, layout, d.head_dim, sinpe::Positions::range(start, n), heads,
                                      got.data(), path) == Status::ok);
            check_rotation(x, got, want, n * heads, hd, r, layout, att, w);
          }
        }
      }
    }
  report("apply_rope over a range, error / (max(1, att) (|x_a| + |x_b|))", worst);
}

TEST_CASE("the rotated dot product depends only on the offset k", "[rope]") {
  // <R(p) q, R(p + k) k> is the same for every p. Each side is compared with
  // its bound from the contract: a rotated value within E = 5e-7 max(1, att)
  // (|x_a| + |x_b|) of the float64 rotation, whose own angles fl(p inv_j)
  // are exact to |p inv_j| 2^-53.
  struct Dims {
    int head_dim, rotary_dim;
  };
  const char* names[] = {"default", "yarn DeepSeek (mscale 1, mscaleAllDim 0.8, factor 40)",
                         "llama3 Llama 3.1 (defaults, base 500000)", "longrope Phi-3 short (no seqLen)",
                         "dynamic seqLen 8192 > maxPositions"};
  int comparisons = 0;
  for (const char* name : names)
    for (const Dims d : {Dims{64, 64}, Dims{80, 32}, Dims{10, 6}})
      for (RopeLayout layout : {RopeLayout::half, RopeLayout::interleaved}) {
        const RopeCase* c = nullptr;
        for (const RopeCase& k : rope_cases())
          if (std::string(k.name) == name) c = &k;
        REQUIRE(c != nullptr);
        const sinpe::Options o = c->make(d.rotary_dim);
        const auto plan = plan_for(o, d.rotary_dim);
        const double att = plan.attention_factor();
        const std::size_t hd = std::size_t(d.head_dim), r = std::size_t(d.rotary_dim);
        const auto q = random_x(hd, 11), key = random_x(hd, 12);
        const auto pair_sum = [&](const std::vector<float>& x, std::size_t i) {
          return i >= r ? 0.0 : std::fabs(double(x[i])) + std::fabs(double(x[partner(i, r, layout)]));
        };
        // The rotated dot product at p and its bound.
        const auto dot = [&](double p, double k, double* bound, double* magnitude) {
          auto qr = q, kr = key;
          const double pq = p, pk = p + k;
          REQUIRE(sinpe::apply_rope(plan, layout, d.head_dim, sinpe::Positions::list(&pq, 1), 1, qr.data()) ==
                  Status::ok);
          REQUIRE(sinpe::apply_rope(plan, layout, d.head_dim, sinpe::Positions::list(&pk, 1), 1, kr.data()) ==
                  Status::ok);
          double s = 0, b = 0, mag = 0;
          for (std::size_t i = 0; i < hd; ++i) {
            const double eq = kRotateTolerance * std::max(1.0, att) * pair_sum(q, i);
            const double ek = kRotateTolerance * std::max(1.0, att) * pair_sum(key, i);
            const double a = qr[i], bb = kr[i];
            s += a * bb;
            mag += std::fabs(a * bb);
            b += (std::fabs(a) + eq) * ek + eq * (std::fabs(bb) + ek) + eq * ek;
          }
          // The float64 angles: |fl(p inv) - p inv| <= |p inv| 2^-53 on each side.
          double angle = 0;
          for (std::size_t j = 0; j < r / 2; ++j) {
            const std::size_t a = layout == RopeLayout::half ? j : 2 * j;
            const std::size_t bj = layout == RopeLayout::half ? j + r / 2 : 2 * j + 1;
            const double qa = std::fabs(double(q[a])) + std::fabs(double(q[bj]));
            const double ka = std::fabs(double(key[a])) + std::fabs(double(key[bj]));
            angle += att * att * qa * ka * (std::fabs(pq) + std::fabs(pk)) * plan.inv_freq()[j] * 0x1p-53;
          }
          *bound = b + angle + 1e-14 * mag;
          *magnitude = mag;
          return s;
        };
        std::vector<double> at_k;
        for (double k : {0.0, 1.0, 7.0, 1000.0, -5.0, 0.5}) {
          double b0 = 0, mag = 0;
          const double d0 = dot(0, k, &b0, &mag);
          at_k.push_back(d0);
          for (double p :
               {1.0, 63.0, 1000.0, 123456.5, 8388608.0, kMaxPosition - 1000, -kMaxPosition + 1000}) {
            double b = 0;
            const double dp = dot(p, k, &b, &mag);
            INFO(name << " headDim " << d.head_dim << " rotaryDim " << d.rotary_dim << " layout "
                      << sinpe::rope_layout_name(layout) << " k " << k << " p " << p << " bound " << b + b0);
            CHECK(std::fabs(dp - d0) <= b + b0);
            CHECK(b + b0 < 1e-4 * mag);  // the bound is tight enough to mean something
            ++comparisons;
          }
        }
        // ... and it does depend on k.
        CHECK(std::fabs(at_k[0] - at_k[3]) > 1e-3);
      }
  CHECK(comparisons == 5 * 3 * 2 * 6 * 7);
}

// ---- bad input -------------------------------------------------------------------

namespace {

// Calls f on the Options field of option id.
template <class F>
void with_field(sinpe::Options& o, Option id, F&& f) {
  switch (id) {
#define SINPE_OPTION(name, js_name, type, rule, config_key, doc) \
  case Option::name: \
    f(o.name); \
    break;
#include "sinpe/vocabulary.def"
  }
}

// A valid value for option id at rotary dimension r, by its kind and rule in the vocabulary.
void set_valid(sinpe::Options& o, Option id, int r) {
  const auto& info = sinpe::detail::kOptionInfo[int(id)];
  with_field(o, id, [&](auto& field) {
    using T = typename std::decay_t<decltype(field)>::value_type;
    if constexpr (std::is_same_v<T, double>) {
      field = info.rule == sinpe::detail::Rule::count      ? 4096.0
              : info.rule == sinpe::detail::Rule::fraction ? 0.5
                                                           : 2.0;
    } else if constexpr (std::is_same_v<T, bool>) {
      field = true;
    } else {
      field = std::vector<double>(std::size_t(r / 2), 1.5);
    }
  });
}

// The rope type with every option it requires (by the test's own table) given a valid value.
sinpe::Options complete(RopeType t, int r) {
  sinpe::Options o = rope(t);
  const auto reads = expected::rope_reads(t);
  for (std::size_t i = 0; i < reads.count; ++i)
    if (reads.first[i].kind == sinpe::detail::Read::Default::required) set_valid(o, reads.first[i].option, r);
  return o;
}

// ... and, for yarn and longrope, a context length and factor, so that the plan can be made.
sinpe::Options computable(RopeType t, int r) {
  sinpe::Options o = complete(t, r);
  if (t == RopeType::yarn || t == RopeType::longrope) {
    o.original_max_positions = 4096;
    o.factor = 2;
  }
  return o;
}

// make_rope_plan's status; on failure the plan given must be left as it was.
Status plan_status(const sinpe::Options& o, int r) {
  sinpe::RopePlan plan;
  REQUIRE(sinpe::make_rope_plan(rope(RopeType::standard), 16, &plan) == Status::ok);
  const double* inv = plan.inv_freq().data();
  const Status s = sinpe::make_rope_plan(o, r, &plan);
  if (s != Status::ok) {
    CHECK(plan.rotary_dim() == 16);
    CHECK(plan.inv_freq().data() == inv);
  }
  return s;
}

}  // namespace

TEST_CASE("every option a rope type does not read is refused by name", "[rope][errors][vocabulary]") {
  // Each (rope type, option) pair outside the rope type's reads in the test's
  // own table (expected_reads.hpp), the type's required options given.
  int pairs = 0;
  for (int t = 0; t < sinpe::kRopeTypeCount; ++t)
    for (const auto& opt : expected::options()) {
      const auto type = RopeType(t);
      const auto option = opt.option;
      REQUIRE(expected::rope_reads(type).count > 0);
      if (expected::find_read(expected::rope_reads(type), option)) continue;
      sinpe::Options o = computable(type, 16);
      REQUIRE(plan_status(o, 16) == Status::ok);
      set_option(o, option);
      INFO(sinpe::rope_type_name(type) << " + " << opt.id);
      CHECK(sinpe::status_name(plan_status(o, 16)) == expected::not_read(option));
      ++pairs;
    }
  CHECK(pairs == 7 * 24 - 40);
  // By name, a few a user would try.
  auto o = rope(RopeType::standard);
  o.factor = 2;
  CHECK(plan_status(o, 64) == Status::factor_not_read);
  o = rope(RopeType::llama3);
  o.seq_len = 100;
  CHECK(plan_status(o, 64) == Status::seq_len_not_read);
  o = rope(RopeType::linear);
  o.factor = 2;
  o.attention_factor = 1.5;
  CHECK(plan_status(o, 64) == Status::attention_factor_not_read);
  o = rope(RopeType::standard);
  o.max_timescale = 10000;  // a sinusoidal preset's option
  CHECK(plan_status(o, 64) == Status::max_timescale_not_read);
  o = rope(RopeType::standard);
  o.layout = sinpe::Layout::concat;  // the sinusoidal layout has no meaning for RoPE
  CHECK(plan_status(o, 64) == Status::bad_rope_layout);
}

TEST_CASE("required options that are missing are named", "[rope][errors][vocabulary]") {
  int required = 0;
  for (int t = 0; t < sinpe::kRopeTypeCount; ++t) {
    const auto type = RopeType(t);
    const auto reads = expected::rope_reads(type);
    for (std::size_t i = 0; i < reads.count; ++i) {
      if (reads.first[i].kind != sinpe::detail::Read::Default::required) continue;
      sinpe::Options o = complete(type, 16);
      with_field(o, reads.first[i].option, [](auto& field) { field.reset(); });
      INFO(sinpe::rope_type_name(type) << " without " << expected::id(reads.first[i].option));
      CHECK(sinpe::status_name(plan_status(o, 16)) == expected::missing(reads.first[i].option));
      ++required;
    }
  }
  CHECK(required == 5);  // linear factor; dynamic factor, maxPositions; longrope shortFactor, longFactor
  // yarn and longrope need a context length and a factor (given, or maxPositions / L).
  for (RopeType t : {RopeType::yarn, RopeType::longrope}) {
    INFO(sinpe::rope_type_name(t));
    auto o = complete(t, 16);
    o.factor = 4;
    CHECK(plan_status(o, 16) == Status::original_max_positions_missing);
    o = complete(t, 16);
    o.original_max_positions = 4096;
    CHECK(plan_status(o, 16) == Status::factor_missing);
    o.max_positions = 16384;
    CHECK(plan_status(o, 16) == Status::ok);
  }
}

TEST_CASE("option values against their rules are refused by name", "[rope][errors][vocabulary]") {
  // Every option each rope type reads, with values its rule refuses.
  int tried = 0;
  for (int t = 0; t < sinpe::kRopeTypeCount; ++t) {
    const auto type = RopeType(t);
    const auto reads = expected::rope_reads(type);
    for (std::size_t i = 0; i < reads.count; ++i) {
      const Option id = reads.first[i].option;
      const auto& info = sinpe::detail::kOptionInfo[int(id)];
      std::vector<double> bad = {kNaN, kInf, -kInf};
      if (info.rule == sinpe::detail::Rule::positive) bad.insert(bad.end(), {0.0, -0.0, -1.0, -1e-300});
      if (info.rule == sinpe::detail::Rule::count) bad.insert(bad.end(), {0.0, -3.0, 1.5, 16777216.0, 1e300});
      if (info.rule == sinpe::detail::Rule::length)
        bad.insert(bad.end(), {0.0, -3.0, 1.5, 16777217.0, 1e300});
      if (info.rule == sinpe::detail::Rule::fraction)
        bad.insert(bad.end(), {0.0, -0.0, -0.5, 1.0000001, 2.0});
      if (info.kind == sinpe::detail::Kind::boolean) continue;  // any boolean is a value
      for (double v : bad) {
        sinpe::Options o = computable(type, 16);
        with_field(o, id, [&](auto& field) {
          using T = typename std::decay_t<decltype(field)>::value_type;
          if constexpr (std::is_same_v<T, double>) field = v;
          else if constexpr (std::is_same_v<T, std::vector<double>>)
            field = std::vector<double>{1, 2, v, 4, 5, 6, 7, 8};
        });
        INFO(sinpe::rope_type_name(type) << " " << sinpe::option_name(id) << " = " << v);
        CHECK(sinpe::status_name(plan_status(o, 16)) == expected::bad(id));
        ++tried;
      }
    }
  }
  CHECK(tried > 100);
  // Factor lists of the wrong length.
  for (std::size_t len : {0, 7, 9, 16}) {
    INFO("length " << len);
    auto o = complete(RopeType::longrope, 16);
    o.original_max_positions = 4096;
    o.factor = 2;
    o.short_factor = std::vector<double>(len, 1.0);
    CHECK(plan_status(o, 16) == Status::bad_short_factor);
    o.short_factor = std::vector<double>(8, 1.0);
    o.long_factor = std::vector<double>(len, 1.0);
    CHECK(plan_status(o, 16) == Status::bad_long_factor);
  }
}

TEST_CASE("bad bases, factor orders, rotary dimensions and rope types", "[rope][errors]") {
  for (double b : {1.0, 0.5, 1e-300}) {
    auto o = rope(RopeType::standard);
    o.base = b;
    INFO("base " << b);
    CHECK(plan_status(o, 64) == Status::rope_base_not_above_one);
  }
  for (double b : {0.0, -2.0, kNaN, kInf}) {
    auto o = rope(RopeType::linear);
    o.factor = 2;
    o.base = b;
    INFO("base " << b);
    CHECK(plan_status(o, 64) == Status::bad_base);
  }
  for (auto [low, high] : {std::pair{4.0, 4.0}, std::pair{4.0, 1.0}}) {
    auto o = rope(RopeType::llama3);
    o.low_freq_factor = low;
    o.high_freq_factor = high;
    INFO("low " << low << " high " << high);
    CHECK(plan_status(o, 64) == Status::freq_factor_order);
  }
  {
    auto o = rope(RopeType::llama3);
    o.low_freq_factor = 5;  // the default high (4) is below it
    CHECK(plan_status(o, 64) == Status::freq_factor_order);
  }
  for (double f : {0.0, -1.0, kNaN, -kInf}) {
    auto o = rope(RopeType::linear);
    o.factor = f;
    INFO("factor " << f);
    CHECK(plan_status(o, 64) == Status::bad_factor);
  }
  for (int r : {0, -2, 1, 7, 63, 65538, 65537, INT_MAX, INT_MIN}) {
    INFO("rotaryDim " << r);
    CHECK(plan_status(rope(RopeType::standard), r) == Status::bad_rotary_dim);
  }
  CHECK(plan_status(rope(RopeType::standard), 65536) == Status::ok);
  CHECK(plan_status(rope(RopeType::standard), 2) == Status::ok);
  for (int t : {-1, sinpe::kRopeTypeCount, 42}) {
    INFO("ropeType " << t);
    CHECK(plan_status(rope(RopeType(t)), 64) == Status::bad_rope_type);
  }
  sinpe::RopePlan plan;
  CHECK(sinpe::make_rope_plan(rope(RopeType::standard), 64, nullptr) == Status::null_pointer);
  CHECK(!plan.valid());
}

TEST_CASE("frequencies whose angles overflow or that underflow to zero are refused", "[rope][errors]") {
  // inv_0 = 1 / factor: angles p inv_0 beyond the double range for p near 2^24.
  auto o = rope(RopeType::linear);
  o.factor = 1e-302;
  CHECK(plan_status(o, 64) == Status::frequencies_not_finite);
  o.factor = 5e-324;  // inv_0 = inf
  CHECK(plan_status(o, 64) == Status::frequencies_not_finite);
  o.factor = 1e300;  // the lowest frequencies underflow to zero
  o.base = 1e300;
  CHECK(plan_status(o, 64) == Status::frequencies_not_finite);
  o = rope(RopeType::dynamic);  // the scaled base overflows: inv_j = 0 for j > 0
  o.factor = 1e300;
  o.max_positions = 1;
  o.seq_len = 16777215;
  CHECK(plan_status(o, 64) == Status::frequencies_not_finite);
  o = rope(RopeType::yarn);  // L / (betaFast 2 pi) overflows: the correction range, so the ramp, is NaN
  o.factor = 4;
  o.original_max_positions = 4096;
  o.beta_fast = 5e-324;
  CHECK(plan_status(o, 64) == Status::frequencies_not_finite);
  o.beta_fast = 1e-300;  // large but finite: every pair interpolated
  CHECK(plan_status(o, 64) == Status::ok);
  o = rope(RopeType::longrope);
  o.short_factor = std::vector<double>(32, 1e-310);
  o.long_factor = std::vector<double>(32, 1.0);
  o.original_max_positions = 4096;
  o.factor = 2;
  CHECK(plan_status(o, 64) == Status::frequencies_not_finite);
}

namespace {

// Runs call on copies of outputs filled with a sentinel; checks the status and
// that nothing was written.
struct Sentinel {
  std::vector<float> a, b;
  explicit Sentinel(std::size_t n) : a(n, 321.5f), b(n, -321.5f) {}
  bool untouched() const {
    for (float v : a)
      if (v != 321.5f) return false;
    for (float v : b)
      if (v != -321.5f) return false;
    return true;
  }
};

}  // namespace

TEST_CASE("rope_cache and rope_cache_rows refuse bad positions and write nothing", "[rope][errors]") {
  const auto plan = plan_for(rope(RopeType::standard), 16);
  const std::size_t n = 150, half = 8;
  for (Path path : {Path::best, Path::scalar}) {
    // A bad position in a later block of positions than the first.
    for (auto [bad, want] :
         {std::pair{kNaN, Status::position_not_finite}, std::pair{kInf, Status::position_not_finite},
          std::pair{-kInf, Status::position_not_finite}, std::pair{16777216.0, Status::position_out_of_range},
          std::pair{-16777216.0, Status::position_out_of_range},
          std::pair{1e300, Status::position_out_of_range}})
      for (std::size_t at : {std::size_t(0), std::size_t(3), std::size_t(100), n - 1}) {
        std::vector<double> p(n);
        for (std::size_t i = 0; i < n; ++i) p[i] = double(i);
        p[at] = bad;
        Sentinel out(n * half);
        INFO("position " << bad << " at " << at << " path " << int(path));
        CHECK(sinpe::rope_cache(plan, sinpe::Positions::list(p.data(), n),
                                {sinpe::Dtype::float32, out.a.data(), out.b.data()}, path) == want);
        CHECK(out.untouched());
      }
    Sentinel out(64 * half);
    for (auto [start, count, want] :
         {std::tuple{kNaN, std::size_t(4), Status::bad_start},
          std::tuple{kInf, std::size_t(4), Status::bad_start},
          std::tuple{0.5, std::size_t(4), Status::bad_start},
          std::tuple{16777216.0, std::size_t(1), Status::position_out_of_range},
          std::tuple{16777215.0 - 2, std::size_t(4), Status::position_out_of_range},
          std::tuple{-16777216.0, std::size_t(1), Status::position_out_of_range}}) {
      INFO("start " << start << " count " << count);
      CHECK(sinpe::rope_cache(plan, sinpe::Positions::range(start, count),
                              {sinpe::Dtype::float32, out.a.data(), out.b.data()}, path) == want);
      CHECK(out.untouched());
    }
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::range(0, 4),
                            {sinpe::Dtype::float32, nullptr, out.b.data()}, path) == Status::null_pointer);
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::range(0, 4),
                            {sinpe::Dtype::float32, out.a.data(), nullptr}, path) == Status::null_pointer);
    const double p[] = {1, 2, 3};
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::list(nullptr, 3),
                            {sinpe::Dtype::float32, out.a.data(), out.b.data()},
                            path) == Status::null_pointer);
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::list(p, 3),
                            {sinpe::Dtype::float32, out.a.data(), nullptr}, path) == Status::null_pointer);
    CHECK(sinpe::rope_cache(sinpe::RopePlan{}, sinpe::Positions::list(p, 3),
                            {sinpe::Dtype::float32, out.a.data(), out.b.data()},
                            path) == Status::invalid_plan);
    CHECK(sinpe::rope_cache(sinpe::RopePlan{}, sinpe::Positions::range(0, 3),
                            {sinpe::Dtype::float32, out.a.data(), out.b.data()},
                            path) == Status::invalid_plan);
    CHECK(out.untouched());
    // Nothing to do is fine, even without buffers.
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::list(nullptr, 0),
                            {sinpe::Dtype::float32, nullptr, nullptr}, path) == Status::ok);
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::range(0, 0), {sinpe::Dtype::float32, nullptr, nullptr},
                            path) == Status::ok);
  }
  // More than 2^29 values: refused before anything is read or written.
  const auto wide = plan_for(rope(RopeType::standard), 65536);
  float dummy = 5.f;
  const double p = 0;
  CHECK(sinpe::rope_cache(wide, sinpe::Positions::range(0, 40000), {sinpe::Dtype::float32, &dummy, &dummy}) ==
        Status::too_large);
  CHECK(sinpe::rope_cache(wide, sinpe::Positions::list(&p, 40000), {sinpe::Dtype::float32, &dummy, &dummy}) ==
        Status::too_large);
  CHECK(dummy == 5.f);
}

TEST_CASE("apply_rope refuses bad arguments and leaves x unchanged", "[rope][errors]") {
  const int hd = 10;
  const auto plan = plan_for(rope(RopeType::standard), 8);
  const std::size_t n = 150, heads = 3;
  std::vector<double> good(n);
  for (std::size_t i = 0; i < n; ++i) good[i] = double(i) * 1.5;
  const auto x0 = random_x(n * heads * hd, 99);
  const auto same = [&](const std::vector<float>& x) {
    return std::memcmp(x.data(), x0.data(), x.size() * 4) == 0;
  };
  for (Path path : {Path::best, Path::scalar})
    for (RopeLayout layout : {RopeLayout::half, RopeLayout::interleaved}) {
      INFO("path " << int(path) << " layout " << sinpe::rope_layout_name(layout));
      for (auto [bad, want] :
           {std::pair{kNaN, Status::position_not_finite}, std::pair{-kInf, Status::position_not_finite},
            std::pair{kInf, Status::position_not_finite},
            std::pair{16777216.0, Status::position_out_of_range},
            std::pair{-16777216.5, Status::position_out_of_range}})
        for (std::size_t at : {std::size_t(0), std::size_t(70), n - 1}) {
          auto p = good;
          p[at] = bad;
          auto x = x0;
          INFO("position " << bad << " at " << at);
          CHECK(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(p.data(), n), heads, x.data(),
                                  path) == want);
          CHECK(same(x));
        }
      auto x = x0;
      for (int h : {0, -1, 65537, INT_MIN}) {
        INFO("headDim " << h);
        CHECK(sinpe::apply_rope(plan, layout, h, sinpe::Positions::list(good.data(), n), heads, x.data(),
                                path) == Status::bad_head_dim);
      }
      CHECK(sinpe::apply_rope(plan, layout, 6, sinpe::Positions::list(good.data(), n), heads, x.data(),
                              path) == Status::rotary_dim_above_head_dim);
      CHECK(sinpe::apply_rope(plan, RopeLayout(2), hd, sinpe::Positions::list(good.data(), n), heads,
                              x.data(), path) == Status::bad_rope_layout);
      CHECK(sinpe::apply_rope(plan, RopeLayout(-1), hd, sinpe::Positions::list(good.data(), n), heads,
                              x.data(), path) == Status::bad_rope_layout);
      CHECK(sinpe::apply_rope(sinpe::RopePlan{}, layout, hd, sinpe::Positions::list(good.data(), n), heads,
                              x.data(), path) == Status::invalid_plan);
      CHECK(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(nullptr, n), heads, x.data(), path) ==
            Status::null_pointer);
      CHECK(same(x));
      CHECK(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(good.data(), n), heads, nullptr,
                              path) == Status::null_pointer);
      // 2^29 values or more: too large, before anything is read.
      CHECK(sinpe::apply_rope(plan, layout, 16, sinpe::Positions::list(good.data(), std::size_t(1) << 25), 16,
                              x.data(), path) == Status::too_large);
      CHECK(sinpe::apply_rope(plan, layout, 16, sinpe::Positions::list(good.data(), 2),
                              std::numeric_limits<std::size_t>::max() / 2, x.data(),
                              path) == Status::too_large);
      CHECK(same(x));
      // No tokens or no heads: nothing to do.
      CHECK(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(good.data(), 0), heads, x.data(),
                              path) == Status::ok);
      CHECK(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(good.data(), n), 0, x.data(), path) ==
            Status::ok);
      CHECK(same(x));
    }
  CHECK(sinpe::check_head_dim(plan, 8) == Status::ok);
  CHECK(sinpe::check_head_dim(plan, 7) == Status::rotary_dim_above_head_dim);
  CHECK(sinpe::check_head_dim(plan, 0) == Status::bad_head_dim);
  // The plan and buffers still work afterwards.
  auto x = x0;
  CHECK(sinpe::apply_rope(plan, RopeLayout::half, hd, sinpe::Positions::list(good.data(), n), heads,
                          x.data()) == Status::ok);
  CHECK(!same(x));
}

// vocabulary.def's rules of a RoPE plan: each one, broken alone, is the status
// written here (from the statuses' meaning, not read from the table), and
// holds for the same options once repaired; a rule without a case fails.
TEST_CASE("each rule of the rules table, broken alone, is its status", "[rope][errors][rules]") {
  using sinpe::detail::RopeRule;
  struct Case {
    RopeRule rule;
    Status status;
    sinpe::Options broken;
    int r_broken;
    sinpe::Options fixed;
    int r_fixed;
  };
  auto with = [](RopeType t, auto&& set) {
    auto o = rope(t);
    set(o);
    return o;
  };
  const std::vector<Case> cases = {
      {RopeRule::rope_base_above_one, Status::rope_base_not_above_one,
       with(RopeType::standard, [](auto& o) { o.base = 0.5; }), 64,
       with(RopeType::standard, [](auto& o) { o.base = 2; }), 64},
      {RopeRule::rotary_dim_even, Status::bad_rotary_dim, rope(RopeType::standard), 63,
       rope(RopeType::standard), 62},
      {RopeRule::mrope_section_sum, Status::mrope_section_sum,
       with(RopeType::standard,
            [](auto& o) {
              o.mrope_section = std::vector<double>{2, 2, 2};
            }),
       16,
       with(RopeType::standard,
            [](auto& o) {
              o.mrope_section = std::vector<double>{2, 3, 3};
            }),
       16},
      {RopeRule::pixtral_rotary_dim, Status::rotary_dim_not_multiple_of_4,
       with(RopeType::standard, [](auto& o) { o.rope_axes = sinpe::RopeAxes::pixtral; }), 18,
       with(RopeType::standard, [](auto& o) { o.rope_axes = sinpe::RopeAxes::pixtral; }), 20},
      {RopeRule::freq_factor_order, Status::freq_factor_order,
       with(RopeType::llama3, [](auto& o) { o.low_freq_factor = 4, o.high_freq_factor = 1; }), 64,
       with(RopeType::llama3, [](auto& o) { o.low_freq_factor = 1, o.high_freq_factor = 4; }), 64},
  };
  REQUIRE(cases.size() == std::size_t(sinpe::detail::kRopeRuleCount));
  std::vector<bool> seen(cases.size());
  for (const Case& c : cases) {
    INFO("rule " << int(c.rule));
    seen[std::size_t(c.rule)] = true;
    CHECK(sinpe::detail::rope_rule_status(c.rule) == c.status);
    const auto reads = sinpe::detail::rope_reads(c.broken.rope_type);
    CHECK_FALSE(sinpe::detail::rope_rule_holds(c.rule, c.broken, reads, c.r_broken));
    CHECK(sinpe::detail::rope_rule_holds(c.rule, c.fixed, reads, c.r_fixed));
    CHECK(sinpe::detail::check_rope_rules(c.broken, reads, c.r_broken) == c.status);
    CHECK(sinpe::detail::check_rope_rules(c.fixed, reads, c.r_fixed) == Status::ok);
    CHECK(plan_status(c.broken, c.r_broken) == c.status);
    CHECK(plan_status(c.fixed, c.r_fixed) == Status::ok);
  }
  CHECK(std::count(seen.begin(), seen.end(), true) == sinpe::detail::kRopeRuleCount);
}

// The float32 recipe's pow (rope_internal.hpp, pow32) rounds the float64 pow
// once: correct unless the float64 result lies within two float64 ulps of a
// float32 rounding midpoint, where the float64 pow's own error could decide
// the rounding. Scanned here for the bases configs use and every rotary
// dimension up to 1024: no such case, so the recipe's inv_freq is the
// correctly rounded float32 pow for all of them.
TEST_CASE("the float32 recipe's pow is decided by the float64 pow for the usual bases", "[rope][recipe]") {
  int ambiguous = 0, tried = 0;
  for (double base : {10000.0, 100000.0, 500000.0, 1000000.0, 5000000.0, 10000000.0, 150000.0, 75000.0}) {
    for (int r = 2; r <= 1024; r += 2)
      for (int j = 0; j < r / 2; ++j) {
        const float e = float(2 * j) / float(r);
        const double p = std::pow(double(float(base)), double(e));
        const float f = float(p);
        const float other = double(f) < p ? std::nextafter(f, INFINITY) : std::nextafter(f, 0.0f);
        const double mid = (double(f) + double(other)) / 2;
        const double ulp64 = std::nextafter(p, INFINITY) - p;
        ++tried;
        if (std::fabs(p - mid) <= 2 * ulp64) ++ambiguous;
      }
  }
  INFO(tried << " powers tried");
  CHECK(tried == 8 * 131328);  // r/2 summed over r = 2, 4, …, 1024
  CHECK(ambiguous == 0);
}
