#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "reference.hpp"
#include "sinpe/sinpe.hpp"

// The accuracy contract from the README.
constexpr double kTolerance = 2.5e-7;

inline sinpe::Options to_options(const ref::Params& p) {
  sinpe::Options o;
  const std::string names[] = {"vaswani", "keras", "tensor2tensor", "fairseq", "whisper", "diffusers",
                               "guided-diffusion", "mae"};
  for (int i = 0; i < 8; ++i)
    if (p.preset == names[i]) o.preset = sinpe::Preset(i);
  if (p.layout == "interleaved") o.layout = sinpe::Layout::interleaved;
  if (p.layout == "concat") o.layout = sinpe::Layout::concat;
  if (p.layout == "cos-first") o.layout = sinpe::Layout::cos_first;
  if (p.preset == "vaswani" || p.preset == "keras" || p.preset == "mae" || p.preset == "fairseq") o.base = p.base;
  if (p.preset == "tensor2tensor") {
    o.min_timescale = p.min_timescale;
    o.max_timescale = p.max_timescale;
  }
  if (p.preset == "whisper") o.max_timescale = p.max_timescale;
  if (p.preset == "diffusers") {
    o.freq_shift = p.freq_shift;
    o.scale = p.scale;
  }
  if (p.preset == "diffusers" || p.preset == "guided-diffusion") o.max_period = p.max_period;
  if (p.has_padding) o.padding_idx = p.padding_idx;
  return o;
}

// Largest |got - reference| over rows of width d at the given positions.
inline double max_error(const ref::Params& prm, int d, const std::vector<double>& positions,
                        const std::vector<float>& got) {
  double worst = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto want = ref::row(prm, d, positions[i]);
    for (int c = 0; c < d; ++c) {
      const double e = std::fabs(double(got[i * std::size_t(d) + std::size_t(c)]) - want[std::size_t(c)]);
      if (!(e <= worst)) worst = e;  // NaN counts as worst
    }
  }
  return worst;
}
