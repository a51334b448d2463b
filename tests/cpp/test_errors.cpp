// Bad input yields a status naming the argument and leaves the output untouched.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "expected_reads.hpp"
#include "options.hpp"
#include "sinpe/rope.hpp"
#include "support.hpp"

using sinpe::Status;

TEST_CASE("make_plan rejects bad widths and parameters", "[errors]") {
  sinpe::Plan plan;
  sinpe::Options o;
  CHECK(sinpe::make_plan(o, 0, &plan) == Status::d_model_out_of_range);
  CHECK(sinpe::make_plan(o, -4, &plan) == Status::d_model_out_of_range);
  CHECK(sinpe::make_plan(o, 65538, &plan) == Status::d_model_out_of_range);
  CHECK(sinpe::make_plan(o, 65536, &plan) == Status::ok);
  CHECK(sinpe::make_plan(o, 7, &plan) == Status::d_model_odd);
  o.base = -1;
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_base);
  o.base = std::numeric_limits<double>::infinity();
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_base);
  o = {};
  o.padding_idx = 3;  // only fairseq reads it
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::padding_idx_not_read);
  o.preset = sinpe::Preset::fairseq;
  o.padding_idx = 1.5;
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_padding_idx);
  o = {};
  o.preset = sinpe::Preset(42);
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_preset);
  o = {};
  o.layout = sinpe::Layout(7);
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_layout);
  o = {};
  o.preset = sinpe::Preset::diffusers;
  o.freq_shift = 4;  // h - shift = 0
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_freq_shift);
  o.freq_shift.reset();
  o.scale = -std::numeric_limits<double>::infinity();
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_scale);
  o = {};
  o.preset = sinpe::Preset::tensor2tensor;
  o.min_timescale = 0;
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::bad_min_timescale);
}

TEST_CASE("rows and encode reject bad positions without writing", "[errors]") {
  sinpe::Plan plan;
  REQUIRE(sinpe::make_plan(sinpe::Options{}, 8, &plan) == Status::ok);
  std::vector<float> out(8 * 4, 123.f);
  const auto untouched = [&] {
    for (float v : out)
      if (v != 123.f) return false;
    return true;
  };
  CHECK(sinpe::rows(plan, 0.5, 2, out.data()) == Status::bad_start);
  CHECK(sinpe::rows(plan, 16777215, 2, out.data()) == Status::position_out_of_range);
  CHECK(sinpe::rows(plan, -16777216, 1, out.data()) == Status::position_out_of_range);
  CHECK(sinpe::rows(plan, std::numeric_limits<double>::quiet_NaN(), 1, out.data()) == Status::bad_start);
  CHECK(sinpe::rows(plan, 0, 1, nullptr) == Status::null_pointer);
  CHECK(sinpe::rows(plan, 0, std::size_t(1) << 30, out.data()) == Status::position_out_of_range);
  const double bad[] = {1, 2, std::numeric_limits<double>::infinity(), 4};
  CHECK(sinpe::encode(plan, bad, 4, out.data()) == Status::position_not_finite);
  const double far[] = {1, 2, 3, 16777216};
  CHECK(sinpe::encode(plan, far, 4, out.data()) == Status::position_out_of_range);
  CHECK(untouched());
  // The plan is still good afterwards.
  REQUIRE(sinpe::rows(plan, 0, 4, out.data()) == Status::ok);
  CHECK(out[1] == 1.f);
}

TEST_CASE("too-large requests fail before any work", "[errors]") {
  sinpe::Plan plan;
  REQUIRE(sinpe::make_plan(sinpe::Options{}, 65536, &plan) == Status::ok);
  float dummy = 0;
  CHECK(sinpe::rows(plan, 0, 10000, &dummy) == Status::too_large);
  sinpe::Plan axis;
  REQUIRE(sinpe::make_grid_plan(sinpe::Options{}, 4096, &axis) == Status::ok);
  CHECK(sinpe::grid2d(axis, 16777216, 16777216, false, &dummy) == Status::too_large);
}

TEST_CASE("heatmap rejects bad windows and value ranges", "[errors]") {
  sinpe::Plan plan;
  REQUIRE(sinpe::make_plan(sinpe::Options{}, 8, &plan) == Status::ok);
  std::uint8_t lut[1024] = {}, out[64] = {};
  CHECK(sinpe::heatmap(plan, 0, 1, 4, 5, lut, -1, 1, out) == Status::bad_column_window);
  CHECK(sinpe::heatmap(plan, 0, 1, -1, 2, lut, -1, 1, out) == Status::bad_column_window);
  CHECK(sinpe::heatmap(plan, 0, 1, 0, 8, lut, 1, 1, out) == Status::bad_value_range);
  CHECK(sinpe::heatmap(plan, 0, 1, 0, 8, nullptr, -1, 1, out) == Status::null_pointer);
}

