#include "rope_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ref {

namespace {

const double kPi = 3.14159265358979323846;

bool given(double v) { return !std::isnan(v); }
double or_default(double v, double fallback) { return given(v) ? v : fallback; }
double need(double v, const char* what) {
  if (!given(v)) throw std::invalid_argument(std::string("rope reference needs ") + what);
  return v;
}

// YaRN's attention-factor helper: 1 for s <= 1, else 0.1 * k * ln s + 1.
double yarn_mscale(double s, double k) { return s <= 1 ? 1.0 : 0.1 * k * std::log(s) + 1.0; }

struct Frequencies {
  std::vector<double> inv;
  double attention = 1;
};

Frequencies compute(const RopeParams& p, int r) {
  if (r < 2 || r % 2) throw std::invalid_argument("rotary_dim");
  const std::size_t half = std::size_t(r / 2);
  const double b = p.base;
  std::vector<double> def(half);
  for (std::size_t j = 0; j < half; ++j) def[j] = std::pow(b, -2.0 * double(j) / r);
  Frequencies f;
  f.inv = def;
  const std::string& type = p.rope_type;
  if (type == "default") return f;
  if (type == "linear") {
    const double s = need(p.factor, "factor");
    for (auto& v : f.inv) v /= s;
    return f;
  }
  if (type == "dynamic") {
    const double s = need(p.factor, "factor"), M = need(p.max_positions, "max_positions");
    const double N = std::max(or_default(p.seq_len, M), M);  // transformers: max(seq_len, M)
    const double scaled_base = b * std::pow(s * N / M - (s - 1), double(r) / (r - 2));
    for (std::size_t j = 0; j < half; ++j) f.inv[j] = std::pow(scaled_base, -2.0 * double(j) / r);
    return f;
  }
  if (type == "yarn") {
    const double L = given(p.original_max_positions) ? p.original_max_positions : need(p.max_positions, "L");
    // transformers v5: a given factor wins; the ratio only fills a missing one.
    const double s = given(p.factor)
                         ? p.factor
                         : need(p.max_positions, "factor") / need(p.original_max_positions, "factor");
    if (given(p.attention_factor)) {
      f.attention = p.attention_factor;
    } else if (given(p.mscale) && given(p.mscale_all_dim) && p.mscale != 0 && p.mscale_all_dim != 0) {
      f.attention = yarn_mscale(s, p.mscale) / yarn_mscale(s, p.mscale_all_dim);
    } else {
      f.attention = yarn_mscale(s, 1);
    }
    auto corr = [&](double n) { return r * std::log(L / (n * 2 * kPi)) / (2 * std::log(b)); };
    double lo = corr(or_default(p.beta_fast, 32)), hi = corr(or_default(p.beta_slow, 1));
    if (p.truncate) {
      lo = std::floor(lo);
      hi = std::ceil(hi);
    }
    lo = std::max(lo, 0.0);
    hi = std::min(hi, double(r - 1));
    if (lo == hi) hi += 0.001;
    for (std::size_t j = 0; j < half; ++j) {
      const double ramp = std::min(std::max((double(j) - lo) / (hi - lo), 0.0), 1.0);
      const double extrapolation = 1 - ramp;  // weight of the unscaled frequency
      f.inv[j] = def[j] / s * (1 - extrapolation) + def[j] * extrapolation;
    }
    return f;
  }
  if (type == "longrope") {
    if (p.short_factor.size() != half || p.long_factor.size() != half)
      throw std::invalid_argument("longrope factors must have rotary_dim/2 entries");
    const double L = given(p.original_max_positions) ? p.original_max_positions : p.max_positions;
    if (given(p.attention_factor)) {
      f.attention = p.attention_factor;
    } else {
      // transformers v5: factor ?? max_position_embeddings / original_max_position_embeddings.
      const double s =
          given(p.factor) ? p.factor : need(p.max_positions, "factor or max_positions") / need(L, "L");
      f.attention = s <= 1 ? 1.0 : std::sqrt(1 + std::log(s) / std::log(L));
    }
    const bool use_long = given(p.seq_len) && p.seq_len > need(L, "L");
    const std::vector<double>& ext = use_long ? p.long_factor : p.short_factor;
    for (std::size_t j = 0; j < half; ++j) f.inv[j] = 1.0 / (ext[j] * std::pow(b, 2.0 * double(j) / r));
    return f;
  }
  if (type == "proportional") {
    // transformers v5 _compute_proportional_rope_parameters (head_dim = r):
    // rope_angles = int(rope_proportion * head_dim // 2);
    // inv_freq_rotated = 1.0 / base ** (arange(0, 2 * rope_angles, 2) / head_dim);
    // nope_angles zeros appended; inv_freq /= factor; attention_factor 1.
    const double proportion = or_default(p.partial_rotary_factor, 1.0), s = or_default(p.factor, 1.0);
    const std::size_t rope_angles = std::size_t(std::floor(proportion * r / 2));
    for (std::size_t j = 0; j < half; ++j)
      f.inv[j] = j < rope_angles ? 1.0 / std::pow(b, 2.0 * double(j) / r) / s : 0.0;
    return f;
  }
  if (type == "llama3") {
    const double s = or_default(p.factor, 8), low = or_default(p.low_freq_factor, 1);
    const double high = or_default(p.high_freq_factor, 4), L = or_default(p.original_max_positions, 8192);
    for (std::size_t j = 0; j < half; ++j) {
      const double wavelength = 2 * kPi / def[j];
      if (wavelength < L / high) {
        f.inv[j] = def[j];
      } else if (wavelength > L / low) {
        f.inv[j] = def[j] / s;
      } else {
        const double g = (L / wavelength - low) / (high - low);
        f.inv[j] = (1 - g) * def[j] / s + g * def[j];
      }
    }
    return f;
  }
  throw std::invalid_argument("rope_type " + type);
}

}  // namespace

