// RoPE: the frequencies of every Hugging Face rope type in float64
// (transformers' modeling_rope_utils; docs/maths.md §2 gives each type's formula), cache
// rows through the block kernel, and in-place rotation.
#include "sinpe/rope.hpp"

#include <cmath>

#include "axes_kernel.hpp"
#include "kernel.hpp"
#include "options.hpp"

namespace sinpe {

namespace detail {
struct RopeData {
  int rotary_dim = 0;
  std::vector<double> inv;
  double attention = 1.0;
  Plan rows;  // width r, concat, frequencies inv, amplitude attention
  int axes = 1;
  std::vector<int> pair_axes;  // r/2 entries
  // With several axes: per axis, its pairs (ascending) and a plan of their
  // frequencies alone (width 2 x pairs, concat), made from that axis's positions.
  std::vector<std::vector<std::size_t>> axis_pairs;
  std::vector<Plan> axis_rows;
};
}  // namespace detail

int RopePlan::rotary_dim() const noexcept { return data_->rotary_dim; }
const std::vector<double>& RopePlan::inv_freq() const noexcept { return data_->inv; }
double RopePlan::attention_factor() const noexcept { return data_->attention; }
const Plan& RopePlan::rows_plan() const noexcept { return data_->rows; }
int RopePlan::axes() const noexcept { return data_->axes; }
const std::vector<int>& RopePlan::pair_axes() const noexcept { return data_->pair_axes; }

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

struct Args {
  const Options& options;
  detail::Reads reads;
  int r;
  double get(Option id) const { return detail::number_or_default(options, reads, id); }
  bool given(Option id) const { return detail::is_given(options, id); }
  // def_j = base^(-2j/r)
  double standard(int j) const { return std::pow(get(Option::base), -2.0 * j / r); }
};

struct Result {
  std::vector<double> inv;
  double attention = 1.0;
  std::vector<char> still;  // per pair: 1 = frequency 0 on purpose (proportional); empty = none
};

Status standard(const Args& a, Result& out) {
  for (int j = 0; j < a.r / 2; ++j) out.inv.push_back(a.standard(j));
  return Status::ok;
}

Status linear(const Args& a, Result& out) {
  const double s = a.get(Option::factor);
  for (int j = 0; j < a.r / 2; ++j) out.inv.push_back(a.standard(j) / s);
  return Status::ok;
}

// Dynamic NTK: the base grows with the sequence length beyond maxPositions.
Status dynamic(const Args& a, Result& out) {
  const double s = a.get(Option::factor), M = a.get(Option::max_positions);
  const double N = a.given(Option::seq_len) ? std::max(a.get(Option::seq_len), M) : M;
  const double base = a.get(Option::base) * std::pow(s * N / M - (s - 1.0), double(a.r) / double(a.r - 2));
  for (int j = 0; j < a.r / 2; ++j) out.inv.push_back(std::pow(base, -2.0 * j / a.r));
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
  for (std::size_t j = 0; j < half; ++j)
    out.inv.push_back(1.0 / (f[j] * std::pow(base, 2.0 * double(j) / a.r)));
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

// Every inv_j positive (not NaN, not underflowed to zero) and every angle
// p inv_j with |p| < 2^24 finite, as the sinusoidal presets require.
// Pairs marked still must be exactly 0 (no rotation).
bool finite_positive(const std::vector<double>& v, const std::vector<char>& still) {
  for (std::size_t j = 0; j < v.size(); ++j) {
    const double x = v[j];
    if (j < still.size() && still[j] ? x != 0 : (!std::isfinite(x * kMaxAbsPosition) || !(x > 0)))
      return false;
  }
  return true;
}

}  // namespace

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

// The multi-axis layout the options ask for (its sections' rules checked by
// check_rope_rules before).
Status axes_layout(const Options& o, int r, RopeAxes* layout, std::vector<std::size_t>* sections) {
  if (int(o.rope_axes) < int(RopeAxes::none) || int(o.rope_axes) >= kRopeAxesCount)
    return Status::bad_rope_axes;
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
  const detail::Reads reads = detail::rope_reads(o.rope_type);
  if (Status s = detail::check_options(o, reads); s != Status::ok) return s;
  // base > 1, r even, the sections' sum, ... (vocabulary.def's rules).
  if (Status s = detail::check_rope_rules(o, reads, r); s != Status::ok) return s;
  RopeAxes layout;
  std::vector<std::size_t> sections;
  if (Status s = axes_layout(o, r, &layout, &sections); s != Status::ok) return s;
  Result res;
  if (layout == RopeAxes::axial) {
    // Each axis its own rope of rotary dimension 2 s_a; the attention factor
    // depends on no rotary dimension (modeling_rope_utils), so axis 0's is all's.
    for (std::size_t a = 0; a < sections.size(); ++a) {
      Result axis;
      if (Status s = kFormulas[int(o.rope_type)](Args{o, reads, int(2 * sections[a])}, axis); s != Status::ok)
        return s;
      res.still.resize(res.inv.size(), 0);
      res.still.insert(res.still.end(), axis.still.begin(), axis.still.end());
      res.inv.insert(res.inv.end(), axis.inv.begin(), axis.inv.end());
      if (a == 0) res.attention = axis.attention;
    }
  } else if (Status s = kFormulas[int(o.rope_type)](Args{o, reads, r}, res); s != Status::ok) {
    return s;
  }
  // The attention factor scales float32 values; a row's a*c + b*s may reach
  // twice it before rounding, so twice it must be a finite float32 too.
  if (!finite_positive(res.inv, res.still) || !std::isfinite(float(2 * res.attention)) ||
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
      for (std::size_t j = 0; j < half / 2; ++j) {
        inv[j] = res.inv[2 * j];
        inv[half / 2 + j] = res.inv[2 * j + 1];
        data->pair_axes[half / 2 + j] = 1;
      }
      res.inv = std::move(inv);
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
  *plan = RopePlan(std::move(data));
  return Status::ok;
}

namespace {

detail::Rows split_rows(float* cos, float* sin, std::size_t half) {
  return {nullptr, sin, cos, nullptr, half};
}

}  // namespace

Status rope_cache_rows(const RopePlan& plan, double start, std::size_t count, float* cos, float* sin,
                       Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  if (Status s = check_elements(count, half); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  detail::rows_into<false>(P, start, count, split_rows(cos, sin, half), w, path == Path::best);
  return Status::ok;
}

Status rope_cache(const RopePlan& plan, const double* positions, std::size_t n, float* cos, float* sin,
                  Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  detail::positions_into(P, positions, n, split_rows(cos, sin, half), w, path == Path::best);
  return Status::ok;
}

namespace {

// Cache rows at positions[i], i < n: the rows plan's concat row is sines then cosines.
void half_cache(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype, std::uint16_t* cos,
                std::uint16_t* sin, Path path) {
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const auto store = [=](std::size_t i, std::size_t c, std::uint16_t v) {
    if (c < half) sin[i * half + c] = v;
    else cos[i * half + c - half] = v;
  };
  const bool simd = path == Path::best;
  if (dtype == Dtype::float16) detail::half_rows<detail::round_float16>(P, positions, n, w, simd, store);
  else detail::half_rows<detail::round_bfloat16>(P, positions, n, w, simd, store);
}

bool is_half(Dtype dtype) { return dtype == Dtype::float16 || dtype == Dtype::bfloat16; }

// A half dtype whose range holds the plan's values: |cos|, |sin| reach 1, so
// the largest is the attention factor, and float16 refuses one that rounds
// past its largest finite value (bfloat16 has float32's range, which the plan
// already checked).
Status check_half(const RopePlan& plan, Dtype dtype) {
  if (!is_half(dtype)) return Status::bad_dtype;
  if (dtype == Dtype::float16 &&
      detail::round_float16(plan.attention_factor()) > detail::round_float16(limits::max_float16))
    return Status::float16_overflow;
  return Status::ok;
}

}  // namespace

Status rope_cache_rows(const RopePlan& plan, double start, std::size_t count, Dtype dtype, std::uint16_t* cos,
                       std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  if (Status s = check_row_range(start, count); s != Status::ok) return s;
  if (Status s = check_elements(count, std::size_t(plan.rotary_dim() / 2)); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  // The block kernel over the whole range; the rows plan's concat row is sines then cosines.
  const detail::PlanData& P = plan.rows_plan().data();
  detail::Work& w = detail::Work::get(P.freq.size());
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const auto sink = [=](std::size_t i, const float* row, double p, const auto& rows) {
    rows.convert(row, p, 0, half, sin + i * half);
    rows.convert(row, p, half, 2 * half, cos + i * half);
  };
  const bool simd = path == Path::best;
  if (dtype == Dtype::float16) detail::half_range<detail::Float16Test>(P, start, count, w, simd, sink);
  else detail::half_range<detail::BFloat16Test>(P, start, count, w, simd, sink);
  return Status::ok;
}

Status rope_cache(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype,
                  std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  if (Status s = check_elements(n, std::size_t(plan.rotary_dim() / 2)); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  half_cache(plan, positions, n, dtype, cos, sin, path);
  return Status::ok;
}

Status check_head_dim(const RopePlan& plan, int head_dim) noexcept {
  if (head_dim < 1 || head_dim > kMaxDModel) return Status::bad_head_dim;
  if (plan.valid() && plan.rotary_dim() > head_dim) return Status::rotary_dim_above_head_dim;
  return Status::ok;
}

namespace {

// x'_a = x_a c - x_b s, x'_b = x_b c + x_a s for pairs (j, j + half), W lanes at a time.
template <class V>
std::size_t rotate_half(std::size_t j, std::size_t half, const float* c, const float* s, float* x) {
  constexpr std::size_t W = simd::lanes<V>;
  for (; j + W <= half; j += W) {
    const V xa = simd::load<V>(x + j), xb = simd::load<V>(x + j + half);
    const V vc = simd::load<V>(c + j), vs = simd::load<V>(s + j);
    simd::store<false>(x + j, xa * vc - xb * vs);
    simd::store<false>(x + j + half, xb * vc + xa * vs);
  }
  return j;
}

// Pairs (2j, 2j+1). The SIMD path rotates whole vectors: x' = x c2 + swap(x) s2
// with c2 = (c_j, c_j), s2 = (-s_j, s_j) per pair, the same products and sums.
std::size_t rotate_interleaved_simd(std::size_t i, std::size_t r, const float* c2, const float* s2,
                                    float* x) {
#if SINPE_SIMD
  using V = simd::FloatBatch;
  constexpr std::size_t W = simd::lanes<V>;
  for (; i + W <= r; i += W) {
    const V v = simd::load<V>(x + i);
    simd::store<false>(x + i, v * simd::load<V>(c2 + i) + simd::swap_pairs(v) * simd::load<V>(s2 + i));
  }
#else
  (void)r, (void)c2, (void)s2, (void)x;
#endif
  return i;
}

void rotate_interleaved_scalar(std::size_t i, std::size_t r, const float* c, const float* s, float* x) {
  for (; i < r; i += 2) {
    const float xa = x[i], xb = x[i + 1], cj = c[i / 2], sj = s[i / 2];
    x[i] = xa * cj - xb * sj;
    x[i + 1] = xb * cj + xa * sj;
  }
}

constexpr std::size_t kTokensPerChunk = 64;

}  // namespace

namespace {

// The per-axis state of one multi-axis request: where each axis's pairs go,
// and its recent blocks' anchors (axes_kernel.hpp).
class AxesRows {
 public:
  explicit AxesRows(const detail::RopeData& D) : axes_(std::size_t(D.axes)) {
    thread_local std::vector<detail::AxisTarget> targets;
    thread_local std::vector<detail::AxisBlocks> blocks;
    targets.resize(axes_);
    if (blocks.size() < axes_) blocks.resize(axes_);
    for (std::size_t a = 0; a < axes_; ++a) {
      const std::vector<std::size_t>& pairs = D.axis_pairs[a];
      bool consecutive = true;
      for (std::size_t q = 0; q < pairs.size(); ++q) consecutive = consecutive && pairs[q] == pairs[0] + q;
      const detail::PlanData& P = D.axis_rows[a].data();
      targets[a] = {&P, pairs.data(), pairs.size(), consecutive, pairs.empty() ? 0 : pairs[0]};
      blocks[a].reset(P);
    }
    targets_ = targets.data();
    blocks_ = blocks.data();
    half_ = std::size_t(D.rotary_dim / 2);
  }

  // Cache rows of tokens [0, n) (positions token-major) into cos and sin.
  void operator()(const double* positions, std::size_t n, float* cos, float* sin, bool simd) const {
    detail::axes_cache_rows(targets_, blocks_, axes_, positions, n, half_, cos, sin, simd);
  }

 private:
  std::size_t axes_, half_ = 0;
  const detail::AxisTarget* targets_ = nullptr;
  detail::AxisBlocks* blocks_ = nullptr;
};

// Rotates n tokens of x; fill(t0, tokens, cos, sin) makes the cache rows of
// tokens [t0, t0 + tokens).
template <class Fill>
void rotate(const RopePlan& plan, RopeLayout layout, int head_dim, std::size_t n, std::size_t num_heads,
            float* x, bool simd, Fill fill) {
  const std::size_t r = std::size_t(plan.rotary_dim()), half = r / 2, hd = std::size_t(head_dim);
  thread_local std::vector<float> cos, sin, c2, s2;
  cos.resize(kTokensPerChunk * half);
  sin.resize(kTokensPerChunk * half);
  c2.resize(r);
  s2.resize(r);
  for (std::size_t t0 = 0; t0 < n; t0 += kTokensPerChunk) {
    const std::size_t tokens = std::min(kTokensPerChunk, n - t0);
    fill(t0, tokens, cos.data(), sin.data());
    for (std::size_t t = 0; t < tokens; ++t) {
      const float* c = cos.data() + t * half;
      const float* s = sin.data() + t * half;
      float* token = x + (t0 + t) * num_heads * hd;
      if (layout == RopeLayout::half) {
        for (std::size_t h = 0; h < num_heads; ++h) {
          float* v = token + h * hd;
          std::size_t j = 0;
          if (simd) j = rotate_half<simd::FloatBatch>(j, half, c, s, v);
          rotate_half<float>(j, half, c, s, v);
        }
      } else {
        if (simd)
          for (std::size_t j = 0; j < half; ++j) {
            c2[2 * j] = c2[2 * j + 1] = c[j];
            s2[2 * j] = -s[j];
            s2[2 * j + 1] = s[j];
          }
        for (std::size_t h = 0; h < num_heads; ++h) {
          float* v = token + h * hd;
          const std::size_t i = simd ? rotate_interleaved_simd(0, r, c2.data(), s2.data(), v) : 0;
          rotate_interleaved_scalar(i, r, c, s, v);
        }
      }
    }
  }
}

// The checks apply_rope and apply_rope_axes share, before anything is read.
Status check_apply(const RopePlan& plan, RopeLayout layout, int head_dim, std::size_t n,
                   std::size_t num_heads) {
  if (!plan.valid()) return Status::invalid_plan;
  if (int(layout) < 0 || int(layout) > int(RopeLayout::interleaved)) return Status::bad_rope_layout;
  if (Status s = check_head_dim(plan, head_dim); s != Status::ok) return s;
  if (num_heads != 0 && n > kMaxElements / num_heads / std::size_t(head_dim)) return Status::too_large;
  return Status::ok;
}

}  // namespace

Status apply_rope(const RopePlan& plan, RopeLayout layout, int head_dim, const double* positions,
                  std::size_t n, std::size_t num_heads, float* x, Path path) {
  if (Status s = check_apply(plan, layout, head_dim, n, num_heads); s != Status::ok) return s;
  if (n == 0 || num_heads == 0) return Status::ok;
  if (positions == nullptr || x == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n, nullptr); s != Status::ok) return s;
  const detail::PlanData& P = plan.rows_plan().data();
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const bool simd = path == Path::best && simd_compiled();
  detail::Work& w = detail::Work::get(P.freq.size());
  rotate(plan, layout, head_dim, n, num_heads, x, simd,
         [&](std::size_t t0, std::size_t tokens, float* cos, float* sin) {
           detail::positions_into(P, positions + t0, tokens, split_rows(cos, sin, half), w, simd);
         });
  return Status::ok;
}

Status rope_cache_axes(const RopePlan& plan, const double* positions, std::size_t n, float* cos, float* sin,
                       Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() == 1) return rope_cache(plan, positions, n, cos, sin, path);
  const std::size_t half = std::size_t(plan.rotary_dim() / 2), axes = std::size_t(plan.axes());
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n * axes, nullptr); s != Status::ok) return s;
  const AxesRows rows(*plan.data());
  rows(positions, n, cos, sin, path == Path::best && simd_compiled());
  return Status::ok;
}

Status apply_rope_axes(const RopePlan& plan, RopeLayout layout, int head_dim, const double* positions,
                       std::size_t n, std::size_t num_heads, float* x, Path path) {
  if (Status s = check_apply(plan, layout, head_dim, n, num_heads); s != Status::ok) return s;
  if (plan.axes() == 1) return apply_rope(plan, layout, head_dim, positions, n, num_heads, x, path);
  if (n == 0 || num_heads == 0) return Status::ok;
  if (positions == nullptr || x == nullptr) return Status::null_pointer;
  const std::size_t axes = std::size_t(plan.axes());
  if (Status s = check_positions(positions, n * axes, nullptr); s != Status::ok) return s;
  const bool simd = path == Path::best && simd_compiled();
  const AxesRows rows(*plan.data());
  rotate(plan, layout, head_dim, n, num_heads, x, simd,
         [&](std::size_t t0, std::size_t tokens, float* cos, float* sin) {
           rows(positions + t0 * axes, tokens, cos, sin, simd);
         });
  return Status::ok;
}

namespace {

// Cache rows of tokens [0, n) of a multi-axis plan in half precision: per
// axis, the rounded rows of its pairs' frequencies, scattered to their pairs.
void axes_half_rows(const detail::RopeData& D, const double* positions, std::size_t n, Dtype dtype,
                    std::uint16_t* cos, std::uint16_t* sin, bool simd) {
  const std::size_t axes = std::size_t(D.axes), half = std::size_t(D.rotary_dim / 2);
  constexpr std::size_t kChunk = 64;
  std::vector<double> p(kChunk);
  for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
    const std::size_t m = std::min(kChunk, n - i0);
    for (std::size_t a = 0; a < axes; ++a) {
      const detail::PlanData& P = D.axis_rows[a].data();
      const std::vector<std::size_t>& pairs = D.axis_pairs[a];
      const std::size_t k = pairs.size();
      for (std::size_t i = 0; i < m; ++i) p[i] = positions[(i0 + i) * axes + a];
      const auto store = [&](std::size_t i, std::size_t c, std::uint16_t v) {
        const std::size_t row = (i0 + i) * half;
        if (c < k) sin[row + pairs[c]] = v;
        else cos[row + pairs[c - k]] = v;
      };
      detail::Work& work = detail::Work::get(P.freq.size());
      if (dtype == Dtype::float16)
        detail::half_rows<detail::round_float16>(P, p.data(), m, work, simd, store);
      else detail::half_rows<detail::round_bfloat16>(P, p.data(), m, work, simd, store);
    }
  }
}

// The checks of a range of grid patches.
Status check_grid_range(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                        std::size_t count) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() != 2) return Status::axes_mismatch;
  // Every row and column index is a position below 2^24.
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  if (width != 0 && height > kMaxElements / width) return Status::too_large;
  const std::size_t n = height * width;
  if (first > n || count > n - first) return Status::bad_count;
  return check_elements(count, std::size_t(plan.rotary_dim() / 2));
}

