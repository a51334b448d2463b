// Plan: accessors, and the block kernel's rotation tables built once per plan.
#include <algorithm>
#include <cmath>

#include "plan_data.hpp"

namespace sinpe {

int Plan::d_model() const noexcept { return data_->d_model; }
int Plan::pairs() const noexcept { return data_->pairs; }
Layout Plan::layout() const noexcept { return data_->layout; }
OddColumn Plan::odd_column() const noexcept { return data_->odd; }
bool Plan::has_padding_row() const noexcept { return data_->has_padding; }
double Plan::padding_idx() const noexcept { return data_->padding_idx; }
const std::vector<double>& Plan::frequencies() const noexcept { return data_->freq; }
int Plan::block_rows() const noexcept { return data_->block; }

namespace detail {

namespace {
// The rotation tables make a block of rows cost two multiplies and one add per
// value; their size is capped so they stay in cache next to the output.
constexpr int kMaxBlock = 64;
constexpr std::size_t kTableBudget = 16384;  // block * frequencies
}  // namespace

Plan finish_plan(PlanData p) {
  const std::size_t nf = p.freq.size();
  p.block = nf == 0 ? kMaxBlock : int(std::min<std::size_t>(kMaxBlock, kTableBudget / nf));
  if (p.block < 4) p.block = 1;  // wide rows: step float64 anchors row by row instead
  p.rot_cos.assign(std::size_t(p.block) * nf, 0.f);
  p.rot_sin.assign(std::size_t(p.block) * nf, 0.f);
  p.rot64_cos.assign(std::size_t(p.block) * nf, 0.0);
  p.rot64_sin.assign(std::size_t(p.block) * nf, 0.0);
  p.step_cos.resize(nf);
  p.step_sin.resize(nf);
  for (std::size_t k = 0; k < nf; ++k) {
    // cos/sin(j w) for j < block by a float64 rotation recurrence: after 64
    // steps its error is ~1e-14, far below float32 rounding.
    const double c1 = std::cos(p.freq[k]), s1 = std::sin(p.freq[k]);
    double c = 1.0, s = 0.0;
    for (int j = 0; j < p.block; ++j) {
      p.rot_cos[std::size_t(j) * nf + k] = float(c);
      p.rot_sin[std::size_t(j) * nf + k] = float(s);
      p.rot64_cos[std::size_t(j) * nf + k] = c;
      p.rot64_sin[std::size_t(j) * nf + k] = s;
      const double cn = c * c1 - s * s1;
      s = s * c1 + c * s1;
      c = cn;
    }
    p.step_cos[k] = std::cos(double(p.block) * p.freq[k]);
    p.step_sin[k] = std::sin(double(p.block) * p.freq[k]);
  }
  return Plan(std::make_shared<const PlanData>(std::move(p)));
}

}  // namespace detail
}  // namespace sinpe
