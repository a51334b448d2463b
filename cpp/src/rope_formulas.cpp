// The frequencies of every Hugging Face rope type in float64
// (transformers' modeling_rope_utils; docs/maths.md §2 gives each type's formula),
// and beside them (inv32) the same rule in torch's float32 arithmetic, operation
// by operation as transformers' _compute_*_parameters evaluate it on float32
// tensors (Python scalars enter as float32, as torch's wrapped scalars do):
// the inv_freq of the float32 recipe (rope_recipe.cpp).
#include <cmath>

#include "rope_internal.hpp"

namespace sinpe {

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;
using Args = detail::FormulaArgs;
using Result = detail::FormulaResult;

Status standard(const Args& a, Result& out) {
  for (int j = 0; j < a.r / 2; ++j) {
    out.inv.push_back(a.standard(j));
    out.inv32.push_back(a.standard32(j));
  }
  return Status::ok;
}

Status linear(const Args& a, Result& out) {
  const double s = a.get(Option::factor);
  for (int j = 0; j < a.r / 2; ++j) {
    out.inv.push_back(a.standard(j) / s);
    out.inv32.push_back(a.standard32(j) / float(s));  // inv_freq /= factor
  }
  return Status::ok;
}

// Dynamic NTK: the base grows with the sequence length beyond maxPositions.
Status dynamic(const Args& a, Result& out) {
  const double s = a.get(Option::factor), M = a.get(Option::max_positions);
  const double N = a.given(Option::seq_len) ? std::max(a.get(Option::seq_len), M) : M;
  const double base = a.get(Option::base) * std::pow(s * N / M - (s - 1.0), double(a.r) / double(a.r - 2));
  for (int j = 0; j < a.r / 2; ++j) {
    out.inv.push_back(std::pow(base, -2.0 * j / a.r));
    out.inv32.push_back(a.standard32(j, base));  // the new base is a Python float
  }
  return Status::ok;
}

// YaRN's attention scaling: m(s, k) = 0.1 k ln s + 1 for s > 1.
double yarn_mscale(double s, double k) { return s <= 1 ? 1.0 : 0.1 * k * std::log(s) + 1.0; }

// The context lengths of yarn and longrope: L = originalMaxPositions, else
// maxPositions; the factor as given, else maxPositions / L (transformers v5,
// _compute_yarn_parameters / _compute_longrope_parameters).
Status context(const Args& a, double* L, double* s) {
  const bool has_original = a.given(Option::original_max_positions), has_max = a.given(Option::max_positions);
  if (!has_original && !has_max) return detail::missing_status(Option::original_max_positions);
  *L = has_original ? a.get(Option::original_max_positions) : a.get(Option::max_positions);
  if (a.given(Option::factor)) *s = a.get(Option::factor);
  else if (has_max) *s = a.get(Option::max_positions) / *L;
  else return detail::missing_status(Option::factor);
  return Status::ok;
}

Status yarn(const Args& a, Result& out) {
  double L, s;
  if (Status st = context(a, &L, &s); st != Status::ok) return st;
  if (a.given(Option::attention_factor)) {
    out.attention = a.get(Option::attention_factor);
  } else if (a.given(Option::mscale) && a.given(Option::mscale_all_dim)) {
    out.attention = yarn_mscale(s, a.get(Option::mscale)) / yarn_mscale(s, a.get(Option::mscale_all_dim));
  } else {
    out.attention = yarn_mscale(s, 1.0);
  }
  const double base = a.get(Option::base), r = a.r;
  const auto correction = [&](double n) { return r * std::log(L / (n * kTwoPi)) / (2.0 * std::log(base)); };
  double lo = correction(a.get(Option::beta_fast)), hi = correction(a.get(Option::beta_slow));
  if (a.get(Option::truncate) != 0) {
    lo = std::floor(lo);
    hi = std::ceil(hi);
  }
  lo = std::max(lo, 0.0);
  hi = std::min(hi, r - 1.0);
  if (lo == hi) hi += 0.001;  // no division by zero in the ramp
  for (int j = 0; j < a.r / 2; ++j) {
    // Clamped as torch.clamp does: a NaN (an infinite correction range) stays
    // NaN and the plan is refused, where std::max(0.0, NaN) would give 0.
    double ramp = (double(j) - lo) / (hi - lo);
    if (ramp < 0) ramp = 0;
    if (ramp > 1) ramp = 1;
    const double extrapolation = 1.0 - ramp;
    const double def = a.standard(j);
    out.inv.push_back((def / s) * (1.0 - extrapolation) + def * extrapolation);
    // pos_freqs = base ** (arange / dim); extrapolation = 1 / pos_freqs; interpolation = 1 / (factor *
    // pos_freqs); ramp = clamp((arange(dim // 2) - low) / (high - low), 0, 1); e = 1 - ramp; inv_freq =
    // interpolation * (1 - e) + extrapolation * e
    const float pos = Args::pow32(float(base), float(2 * j) / float(a.r));
    float ramp32 = (float(j) - float(lo)) / float(hi - lo);
    if (ramp32 < 0) ramp32 = 0;
    if (ramp32 > 1) ramp32 = 1;
    const float e32 = 1.0f - ramp32;
    out.inv32.push_back((1.0f / (float(s) * pos)) * (1.0f - e32) + (1.0f / pos) * e32);
  }
  return Status::ok;
}

Status longrope(const Args& a, Result& out) {
  const std::vector<double>* shorts = detail::given_numbers(a.options, Option::short_factor);
  const std::vector<double>* longs = detail::given_numbers(a.options, Option::long_factor);
  const std::size_t half = std::size_t(a.r / 2);
  if (shorts->size() != half) return detail::bad_status(Option::short_factor);
  if (longs->size() != half) return detail::bad_status(Option::long_factor);
  double L, s;
  if (Status st = context(a, &L, &s); st != Status::ok) return st;
  if (a.given(Option::attention_factor)) out.attention = a.get(Option::attention_factor);
  else out.attention = s <= 1 ? 1.0 : std::sqrt(1.0 + std::log(s) / std::log(L));
  const bool use_long = a.given(Option::seq_len) && a.get(Option::seq_len) > L;
  const std::vector<double>& f = use_long ? *longs : *shorts;
  const double base = a.get(Option::base);
  for (std::size_t j = 0; j < half; ++j) {
    out.inv.push_back(1.0 / (f[j] * std::pow(base, 2.0 * double(j) / a.r)));
    // 1.0 / (ext_factors * base ** inv_freq_shape), ext_factors a float32 tensor
    out.inv32.push_back(1.0f / (float(f[j]) * Args::pow32(float(base), float(2 * j) / float(a.r))));
  }
  return Status::ok;
}

Status llama3(const Args& a, Result& out) {
  const double s = a.get(Option::factor), low = a.get(Option::low_freq_factor);
  const double high = a.get(Option::high_freq_factor), L = a.get(Option::original_max_positions);
  for (int j = 0; j < a.r / 2; ++j) {
    const double def = a.standard(j);
    const double wavelength = kTwoPi / def;
    if (wavelength < L / high) {
      out.inv.push_back(def);
    } else if (wavelength > L / low) {
      out.inv.push_back(def / s);
    } else {
      const double g = (L / wavelength - low) / (high - low);
      out.inv.push_back((1.0 - g) * def / s + g * def);
    }
    // wavelen = 2 * math.pi / inv_freq (torch: reciprocal(inv_freq) * 2π);
    // inv_freq_llama = where(wavelen > L / low, inv_freq / factor, inv_freq);
    // smooth = (L / wavelen - low) / (high - low); smoothed = (1 - smooth) * inv_freq_llama / factor + smooth
    // * inv_freq_llama; medium = ~(wavelen < L / high) * ~(wavelen > L / low)
    const float d32 = a.standard32(j);
    const float w32 = (1.0f / d32) * float(kTwoPi);
    const float llama = w32 > float(L / low) ? d32 / float(s) : d32;
    const float g32 = ((1.0f / w32) * float(L) - float(low)) / float(high - low);
    const float smoothed = (1.0f - g32) * llama / float(s) + g32 * llama;
    const bool medium = !(w32 < float(L / high)) && !(w32 > float(L / low));
    out.inv32.push_back(medium ? smoothed : llama);
  }
  return Status::ok;
}

// transformers v5 _compute_proportional_rope_parameters: exponents over the
// whole head (r), rope_angles = int(partial_rotary_factor * head_dim // 2)
// pairs turning, the rest frequency 0, everything divided by the factor.
Status proportional(const Args& a, Result& out) {
  const double fraction = a.get(Option::partial_rotary_factor), s = a.get(Option::factor);
  const std::size_t angles = std::size_t(std::floor(fraction * a.r / 2));
  for (int j = 0; j < a.r / 2; ++j) {
    out.inv.push_back(std::size_t(j) < angles ? a.standard(j) / s : 0.0);
    out.inv32.push_back(std::size_t(j) < angles ? a.standard32(j) / float(s) : 0.0f);
    out.still.push_back(std::size_t(j) < angles ? 0 : 1);
  }
  return Status::ok;
}

using RopeFormula = Status (*)(const Args&, Result&);
constexpr RopeFormula kFormulas[] = {
#define SINPE_ROPE_TYPE(id, name, ...) &id,
#include "sinpe/vocabulary.def"
};
static_assert(sizeof(kFormulas) / sizeof(kFormulas[0]) == kRopeTypeCount, "one formula per rope type");

}  // namespace

namespace detail {

Status rope_formula(RopeType type, const FormulaArgs& args, FormulaResult& out) {
  return kFormulas[int(type)](args, out);
}

bool finite_positive(const std::vector<double>& v, const std::vector<char>& still) {
  for (std::size_t j = 0; j < v.size(); ++j) {
    const double x = v[j];
    if (j < still.size() && still[j] ? x != 0 : (!std::isfinite(x * kMaxAbsPosition) || !(x > 0)))
      return false;
  }
  return true;
}

}  // namespace detail

}  // namespace sinpe
