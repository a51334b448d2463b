#include "reference.hpp"

#include <cmath>
#include <stdexcept>

namespace ref {

namespace {

// Places sin values S and cos values C (h each) in a row of width d.
std::vector<double> place(const std::string& layout, const std::vector<double>& S,
                          const std::vector<double>& C, int d) {
  const std::size_t h = S.size();
  std::vector<double> out(std::size_t(d), 0.0);
  for (std::size_t k = 0; k < h; ++k) {
    if (layout == "interleaved") {
      out[2 * k] = S[k];
      out[2 * k + 1] = C[k];
    } else if (layout == "concat") {
      out[k] = S[k];
      out[h + k] = C[k];
    } else if (layout == "cos-first") {
      out[k] = C[k];
      out[h + k] = S[k];
    } else {
      throw std::invalid_argument("layout");
    }
  }
  return out;
}

std::vector<double> sines(const std::vector<double>& angles) {
  std::vector<double> r;
  for (double a : angles) r.push_back(std::sin(a));
  return r;
}
std::vector<double> cosines(const std::vector<double>& angles) {
  std::vector<double> r;
  for (double a : angles) r.push_back(std::cos(a));
  return r;
}

}  // namespace

std::vector<double> row(const Params& prm, int d, double p) {
  const std::string& ps = prm.preset;
  const int h = d / 2;
  std::vector<double> angle;
  std::string layout = "concat";

  if (ps == "vaswani") {
    // PyTorch tutorial: div_term = exp(arange(0, d, 2) * (-log(base) / d))
    for (int i = 0; i < d; i += 2) angle.push_back(p * std::exp(double(i) * (-std::log(prm.base) / d)));
    layout = "interleaved";
  } else if (ps == "keras") {
    // keras-hub SinePositionEncoding, column by column.
    std::vector<double> out(static_cast<std::size_t>(d));
    for (int j = 0; j < d; ++j) {
      const double inv = 1.0 / std::pow(prm.base, 2.0 * (j / 2) / d);
      out[std::size_t(j)] = (j % 2 == 0) ? std::sin(p * inv) : std::cos(p * inv);
    }
    if (prm.layout.empty() || prm.layout == "interleaved") return out;
    for (int i = 0; i + 1 < d; i += 2) angle.push_back(p / std::pow(prm.base, double(i) / d));
    if (d % 2) {
      // Odd width: the last column stays the sine of the next frequency, whatever the layout.
      auto out2 = place(prm.layout, sines(angle), cosines(angle), d);
      out2[std::size_t(d - 1)] = std::sin(p / std::pow(prm.base, double(d - 1) / d));
      return out2;
    }
  } else if (ps == "tensor2tensor") {
    const double inc = std::log(prm.max_timescale / prm.min_timescale) / std::max(h - 1, 1);
    for (int k = 0; k < h; ++k) angle.push_back(p * (prm.min_timescale * std::exp(k * -inc)));
  } else if (ps == "fairseq") {
    if (prm.has_padding && p == prm.padding_idx) return std::vector<double>(std::size_t(d), 0.0);
    const double e = std::log(prm.base) / (h - 1);
    for (int k = 0; k < h; ++k) angle.push_back(p * std::exp(k * -e));
  } else if (ps == "whisper") {
    const double inc = std::log(prm.max_timescale) / (h - 1);
    for (int k = 0; k < h; ++k) angle.push_back(p * std::exp(-inc * k));
  } else if (ps == "diffusers") {
    for (int k = 0; k < h; ++k) {
      const double exponent = -std::log(prm.max_period) * k / (h - prm.freq_shift);
      angle.push_back(prm.scale * (p * std::exp(exponent)));
    }
  } else if (ps == "guided-diffusion") {
    for (int k = 0; k < h; ++k) angle.push_back(p * std::exp(-std::log(prm.max_period) * k / h));
    layout = "cos-first";
  } else if (ps == "mae") {
    // get_1d_sincos_pos_embed_from_grid: omega = 1 / base ** (arange(D/2) / (D/2))
    for (int k = 0; k < h; ++k) angle.push_back(p * (1.0 / std::pow(prm.base, double(k) / (d / 2.0))));
  } else {
    throw std::invalid_argument("preset");
  }
  if (!prm.layout.empty()) layout = prm.layout;
  return place(layout, sines(angle), cosines(angle), d);  // odd d: last column stays 0
}

std::vector<double> grid2d(const Params& prm, int h, int w, int d, bool cls) {
  std::vector<double> out;
  if (cls) out.assign(std::size_t(d), 0.0);
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) {
      const auto x = row(prm, d / 2, c), y = row(prm, d / 2, r);
      out.insert(out.end(), x.begin(), x.end());
      out.insert(out.end(), y.begin(), y.end());
    }
  return out;
}

}  // namespace ref
