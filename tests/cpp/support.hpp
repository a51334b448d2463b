#pragma once
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "reference.hpp"
#include "rope_reference.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"

// The accuracy contract from the README.
constexpr double kTolerance = 2.5e-7;

// Some valid value for an option (1, true, {1}), to try it where it does not apply.
inline void set_option(sinpe::Options& o, sinpe::Option id) {
  const auto set = [](auto& field) {
    using T = typename std::decay_t<decltype(field)>::value_type;
    if constexpr (std::is_same_v<T, double>) field = 1.0;
    else if constexpr (std::is_same_v<T, bool>) field = true;
    else field = std::vector<double>{1.0};
  };
  switch (id) {
#define SINPE_OPTION(name, js_name, type, rule, config_key, doc) \
  case sinpe::Option::name: \
    set(o.name); \
    break;
#include "sinpe/vocabulary.def"
  }
}

// The reference's parameters as core options; preset and layout names are the vocabulary's.
inline sinpe::Options to_options(const ref::Params& p) {
  sinpe::Options o;
  for (int i = 0; i < sinpe::kPresetCount; ++i)
    if (p.preset == sinpe::preset_name(sinpe::Preset(i))) o.preset = sinpe::Preset(i);
  for (int i = 0; i < sinpe::kLayoutCount; ++i)
    if (p.layout == sinpe::layout_name(sinpe::Layout(i))) o.layout = sinpe::Layout(i);
  if (p.preset == "vaswani" || p.preset == "keras" || p.preset == "mae" || p.preset == "fairseq")
    o.base = p.base;
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

// The RoPE reference's parameters for core options: the same values, absent
// stays absent (the reference applies its own defaults).
inline ref::RopeParams to_rope_params(const sinpe::Options& o) {
  ref::RopeParams p;
  p.rope_type = sinpe::rope_type_name(o.rope_type);
  const auto num = [](const sinpe::NumberOption& v) { return v ? *v : ref::RopeParams::kAbsent; };
  if (o.base) p.base = *o.base;
  p.factor = num(o.factor);
  p.max_positions = num(o.max_positions);
  p.original_max_positions = num(o.original_max_positions);
  p.seq_len = num(o.seq_len);
  p.low_freq_factor = num(o.low_freq_factor);
  p.high_freq_factor = num(o.high_freq_factor);
  p.beta_fast = num(o.beta_fast);
  p.beta_slow = num(o.beta_slow);
  p.attention_factor = num(o.attention_factor);
  p.mscale = num(o.mscale);
  p.mscale_all_dim = num(o.mscale_all_dim);
  p.partial_rotary_factor = num(o.partial_rotary_factor);
  if (o.truncate) p.truncate = *o.truncate;
  if (o.short_factor) p.short_factor = *o.short_factor;
  if (o.long_factor) p.long_factor = *o.long_factor;
  return p;
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
