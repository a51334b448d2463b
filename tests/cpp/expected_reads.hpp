#pragma once
// Which options each preset's and rope type's formula reads, and their
// defaults, written by hand from REFERENCE.md, REFERENCE-ROPE.md and the
// libraries they cite, not generated from vocabulary.def. The tests that
// expect <option>_not_read, <option>_missing or ok, and the fuzzer's oracle,
// take their expectations from here; test_errors.cpp compares the vocabulary's
// own tables against these, so a wrong SINPE_READ fails a test instead of
// changing what the tests expect.
#include <cstddef>
#include <string>
#include <vector>

#include "options.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"

namespace expected {

using Default = sinpe::detail::Read::Default;

// Every option, with the identifier its statuses are spelled with
// (bad_<id>, <id>_not_read, <id>_missing).
struct OptionId {
  sinpe::Option option;
  const char* id;
};
inline const std::vector<OptionId>& options() {
  using O = sinpe::Option;
  static const std::vector<OptionId> all = {
      {O::base, "base"},
      {O::min_timescale, "min_timescale"},
      {O::max_timescale, "max_timescale"},
      {O::freq_shift, "freq_shift"},
      {O::scale, "scale"},
      {O::max_period, "max_period"},
      {O::padding_idx, "padding_idx"},
      {O::flip_sin_to_cos, "flip_sin_to_cos"},
      {O::factor, "factor"},
      {O::max_positions, "max_positions"},
      {O::original_max_positions, "original_max_positions"},
      {O::seq_len, "seq_len"},
      {O::low_freq_factor, "low_freq_factor"},
      {O::high_freq_factor, "high_freq_factor"},
      {O::beta_fast, "beta_fast"},
      {O::beta_slow, "beta_slow"},
      {O::attention_factor, "attention_factor"},
      {O::mscale, "mscale"},
      {O::mscale_all_dim, "mscale_all_dim"},
      {O::truncate, "truncate"},
      {O::short_factor, "short_factor"},
      {O::long_factor, "long_factor"},
      {O::partial_rotary_factor, "partial_rotary_factor"},
      {O::mrope_section, "mrope_section"},
  };
  return all;
}

inline std::string id(sinpe::Option o) {
  for (const auto& e : options())
    if (e.option == o) return e.id;
  return "?";
}
inline std::string not_read(sinpe::Option o) { return id(o) + "_not_read"; }
inline std::string missing(sinpe::Option o) { return id(o) + "_missing"; }
inline std::string bad(sinpe::Option o) { return "bad_" + id(o); }

// One formula (preset or rope type, by its public name) and what it reads.
struct Formula {
  const char* name;
  std::vector<sinpe::detail::Read> reads;
};

inline sinpe::detail::Read value(sinpe::Option o, double v) { return {o, Default::value, v}; }
inline sinpe::detail::Read none(sinpe::Option o) { return {o, Default::none, 0}; }
inline sinpe::detail::Read required(sinpe::Option o) { return {o, Default::required, 0}; }

// REFERENCE.md's table.
inline const std::vector<Formula>& presets() {
  using O = sinpe::Option;
  static const std::vector<Formula> all = {
      // Attention Is All You Need §3.5: 10000^(-2k/d).
      {"vaswani", {value(O::base, 10000)}},
      // keras-hub SinePositionEncoding(max_wavelength=10000).
      {"keras", {value(O::base, 10000)}},
      // tensor2tensor get_timing_signal_1d(min_timescale=1.0, max_timescale=1.0e4).
      {"tensor2tensor", {value(O::min_timescale, 1), value(O::max_timescale, 10000)}},
      // fairseq SinusoidalPositionalEmbedding.get_embedding: ln(10000)/(h-1); padding_idx optional.
      {"fairseq", {value(O::base, 10000), none(O::padding_idx)}},
      // whisper sinusoids(length, channels, max_timescale=10000).
      {"whisper", {value(O::max_timescale, 10000)}},
      // diffusers get_timestep_embedding(flip_sin_to_cos=False, downscale_freq_shift=1, scale=1,
      // max_period=10000).
      {"diffusers",
       {value(O::max_period, 10000), value(O::freq_shift, 1), value(O::scale, 1),
        value(O::flip_sin_to_cos, 0)}},
      // guided-diffusion timestep_embedding(timesteps, dim, max_period=10000).
      {"guided-diffusion", {value(O::max_period, 10000)}},
      // MAE get_1d_sincos_pos_embed_from_grid: omega = 1 / 10000**(k / (D/2)).
      {"mae", {value(O::base, 10000)}},
  };
  return all;
}

// REFERENCE-ROPE.md's table (transformers' modeling_rope_utils.py; llama3's
// defaults are sinpe's own, as REFERENCE-ROPE.md says).
inline const std::vector<Formula>& rope_types() {
  using O = sinpe::Option;
  // mrope_section (Qwen2-VL / Qwen2.5-VL / Qwen3-VL rope_scaling, modeling_qwen2_vl.py
  // apply_multimodal_rotary_pos_emb) may accompany any rope type; none by default.
  static const std::vector<Formula> all = {
      // _compute_default_rope_parameters: rope_theta (10000).
      {"default", {value(O::base, 10000), none(O::mrope_section)}},
      // _compute_linear_scaling_rope_parameters: factor required.
      {"linear", {value(O::base, 10000), required(O::factor), none(O::mrope_section)}},
      // _compute_dynamic_ntk_parameters: factor, max_position_embeddings required; seq_len optional.
      {"dynamic",
       {value(O::base, 10000), required(O::factor), required(O::max_positions), none(O::seq_len),
        none(O::mrope_section)}},
      // _compute_yarn_parameters: beta_fast 32, beta_slow 1, truncate True; the rest optional.
      {"yarn",
       {value(O::base, 10000), none(O::factor), none(O::max_positions), none(O::original_max_positions),
        value(O::beta_fast, 32), value(O::beta_slow, 1), none(O::attention_factor), none(O::mscale),
        none(O::mscale_all_dim), value(O::truncate, 1), none(O::mrope_section)}},
      // _compute_longrope_parameters: short_factor, long_factor required.
      {"longrope",
       {value(O::base, 10000), none(O::factor), none(O::max_positions), none(O::original_max_positions),
        none(O::seq_len), none(O::attention_factor), required(O::short_factor), required(O::long_factor),
        none(O::mrope_section)}},
      // _compute_llama3_parameters (Llama 3.1's values as sinpe's defaults).
      {"llama3",
       {value(O::base, 10000), value(O::factor, 8), value(O::low_freq_factor, 1),
        value(O::high_freq_factor, 4), value(O::original_max_positions, 8192), none(O::mrope_section)}},
      // _compute_proportional_rope_parameters (transformers v5): factor 1.0, partial_rotary_factor 1.0.
      {"proportional",
       {value(O::base, 10000), value(O::factor, 1), value(O::partial_rotary_factor, 1),
        none(O::mrope_section)}},
  };
  return all;
}

inline const Formula* find(const std::vector<Formula>& all, const std::string& name) {
  for (const auto& f : all)
    if (name == f.name) return &f;
  return nullptr;
}

// As the core's Reads, for code written against that type; empty for an unknown name.
inline sinpe::detail::Reads as_reads(const Formula* f) {
  return f ? sinpe::detail::Reads{f->reads.data(), f->reads.size()} : sinpe::detail::Reads{nullptr, 0};
}
inline sinpe::detail::Reads preset_reads(sinpe::Preset p) {
  const int i = int(p);
  if (i < 0 || i >= sinpe::kPresetCount) return {nullptr, 0};
  return as_reads(find(presets(), sinpe::preset_name(p)));
}
inline sinpe::detail::Reads rope_reads(sinpe::RopeType t) {
  const int i = int(t);
  if (i < 0 || i >= sinpe::kRopeTypeCount) return {nullptr, 0};
  return as_reads(find(rope_types(), sinpe::rope_type_name(t)));
}
inline const sinpe::detail::Read* find_read(const sinpe::detail::Reads& r, sinpe::Option o) {
  for (std::size_t i = 0; i < r.count; ++i)
    if (r.first[i].option == o) return &r.first[i];
  return nullptr;
}

}  // namespace expected