namespace {

// The vocabulary's reads of one formula against the test's own (expected_reads.hpp).
void compare_reads(const std::string& name, sinpe::detail::Reads got, const expected::Formula* want) {
  INFO(name);
  REQUIRE(want != nullptr);
  CHECK(got.count == want->reads.size());
  for (const auto& w : want->reads) {
    INFO("reads " << expected::id(w.option));
    const sinpe::detail::Read* g = expected::find_read(got, w.option);
    CHECK(g != nullptr);
    if (g == nullptr) continue;
    CHECK(int(g->kind) == int(w.kind));
    if (w.kind == expected::Default::value) CHECK(g->value == w.value);
  }
  for (std::size_t i = 0; i < got.count; ++i) {
    INFO("the vocabulary also reads " << expected::id(got.first[i].option));
    CHECK(expected::find_read(expected::as_reads(want), got.first[i].option) != nullptr);
  }
}

}  // namespace

TEST_CASE("the vocabulary's reads and defaults are the references'", "[errors][vocabulary]") {
  REQUIRE(expected::options().size() == std::size_t(sinpe::kOptionCount));
  for (const auto& o : expected::options()) {
    INFO(o.id);
    CHECK(sinpe::status_name(sinpe::detail::not_read_status(o.option)) == expected::not_read(o.option));
    CHECK(sinpe::status_name(sinpe::detail::missing_status(o.option)) == expected::missing(o.option));
    CHECK(sinpe::status_name(sinpe::detail::bad_status(o.option)) == expected::bad(o.option));
  }
  REQUIRE(expected::presets().size() == std::size_t(sinpe::kPresetCount));
  for (int p = 0; p < sinpe::kPresetCount; ++p) {
    const auto preset = sinpe::Preset(p);
    compare_reads(sinpe::preset_name(preset), sinpe::detail::preset_reads(preset),
                  expected::find(expected::presets(), sinpe::preset_name(preset)));
  }
  REQUIRE(expected::rope_types().size() == std::size_t(sinpe::kRopeTypeCount));
  for (int t = 0; t < sinpe::kRopeTypeCount; ++t) {
    const auto type = sinpe::RopeType(t);
    compare_reads(sinpe::rope_type_name(type), sinpe::detail::rope_reads(type),
                  expected::find(expected::rope_types(), sinpe::rope_type_name(type)));
  }
}

TEST_CASE("every option a preset's formula does not read is refused by name", "[errors][vocabulary]") {
  // Each (preset, option) pair outside the preset's reads in the test's own
  // table, e.g. tensor2tensor + base, vaswani + maxPeriod, whisper + scale;
  // each option it reads is not refused as unread.
  int pairs = 0, read = 0;
  for (const expected::Formula& f : expected::presets()) {
    sinpe::Preset preset = sinpe::Preset(sinpe::kPresetCount);
    for (int p = 0; p < sinpe::kPresetCount; ++p)
      if (f.name == std::string(sinpe::preset_name(sinpe::Preset(p)))) preset = sinpe::Preset(p);
    INFO(f.name);
    REQUIRE(int(preset) < sinpe::kPresetCount);
    for (const auto& opt : expected::options()) {
      sinpe::Options o;
      o.preset = preset;
      set_option(o, opt.option);
      sinpe::Plan plan;
      INFO(f.name << " + " << opt.id);
      const std::string got = sinpe::status_name(sinpe::make_plan(o, 8, &plan));
      if (expected::find_read(expected::as_reads(&f), opt.option)) {
        CHECK(got != expected::not_read(opt.option));
        ++read;
      } else {
        CHECK(got == expected::not_read(opt.option));
        ++pairs;
      }
    }
  }
  CHECK(pairs == 8 * 24 - 13);
  CHECK(read == 13);
  // The three pairs the core once accepted silently, by name.
  sinpe::Plan plan;
  sinpe::Options o;
  o.preset = sinpe::Preset::tensor2tensor;
  o.base = 10;
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::base_not_read);
  o = {};
  o.max_period = 100;
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::max_period_not_read);
  o = {};
  o.preset = sinpe::Preset::whisper;
  o.scale = 2;
  CHECK(sinpe::make_plan(o, 8, &plan) == Status::scale_not_read);
}