// Calls fill(patch positions, patches, patch offset) for patches [first,
// first + count), in chunks: (row, column) per patch, row-major.
template <class Fill>
void grid_chunks(std::size_t width, std::size_t first, std::size_t count, Fill fill) {
  constexpr std::size_t kChunk = 4096;
  std::vector<double> p(2 * std::min(count, kChunk));
  for (std::size_t m0 = 0; m0 < count; m0 += kChunk) {
    const std::size_t m = std::min(kChunk, count - m0);
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t patch = first + m0 + i;
      p[2 * i] = double(patch / width);
      p[2 * i + 1] = double(patch % width);
    }
    fill(p.data(), m, m0);
  }
}

}  // namespace

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                       std::size_t count, float* cos, float* sin, Path path) {
  if (Status s = check_grid_range(plan, height, width, first, count); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const AxesRows rows(*plan.data());
  const bool simd = path == Path::best && simd_compiled();
  grid_chunks(width, first, count, [&](const double* p, std::size_t m, std::size_t m0) {
    rows(p, m, cos + m0 * half, sin + m0 * half, simd);
  });
  return Status::ok;
}

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, float* cos, float* sin,
                       Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() != 2) return Status::axes_mismatch;
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  if (width != 0 && height > kMaxElements / width) return Status::too_large;
  return rope_cache_grid(plan, height, width, 0, height * width, cos, sin, path);
}

