// RoPE plans: a rope type's frequencies (rope_formulas.cpp) laid out over the
// position axes the options ask for.
#include <cmath>

#include "rope_internal.hpp"

namespace sinpe {

int RopePlan::rotary_dim() const noexcept { return data_->rotary_dim; }
const std::vector<double>& RopePlan::inv_freq() const noexcept { return data_->inv; }
double RopePlan::attention_factor() const noexcept { return data_->attention; }
const std::vector<float>& RopePlan::inv_freq_float32() const noexcept { return data_->inv32; }
const Plan& RopePlan::rows_plan() const noexcept { return data_->rows; }
int RopePlan::axes() const noexcept { return data_->axes; }
const std::vector<int>& RopePlan::pair_axes() const noexcept { return data_->pair_axes; }
namespace {

Plan concat_plan(const std::vector<double>& inv, double attention) {
  detail::PlanData rows;
  rows.d_model = int(2 * inv.size());
  rows.pairs = int(inv.size());
  rows.layout = Layout::concat;
  rows.amplitude = attention;
  rows.freq = inv;
  return detail::finish_plan(std::move(rows));
}

// The multi-axis layout the options ask for (ropeAxes and its sections' rules
// checked by make_rope_plan before).
Status axes_layout(const Options& o, int r, RopeAxes* layout, std::vector<std::size_t>* sections) {
  const std::vector<double>* given = detail::given_numbers(o, Option::mrope_section);
  *layout = o.rope_axes == RopeAxes::none && given ? RopeAxes::sectioned : o.rope_axes;
  if (*layout == RopeAxes::none) return Status::ok;
  if (*layout == RopeAxes::pixtral) {
    if (given) return detail::not_read_status(Option::mrope_section);
    sections->assign(2, std::size_t(r / 4));
    return Status::ok;
  }
  if (!given) return detail::missing_status(Option::mrope_section);
  sections->assign(given->begin(), given->end());
  return Status::ok;
}

}  // namespace

Status make_rope_plan(const Options& o, int r, RopePlan* plan) {
  if (plan == nullptr) return Status::null_pointer;
  if (int(o.rope_type) < 0 || int(o.rope_type) >= kRopeTypeCount) return Status::bad_rope_type;
  // The sinusoidal presets' own fields have no meaning here.
  if (o.layout != Layout::preset_default) return Status::bad_rope_layout;
  // ropeAxes' own rule, before the rules that read it.
  if (int(o.rope_axes) < int(RopeAxes::none) || int(o.rope_axes) >= kRopeAxesCount)
    return Status::bad_rope_axes;
  const detail::Reads reads = detail::rope_reads(o.rope_type);
  if (Status s = detail::check_options(o, reads); s != Status::ok) return s;
  // base > 1, r even, the sections' sum, ... (vocabulary.def's rules).
  if (Status s = detail::check_rope_rules(o, reads, r); s != Status::ok) return s;
  RopeAxes layout;
  std::vector<std::size_t> sections;
  if (Status s = axes_layout(o, r, &layout, &sections); s != Status::ok) return s;
  detail::FormulaResult res;
  if (layout == RopeAxes::axial) {
    // Each axis its own rope of rotary dimension 2 s_a; the attention factor
    // depends on no rotary dimension (modeling_rope_utils), so axis 0's is all's.
    for (std::size_t a = 0; a < sections.size(); ++a) {
      detail::FormulaResult axis;
      if (Status s =
              detail::rope_formula(o.rope_type, detail::FormulaArgs{o, reads, int(2 * sections[a])}, axis);
          s != Status::ok)
        return s;
      res.still.resize(res.inv.size(), 0);
      res.still.insert(res.still.end(), axis.still.begin(), axis.still.end());
      res.inv.insert(res.inv.end(), axis.inv.begin(), axis.inv.end());
      res.inv32.insert(res.inv32.end(), axis.inv32.begin(), axis.inv32.end());
      if (a == 0) res.attention = axis.attention;
    }
  } else if (Status s = detail::rope_formula(o.rope_type, detail::FormulaArgs{o, reads, r}, res);
             s != Status::ok) {
    return s;
  }
  // The attention factor scales float32 values; a row's a*c + b*s may reach
  // twice it before rounding, so twice it must be a finite float32 too.
  if (!detail::finite_positive(res.inv, res.still) || !std::isfinite(float(2 * res.attention)) ||
      !(res.attention > 0))
    return Status::frequencies_not_finite;

  const std::size_t half = std::size_t(r / 2);
  auto data = std::make_shared<detail::RopeData>();
  data->pair_axes.assign(half, 0);
  switch (layout) {
    case RopeAxes::none: break;
    case RopeAxes::sectioned:
    case RopeAxes::axial:
      for (std::size_t a = 0, j = 0; a < sections.size(); ++a)
        for (std::size_t k = 0; k < sections[a]; ++k) data->pair_axes[j++] = int(a);
      break;
    case RopeAxes::interleaved:
      // apply_interleaved_mrope: axis a > 0 takes pairs a, a + N, ... below N s_a; axis 0 the rest.
      for (std::size_t j = 0; j < half; ++j) {
        const std::size_t a = j % sections.size();
        if (a > 0 && j < sections.size() * sections[a]) data->pair_axes[j] = int(a);
      }
      break;
    case RopeAxes::pixtral: {
      // freqs[::2] for the row, then freqs[1::2] for the column.
      std::vector<double> inv(half);
      std::vector<float> inv32(half);
      for (std::size_t j = 0; j < half / 2; ++j) {
        inv[j] = res.inv[2 * j];
        inv[half / 2 + j] = res.inv[2 * j + 1];
        inv32[j] = res.inv32[2 * j];
        inv32[half / 2 + j] = res.inv32[2 * j + 1];
        data->pair_axes[half / 2 + j] = 1;
      }
      res.inv = std::move(inv);
      res.inv32 = std::move(inv32);
      break;
    }
  }
  data->axes = layout == RopeAxes::none ? 1 : int(sections.size());
  if (data->axes > 1) {
    data->axis_pairs.resize(std::size_t(data->axes));
    for (std::size_t j = 0; j < half; ++j) data->axis_pairs[std::size_t(data->pair_axes[j])].push_back(j);
    for (const auto& pairs : data->axis_pairs) {
      std::vector<double> inv;
      for (std::size_t j : pairs) inv.push_back(res.inv[j]);
      data->axis_rows.push_back(concat_plan(inv, res.attention));
    }
  }
  data->rotary_dim = r;
  data->attention = res.attention;
  data->rows = concat_plan(res.inv, res.attention);
  data->inv = std::move(res.inv);
  data->inv32 = std::move(res.inv32);
  *plan = RopePlan(std::move(data));
  return Status::ok;
}

}  // namespace sinpe
