#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
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

namespace sinpe_test {

// The largest of a set of errors, where a NaN or infinite error (a NaN or
// infinite output, or reference) is a failure no later finite error can clear:
// worst() is then NaN (any NaN) or +inf, so `worst() <= tolerance` is false.
// An empty set is a failure too (worst() is NaN): a comparison of nothing
// checks nothing.
class ErrorTracker {
 public:
  // One error; `at` is where it was found, for the message.
  void add(double error, std::size_t at = 0) {
    ++count_;
    if (std::isnan(error)) {
      if (nan_ == 0) first_non_finite_ = at;
      ++nan_;
    } else if (std::isinf(error)) {
      if (nan_ == 0 && inf_ == 0) first_non_finite_ = at;
      ++inf_;
    } else if (error > largest_ || count_ - nan_ - inf_ == 1) {
      largest_ = error;
      at_ = at;
    }
  }
  // |got - want|, with want's own non-finite values failing too.
  void add(double got, double want, std::size_t at) {
    add(std::isfinite(want) ? std::fabs(got - want) : std::numeric_limits<double>::quiet_NaN(), at);
  }
  std::size_t count() const { return count_; }
  std::size_t non_finite() const { return nan_ + inf_; }
  double worst() const {
    if (count_ == 0 || nan_ > 0) return std::numeric_limits<double>::quiet_NaN();
    if (inf_ > 0) return std::numeric_limits<double>::infinity();
    return largest_;
  }
  // Index of the first non-finite error if any, else of the largest finite one.
  std::size_t at() const { return non_finite() ? first_non_finite_ : at_; }
  // Something was compared, every error was finite, and the largest is at most `tolerance`.
  bool within(double tolerance) const { return count_ > 0 && non_finite() == 0 && largest_ <= tolerance; }
  // The largest finite error, for reports; NaN when there is none.
  double largest_finite() const {
    return count_ - nan_ - inf_ ? largest_ : std::numeric_limits<double>::quiet_NaN();
  }
  std::string describe() const {
    std::ostringstream s;
    if (count_ == 0) return "no values compared";
    s << count_ << " values, worst " << worst() << " at " << at();
    if (non_finite()) s << " (" << nan_ << " NaN, " << inf_ << " infinite errors)";
    return s.str();
  }

 private:
  std::size_t count_ = 0, nan_ = 0, inf_ = 0, at_ = 0, first_non_finite_ = 0;
  double largest_ = 0;
};

// max |got[i] - want[i]| as an ErrorTracker (sizes must match: a size
// mismatch is recorded as a NaN error).
template <class Got, class Want>
ErrorTracker max_abs_error(const Got& got, const Want& want) {
  ErrorTracker t;
  if (got.size() != want.size()) t.add(std::numeric_limits<double>::quiet_NaN(), 0);
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) t.add(double(got[i]), double(want[i]), i);
  return t;
}

}  // namespace sinpe_test

// Largest |got - reference| over rows of width d at the given positions
// (NaN/inf in the output or an empty comparison make it NaN/inf; see ErrorTracker).
inline double max_error(const ref::Params& prm, int d, const std::vector<double>& positions,
                        const std::vector<float>& got) {
  sinpe_test::ErrorTracker t;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto want = ref::row(prm, d, positions[i]);
    for (int c = 0; c < d; ++c) {
      const std::size_t at = i * std::size_t(d) + std::size_t(c);
      t.add(double(got[at]), want[std::size_t(c)], at);
    }
  }
  return t.worst();
}