Status rope_cache_axes(const RopePlan& plan, const double* positions, std::size_t n, Dtype dtype,
                       std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() == 1) return rope_cache(plan, positions, n, dtype, cos, sin, path);
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2), axes = std::size_t(plan.axes());
  if (Status s = check_elements(n, half); s != Status::ok) return s;
  if (n == 0) return Status::ok;
  if (positions == nullptr || cos == nullptr || sin == nullptr) return Status::null_pointer;
  if (Status s = check_positions(positions, n * axes, nullptr); s != Status::ok) return s;
  axes_half_rows(*plan.data(), positions, n, dtype, cos, sin, path == Path::best);
  return Status::ok;
}

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, std::size_t first,
                       std::size_t count, Dtype dtype, std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (Status s = check_grid_range(plan, height, width, first, count); s != Status::ok) return s;
  if (Status s = check_half(plan, dtype); s != Status::ok) return s;
  if (count == 0) return Status::ok;
  if (cos == nullptr || sin == nullptr) return Status::null_pointer;
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  grid_chunks(width, first, count, [&](const double* p, std::size_t m, std::size_t m0) {
    axes_half_rows(*plan.data(), p, m, dtype, cos + m0 * half, sin + m0 * half, path == Path::best);
  });
  return Status::ok;
}

Status rope_cache_grid(const RopePlan& plan, std::size_t height, std::size_t width, Dtype dtype,
                       std::uint16_t* cos, std::uint16_t* sin, Path path) {
  if (!plan.valid()) return Status::invalid_plan;
  if (plan.axes() != 2) return Status::axes_mismatch;
  if (height > std::size_t(kMaxAbsPosition) || width > std::size_t(kMaxAbsPosition)) return Status::bad_count;
  if (width != 0 && height > kMaxElements / width) return Status::too_large;
  return rope_cache_grid(plan, height, width, 0, height * width, dtype, cos, sin, path);
}

}  // namespace sinpe