std::vector<double> rope_inv_freq(const RopeParams& p, int rotary_dim) { return compute(p, rotary_dim).inv; }

double rope_attention(const RopeParams& p, int rotary_dim) { return compute(p, rotary_dim).attention; }

void rope_cache(const RopeParams& p, int rotary_dim, const std::vector<double>& positions,
                std::vector<double>& cos, std::vector<double>& sin) {
  const Frequencies f = compute(p, rotary_dim);
  const std::size_t half = f.inv.size();
  cos.assign(positions.size() * half, 0.0);
  sin.assign(positions.size() * half, 0.0);
  for (std::size_t t = 0; t < positions.size(); ++t)
    for (std::size_t j = 0; j < half; ++j) {
      const double angle = positions[t] * f.inv[j];
      cos[t * half + j] = std::cos(angle) * f.attention;
      sin[t * half + j] = std::sin(angle) * f.attention;
    }
}

std::vector<double> rope_rotate(const RopeParams& p, const std::vector<float>& x,
                                const std::vector<double>& positions, int head_dim, int rotary_dim,
                                const std::string& layout) {
  const std::size_t n = positions.size(), d = std::size_t(head_dim), half = std::size_t(rotary_dim / 2);
  if (n == 0 || x.empty() || x.size() % (n * d) != 0) throw std::invalid_argument("x size");
  if (layout != "half" && layout != "interleaved") throw std::invalid_argument("layout");
  const std::size_t heads = x.size() / (n * d);
  std::vector<double> cos, sin;
  rope_cache(p, rotary_dim, positions, cos, sin);
  std::vector<double> out(x.begin(), x.end());
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t row = (t * heads + h) * d;
      for (std::size_t j = 0; j < half; ++j) {
        const std::size_t a = layout == "half" ? j : 2 * j, b = layout == "half" ? j + half : 2 * j + 1;
        const double c = cos[t * half + j], s = sin[t * half + j];
        const double xa = x[row + a], xb = x[row + b];
        out[row + a] = xa * c - xb * s;
        out[row + b] = xb * c + xa * s;
      }
    }
  return out;
}

}  // namespace ref
