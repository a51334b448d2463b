// Every preset against its float64 formula, on both code paths, at odd, tiny
// and model-sized widths and at integer, fractional, negative and near-2^24
// positions.
#include <catch2/catch.hpp>

#include "support.hpp"

namespace {

const std::vector<int> kWidths = {2, 4, 7, 16, 17, 384, 512, 768};

std::vector<double> positions_under_test() {
  std::vector<double> p = {0, 1, 2, 3, 4, 5, 6, 7, 100, 4095, 65535, 1000003, 16777215};
  // Fractional diffusion timesteps, negative positions, and an unsorted tail.
  for (double t : {0.5, 1.25, 999.999, 123.456, 7777.75, -3.0, -16777215.0, 16777214.5, 42.0, 9.0})
    p.push_back(t);
  return p;
}

// Whether the preset's formula is defined at width d (else make_plan must say why).
sinpe::Status expected_status(const std::string& preset, int d) {
  const int h = d / 2;
  if ((preset == "vaswani" || preset == "whisper" || preset == "mae") && d % 2)
    return sinpe::Status::d_model_odd;
  if ((preset == "fairseq" || preset == "whisper" || preset == "diffusers") && h < 2)
    return sinpe::Status::d_model_too_small;
  return sinpe::Status::ok;
}

void check(const ref::Params& prm, const std::vector<int>& widths) {
  const auto positions = positions_under_test();
  for (int d : widths) {
    sinpe::Plan plan;
    const sinpe::Status s = sinpe::make_plan(to_options(prm), d, &plan);
    INFO("preset " << prm.preset << " layout '" << prm.layout << "' d " << d);
    REQUIRE(s == expected_status(prm.preset, d));
    if (s != sinpe::Status::ok) continue;
    for (sinpe::Path path : {sinpe::Path::best, sinpe::Path::scalar}) {
      std::vector<float> out(positions.size() * std::size_t(d), -9.f);
      REQUIRE(sinpe::encode(plan, positions.data(), positions.size(), out.data(), path) == sinpe::Status::ok);
      INFO("path " << int(path));
      CHECK(max_error(prm, d, positions, out) <= kTolerance);
    }
  }
}

}  // namespace

TEST_CASE("each preset matches its float64 formula", "[presets]") {
  for (const char* preset :
       {"vaswani", "keras", "tensor2tensor", "fairseq", "whisper", "diffusers", "guided-diffusion", "mae"}) {
    ref::Params prm;
    prm.preset = preset;
    check(prm, kWidths);
  }
}

TEST_CASE("layouts can be overridden on any preset", "[presets]") {
  for (const char* preset : {"vaswani", "keras", "tensor2tensor", "fairseq", "diffusers", "guided-diffusion"})
    for (const char* layout : {"interleaved", "concat", "cos-first"}) {
      ref::Params prm;
      prm.preset = preset;
      prm.layout = layout;
      check(prm, {4, 16, 17, 512});
    }
}

TEST_CASE("preset parameters change the formula as their libraries do", "[presets]") {
  ref::Params t2t;
  t2t.preset = "tensor2tensor";
  t2t.min_timescale = 2.0;  // multiplies every frequency in get_timing_signal_1d
  t2t.max_timescale = 5000.0;
  check(t2t, {7, 64});

  ref::Params fs;
  fs.preset = "fairseq";
  fs.has_padding = true;
  fs.padding_idx = 4095;  // a listed position: that row must be zeros
  check(fs, {16, 17});

  ref::Params df;
  df.preset = "diffusers";
  df.layout = "cos-first";  // flip_sin_to_cos
  df.freq_shift = 0.0;
  df.scale = 0.5;
  df.max_period = 1000.0;
  check(df, {7, 320});

  ref::Params wh;
  wh.preset = "whisper";
  wh.max_timescale = 100.0;
  check(wh, {384});

  ref::Params v;
  v.preset = "vaswani";
  v.base = 500000.0;
  check(v, {128});

  ref::Params gd;
  gd.preset = "guided-diffusion";
  gd.max_period = 200.0;
  check(gd, {33});
}

TEST_CASE("seed 001: the 3x4 table", "[presets]") {
  sinpe::Plan plan;
  REQUIRE(sinpe::make_plan(sinpe::Options{}, 4, &plan) == sinpe::Status::ok);
  std::vector<float> out(12);
  REQUIRE(sinpe::rows(plan, 0, 3, out.data()) == sinpe::Status::ok);
  // Row 1: sin(1), cos(1), sin(0.01), cos(0.01): computed here, not copied.
  CHECK(out[4] == Approx(std::sin(1.0)).margin(kTolerance));
  CHECK(out[5] == Approx(std::cos(1.0)).margin(kTolerance));
  CHECK(out[6] == Approx(std::sin(0.01)).margin(kTolerance));
  CHECK(out[7] == Approx(std::cos(0.01)).margin(kTolerance));
  CHECK(out[0] == 0.f);
  CHECK(out[1] == 1.f);
}