TEST_CASE("formulas that overflow, underflow or give NaN are refused", "[errors]") {
  sinpe::Plan plan;
  sinpe::Options o;
  o.preset = sinpe::Preset::tensor2tensor;
  o.max_timescale = 5e-324;
  CHECK(sinpe::make_plan(o, 64, &plan) == Status::frequencies_not_finite);
  o = {};
  o.preset = sinpe::Preset::tensor2tensor;
  o.min_timescale = 5e-324;
  CHECK(sinpe::make_plan(o, 64, &plan) == Status::frequencies_not_finite);
  o = {};
  o.preset = sinpe::Preset::diffusers;
  o.scale = 0;  // every angle zero on purpose: allowed
  CHECK(sinpe::make_plan(o, 64, &plan) == Status::ok);
  // ... but not when p * exp(...) overflows before the scale (diffusers: NaN).
  o.max_period = 2.086e-308;
  CHECK(sinpe::make_plan(o, 64, &plan) == Status::frequencies_not_finite);
}

// bad_buffer used to answer 46 different failures; each now has its own status.
TEST_CASE("argument failures of the C++ API each have their own status; nothing is written", "[errors]") {
  sinpe::Plan plan;
  REQUIRE(sinpe::make_plan(sinpe::Options{}, 8, &plan) == Status::ok);
  std::vector<float> out(16, -7.0f);
  const double p[] = {0, 1};
  // a null pointer where there are values to write or read
  CHECK(sinpe::rows(plan, 0, 2, nullptr) == Status::null_pointer);
  CHECK(sinpe::encode(plan, nullptr, 2, out.data()) == Status::null_pointer);
  CHECK(sinpe::make_plan(sinpe::Options{}, 8, nullptr) == Status::null_pointer);
  CHECK(sinpe::make_rope_plan(sinpe::Options{}, 8, nullptr) == Status::null_pointer);
  // an empty plan
  CHECK(sinpe::rows(sinpe::Plan{}, 0, 2, out.data()) == Status::invalid_plan);
  CHECK(sinpe::encode(sinpe::Plan{}, p, 2, out.data()) == Status::invalid_plan);
  CHECK(sinpe::rope_cache(sinpe::RopePlan{}, sinpe::Positions::range(0, 2),
                          {sinpe::Dtype::float32, out.data(), out.data() + 8}) == Status::invalid_plan);
  for (float v : out) CHECK(v == -7.0f);
  // a grid of a plan without two axes
  sinpe::RopePlan one;
  REQUIRE(sinpe::make_rope_plan(sinpe::Options{}, 8, &one) == Status::ok);
  CHECK(sinpe::rope_cache(one, sinpe::Positions::grid(1, 2),
                          {sinpe::Dtype::float32, out.data(), out.data() + 8}) == Status::axes_mismatch);
  for (float v : out) CHECK(v == -7.0f);
}

// float16's largest finite value is 65504 (0x7bff); 65519 rounds down to it,
// 65520 (halfway to 65536) rounds to infinity (IEEE 754 binary16, ties to even).
TEST_CASE("a float16 cache whose attention factor rounds past 65504 is refused, like float32's overflow",
          "[errors][half]") {
  const auto yarn = [](double attention) {
    sinpe::Options o;
    o.rope_type = sinpe::RopeType::yarn;
    o.factor = 2;
    o.original_max_positions = 512;
    o.attention_factor = attention;
    return o;
  };
  CHECK(sinpe::limits::max_float16 == 65504.0);
  std::vector<std::uint16_t> cos(8, 1), sin(8, 1);
  const double p[] = {0, 1};
  sinpe::RopePlan over, edge;
  REQUIRE(sinpe::make_rope_plan(yarn(65520), 8, &over) == Status::ok);
  CHECK(sinpe::rope_cache(over, sinpe::Positions::range(0, 2),
                          {sinpe::Dtype::float16, cos.data(), sin.data()}) == Status::float16_overflow);
  CHECK(sinpe::rope_cache(over, sinpe::Positions::list(p, 2),
                          {sinpe::Dtype::float16, cos.data(), sin.data()}) == Status::float16_overflow);
  for (std::uint16_t v : cos) CHECK(v == 1);
  // bfloat16 holds it
  CHECK(sinpe::rope_cache(over, sinpe::Positions::range(0, 2),
                          {sinpe::Dtype::bfloat16, cos.data(), sin.data()}) == Status::ok);
  CHECK((cos[0] & 0x7f80u) != 0x7f80u);
  REQUIRE(sinpe::make_rope_plan(yarn(65519), 8, &edge) == Status::ok);
  CHECK(sinpe::rope_cache(edge, sinpe::Positions::range(0, 2),
                          {sinpe::Dtype::float16, cos.data(), sin.data()}) == Status::ok);
  CHECK(cos[0] == 0x7bff);  // cos 0 = 1, times 65519, is float16's largest finite value
  // float32 refuses an attention factor beyond its own range when the plan is made
  sinpe::RopePlan f32;
  CHECK(sinpe::make_rope_plan(yarn(1e39), 8, &f32) == Status::frequencies_not_finite);
}
