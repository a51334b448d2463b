// Presets: each library's frequency formula, evaluated in float64.
#include <algorithm>
#include <cmath>

#include "sinpe/sinpe.hpp"

namespace sinpe {

namespace {

bool is_set(double v) { return !std::isnan(v); }

// A user-supplied positive finite parameter, or the default when unset.
bool positive_or_default(double v, double fallback, double* out) {
  if (!is_set(v)) {
    *out = fallback;
    return true;
  }
  if (!std::isfinite(v) || !(v > 0)) return false;
  *out = v;
  return true;
}

// The rotation tables make a block of rows cost two multiplies and one add per
// value; their size is capped so they stay in cache next to the output.
constexpr int kMaxBlock = 64;
constexpr std::size_t kTableBudget = 16384;  // block * frequencies

void build_tables(const std::vector<double>& freq, int& block, std::vector<float>& rc,
                  std::vector<float>& rs, std::vector<double>& sc, std::vector<double>& ss) {
  const std::size_t nf = freq.size();
  block = nf == 0 ? kMaxBlock : int(std::min<std::size_t>(kMaxBlock, kTableBudget / nf));
  if (block < 4) block = 1;  // wide rows: step double anchors row by row instead
  rc.assign(std::size_t(block) * nf, 0.f);
  rs.assign(std::size_t(block) * nf, 0.f);
  sc.resize(nf);
  ss.resize(nf);
  for (std::size_t k = 0; k < nf; ++k) {
    // cos/sin(j w) for j < block by a float64 rotation recurrence: after 64
    // steps its error is ~1e-14, far below float32 rounding.
    const double c1 = std::cos(freq[k]), s1 = std::sin(freq[k]);
    double c = 1.0, s = 0.0;
    for (int j = 0; j < block; ++j) {
      rc[std::size_t(j) * nf + k] = float(c);
      rs[std::size_t(j) * nf + k] = float(s);
      const double cn = c * c1 - s * s1;
      s = s * c1 + c * s1;
      c = cn;
    }
    sc[k] = std::cos(double(block) * freq[k]);
    ss[k] = std::sin(double(block) * freq[k]);
  }
}

}  // namespace

const char* status_name(Status s) noexcept {
  switch (s) {
    case Status::ok: return "ok";
    case Status::bad_preset: return "bad_preset";
    case Status::bad_layout: return "bad_layout";
    case Status::d_model_out_of_range: return "d_model_out_of_range";
    case Status::d_model_odd: return "d_model_odd";
    case Status::d_model_not_multiple_of_4: return "d_model_not_multiple_of_4";
    case Status::d_model_too_small: return "d_model_too_small";
    case Status::bad_base: return "bad_base";
    case Status::bad_min_timescale: return "bad_min_timescale";
    case Status::bad_max_timescale: return "bad_max_timescale";
    case Status::bad_freq_shift: return "bad_freq_shift";
    case Status::bad_scale: return "bad_scale";
    case Status::bad_max_period: return "bad_max_period";
    case Status::bad_padding_idx: return "bad_padding_idx";
    case Status::bad_count: return "bad_count";
    case Status::bad_start: return "bad_start";
    case Status::position_not_finite: return "position_not_finite";
    case Status::position_out_of_range: return "position_out_of_range";
    case Status::too_large: return "too_large";
    case Status::bad_buffer: return "bad_buffer";
    case Status::bad_column_window: return "bad_column_window";
    case Status::bad_value_range: return "bad_value_range";
  }
  return "unknown";
}

const char* preset_name(Preset p) noexcept {
  switch (p) {
    case Preset::vaswani: return "vaswani";
    case Preset::keras: return "keras";
    case Preset::tensor2tensor: return "tensor2tensor";
    case Preset::fairseq: return "fairseq";
    case Preset::whisper: return "whisper";
    case Preset::diffusers: return "diffusers";
    case Preset::guided_diffusion: return "guided-diffusion";
    case Preset::mae: return "mae";
  }
  return "unknown";
}

Status make_plan(const Options& o, int d, Plan* plan) {
  if (plan == nullptr) return Status::bad_buffer;
  if (int(o.preset) < 0 || int(o.preset) >= kPresetCount) return Status::bad_preset;
  if (int(o.layout) < -1 || int(o.layout) > 2) return Status::bad_layout;
  if (d < 1 || d > kMaxDModel) return Status::d_model_out_of_range;

  const int h = d / 2;
  const bool odd = (d % 2) != 0;
  std::vector<double> freq;
  Layout layout = Layout::concat;
  OddColumn odd_column = odd ? OddColumn::zero : OddColumn::none;
  double scale = 1.0;
  bool has_padding = false;
  double padding_idx = 0;

  switch (o.preset) {
    case Preset::vaswani:
    case Preset::keras:
    case Preset::mae: {
      double base;
      if (!positive_or_default(o.base, 10000.0, &base)) return Status::bad_base;
      if (o.preset == Preset::keras) {
        // keras-hub: (1/base)^(2*floor(j/2)/d) per column j; odd d ends in a sine column.
        layout = Layout::interleaved;
        odd_column = odd ? OddColumn::sine : OddColumn::none;
        const int nf = h + (odd ? 1 : 0);
        for (int k = 0; k < nf; ++k) freq.push_back(std::pow(1.0 / base, 2.0 * k / d));
      } else {
        if (odd) return Status::d_model_odd;
        // vaswani: base^(-2k/d). mae (get_1d_sincos_pos_embed_from_grid): 1/base^(k/(d/2)).
        layout = o.preset == Preset::mae ? Layout::concat : Layout::interleaved;
        for (int k = 0; k < h; ++k)
          freq.push_back(o.preset == Preset::mae ? 1.0 / std::pow(base, double(k) / h)
                                                 : std::pow(base, -2.0 * k / d));
      }
      break;
    }
    case Preset::tensor2tensor: {
      double lo, hi;
      if (!positive_or_default(o.min_timescale, 1.0, &lo)) return Status::bad_min_timescale;
      if (!positive_or_default(o.max_timescale, 10000.0, &hi)) return Status::bad_max_timescale;
      // get_timing_signal_1d: min_timescale * exp(-k * log(max/min) / max(h-1, 1)).
      const double inc = std::log(hi / lo) / double(std::max(h - 1, 1));
      for (int k = 0; k < h; ++k) freq.push_back(lo * std::exp(-double(k) * inc));
      break;
    }
    case Preset::fairseq: {
      double base;
      if (!positive_or_default(o.base, 10000.0, &base)) return Status::bad_base;
      if (is_set(o.padding_idx)) {
        if (!std::isfinite(o.padding_idx) || o.padding_idx != std::floor(o.padding_idx) ||
            std::fabs(o.padding_idx) >= kMaxAbsPosition)
          return Status::bad_padding_idx;
        has_padding = true;
        padding_idx = o.padding_idx;
      }
      if (h < 2) return Status::d_model_too_small;  // divides by h-1
      const double e = std::log(base) / double(h - 1);
      for (int k = 0; k < h; ++k) freq.push_back(std::exp(-double(k) * e));
      break;
    }
    case Preset::whisper: {
      double hi;
      if (!positive_or_default(o.max_timescale, 10000.0, &hi)) return Status::bad_max_timescale;
      if (odd) return Status::d_model_odd;
      if (h < 2) return Status::d_model_too_small;
      const double inc = std::log(hi) / double(h - 1);
      for (int k = 0; k < h; ++k) freq.push_back(std::exp(-inc * double(k)));
      break;
    }
    case Preset::diffusers:
    case Preset::guided_diffusion: {
      double period;
      if (!positive_or_default(o.max_period, 10000.0, &period)) return Status::bad_max_period;
      double shift = 0.0;
      if (o.preset == Preset::diffusers) {
        shift = 1.0;
        if (is_set(o.freq_shift)) {
          if (!std::isfinite(o.freq_shift)) return Status::bad_freq_shift;
          shift = o.freq_shift;
        }
        if (is_set(o.scale)) {
          if (!std::isfinite(o.scale)) return Status::bad_scale;
          scale = o.scale;
        }
      } else {
        layout = Layout::cos_first;
      }
      const double denom = double(h) - shift;
      if (h > 0 && !(denom > 0)) return Status::d_model_too_small;
      // get_timestep_embedding: exp(-ln(max_period) * k / (h - shift)), then * scale.
      for (int k = 0; k < h; ++k) freq.push_back(std::exp(-std::log(period) * double(k) / denom) * scale);
      break;
    }
  }
  // Options that only some presets read were checked above; the rest must be unset.
  if (o.preset != Preset::fairseq && is_set(o.padding_idx)) return Status::bad_padding_idx;

  if (o.layout != Layout::preset_default) layout = o.layout;

  Plan p;
  p.d_model_ = d;
  p.pairs_ = h;
  p.layout_ = layout;
  p.odd_ = odd_column;
  p.has_padding_ = has_padding;
  p.padding_idx_ = padding_idx;
  p.freq_ = std::move(freq);
  build_tables(p.freq_, p.block_, p.rot_cos_, p.rot_sin_, p.step_cos_, p.step_sin_);
  *plan = std::move(p);
  return Status::ok;
}

Status make_grid_plan(const Options& options, int d_model, Plan* axis_plan) {
  if (d_model < 1 || d_model > kMaxDModel) return Status::d_model_out_of_range;
  if (d_model % 2 != 0) return Status::d_model_odd;
  Status s = make_plan(options, d_model / 2, axis_plan);
  // The axis width is d/2; a preset that needs an even width needs d % 4 == 0.
  if (s == Status::d_model_odd) return Status::d_model_not_multiple_of_4;
  return s;
}

Status check_position(double p) noexcept {
  if (!std::isfinite(p)) return Status::position_not_finite;
  if (std::fabs(p) >= kMaxAbsPosition) return Status::position_out_of_range;
  return Status::ok;
}

Status check_row_range(double start, std::size_t count) noexcept {
  if (!std::isfinite(start) || start != std::floor(start)) return Status::bad_start;
  if (std::fabs(start) >= kMaxAbsPosition) return Status::position_out_of_range;
  if (count > std::size_t(2 * kMaxAbsPosition)) return Status::position_out_of_range;
  if (count > 0 && std::fabs(start + double(count) - 1.0) >= kMaxAbsPosition)
    return Status::position_out_of_range;
  return Status::ok;
}

Status check_elements(std::size_t rows, std::size_t d_model) noexcept {
  if (d_model != 0 && rows > kMaxElements / d_model) return Status::too_large;
  return Status::ok;
}

const char* version() noexcept { return SINPE_VERSION; }

}  // namespace sinpe
