// Presets: each library's frequency formula, evaluated in float64, as a table
// of small functions. Which options each one reads, and their defaults, come
// from vocabulary.def; check_options has refused anything else before these run.
#include <algorithm>
#include <cmath>

#include "options.hpp"
#include "plan_data.hpp"

namespace sinpe {

namespace {

using detail::PlanData;

// What a preset function sees: the width and its options with defaults filled in.
struct Args {
  const Options& options;
  detail::Reads reads;
  int d;
  int h;
  bool odd;
  double get(Option id) const { return detail::number_or_default(options, reads, id); }
};

// vaswani: base^(-2k/d).
Status vaswani(const Args& a, PlanData& p) {
  if (a.odd) return Status::d_model_odd;
  const double base = a.get(Option::base);
  for (int k = 0; k < a.h; ++k) p.freq.push_back(std::pow(base, -2.0 * k / a.d));
  return Status::ok;
}

// keras-hub: (1/base)^(2*floor(j/2)/d) per column j; odd d ends in a sine column.
Status keras(const Args& a, PlanData& p) {
  const double base = a.get(Option::base);
  p.odd = a.odd ? OddColumn::sine : OddColumn::none;
  const int nf = a.h + (a.odd ? 1 : 0);
  for (int k = 0; k < nf; ++k) p.freq.push_back(std::pow(1.0 / base, 2.0 * k / a.d));
  return Status::ok;
}

// get_timing_signal_1d: min_timescale * exp(-k * log(max/min) / max(h-1, 1)).
Status tensor2tensor(const Args& a, PlanData& p) {
  const double lo = a.get(Option::min_timescale), hi = a.get(Option::max_timescale);
  const double inc = std::log(hi / lo) / double(std::max(a.h - 1, 1));
  for (int k = 0; k < a.h; ++k) p.freq.push_back(lo * std::exp(-double(k) * inc));
  return Status::ok;
}

// SinusoidalPositionalEmbedding.get_embedding: exp(-k * ln(base) / (h-1)).
Status fairseq(const Args& a, PlanData& p) {
  if (detail::is_given(a.options, Option::padding_idx)) {
    p.has_padding = true;
    p.padding_idx = *a.options.padding_idx;
  }
  if (a.h < 2) return Status::d_model_too_small;  // divides by h-1
  const double e = std::log(a.get(Option::base)) / double(a.h - 1);
  for (int k = 0; k < a.h; ++k) p.freq.push_back(std::exp(-double(k) * e));
  return Status::ok;
}

// whisper sinusoids: exp(-k * ln(max_timescale) / (h-1)).
Status whisper(const Args& a, PlanData& p) {
  if (a.odd) return Status::d_model_odd;
  if (a.h < 2) return Status::d_model_too_small;
  const double inc = std::log(a.get(Option::max_timescale)) / double(a.h - 1);
  for (int k = 0; k < a.h; ++k) p.freq.push_back(std::exp(-inc * double(k)));
  return Status::ok;
}

// get_timestep_embedding: exp(-ln(max_period) * k / (h - shift)), then * scale.
Status timestep(const Args& a, PlanData& p, double shift, double scale) {
  const double denom = double(a.h) - shift;
  if (a.h > 0 && !(denom > 0)) {
    // The given shift is at fault when the default one would have worked at this width.
    const detail::Read* fallback = a.reads.find(Option::freq_shift);
    const bool shift_at_fault =
        detail::is_given(a.options, Option::freq_shift) && fallback && double(a.h) - fallback->value > 0;
    return shift_at_fault ? detail::bad_status(Option::freq_shift) : Status::d_model_too_small;
  }
  const double period = a.get(Option::max_period);
  for (int k = 0; k < a.h; ++k) {
    const double f = std::exp(-std::log(period) * double(k) / denom);
    // The libraries multiply the position by f before the scale: where p f
    // overflows their value is NaN, even with scale 0.
    if (!std::isfinite(f * kMaxAbsPosition)) return Status::frequencies_not_finite;
    p.freq.push_back(f * scale);
  }
  return Status::ok;
}

Status diffusers(const Args& a, PlanData& p) {
  if (detail::is_given(a.options, Option::flip_sin_to_cos)) {
    if (a.options.layout != Layout::preset_default) return Status::layout_conflict;
    p.layout = *a.options.flip_sin_to_cos ? Layout::cos_first : Layout::concat;
  }
  return timestep(a, p, a.get(Option::freq_shift), a.get(Option::scale));
}

Status guided_diffusion(const Args& a, PlanData& p) { return timestep(a, p, 0.0, 1.0); }

// MAE get_1d_sincos_pos_embed_from_grid: 1/base^(k/(d/2)).
Status mae(const Args& a, PlanData& p) {
  if (a.odd) return Status::d_model_odd;
  const double base = a.get(Option::base);
  for (int k = 0; k < a.h; ++k) p.freq.push_back(1.0 / std::pow(base, double(k) / a.h));
  return Status::ok;
}

using PresetFormula = Status (*)(const Args&, PlanData&);
constexpr PresetFormula kFormulas[] = {
#define SINPE_PRESET(id, name, layout, ...) &id,
#include "sinpe/vocabulary.def"
};
static_assert(sizeof(kFormulas) / sizeof(kFormulas[0]) == kPresetCount, "one formula per preset");

bool valid_layout(Layout l) {
  return int(l) >= -1 && int(l) < 0
#define SINPE_LAYOUT(id, name) +1
#include "sinpe/vocabulary.def"
      ;
}

// A frequency that overflowed or became NaN, or whose angles overflow below
// 2^24. (One that underflowed to zero is harmless: its angles would be below
// 2^24 * 5e-324, so sin 0 and cos 1 are within the contract.)
bool frequencies_finite(const std::vector<double>& freq) {
  for (double f : freq)
    if (!std::isfinite(f * kMaxAbsPosition)) return false;
  return true;
}

}  // namespace

Status make_plan(const Options& o, int d, Plan* plan) {
  if (plan == nullptr) return Status::null_pointer;
  if (int(o.preset) < 0 || int(o.preset) >= kPresetCount) return Status::bad_preset;
  if (!valid_layout(o.layout)) return Status::bad_layout;
  const detail::Reads reads = detail::preset_reads(o.preset);
  if (Status s = detail::check_options(o, reads); s != Status::ok) return s;
  if (d < 1 || d > kMaxDModel) return Status::d_model_out_of_range;

  const Args args{o, reads, d, d / 2, d % 2 != 0};
  PlanData p;
  p.d_model = d;
  p.pairs = args.h;
  p.layout = detail::preset_layout(o.preset);
  p.odd = args.odd ? OddColumn::zero : OddColumn::none;
  if (Status s = kFormulas[int(o.preset)](args, p); s != Status::ok) return s;
  if (!frequencies_finite(p.freq)) return Status::frequencies_not_finite;
  if (o.layout != Layout::preset_default) p.layout = o.layout;
  *plan = detail::finish_plan(std::move(p));
  return Status::ok;
}

Status make_grid_plan(const Options& options, int d_model, Plan* axis_plan) {
  if (d_model < 1 || d_model > kMaxDModel) return Status::d_model_out_of_range;
  if (d_model % 2 != 0) return Status::d_model_odd;
  const Status s = make_plan(options, d_model / 2, axis_plan);
  // The axis width is d/2; a preset that needs an even width needs d % 4 == 0.
  if (s == Status::d_model_odd) return Status::d_model_not_multiple_of_4;
  return s;
}

}  // namespace sinpe
