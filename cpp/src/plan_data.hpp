// What a Plan holds: the frequencies and layout, and the block kernel's
// rotation tables. Internal to the core (kernel.cpp, presets.cpp, rope_*.cpp).
#pragma once

#include <memory>
#include <vector>

#include "sinpe/sinpe.hpp"

namespace sinpe::detail {

struct PlanData {
  int d_model = 0;
  int pairs = 0;  // h
  Layout layout = Layout::interleaved;
  OddColumn odd = OddColumn::none;
  bool has_padding = false;
  double padding_idx = 0;
  // Multiplies every value; applied to the float64 anchors before their one
  // rounding (RoPE's attention factor; 1 for the sinusoidal presets).
  double amplitude = 1.0;
  std::vector<double> freq;
  // cos/sin(j*w_k) for j < block, as float32, laid out [j][k]. block == 1 means
  // "no table": rows are anchored one by one.
  int block = 1;
  std::vector<float> rot_cos, rot_sin;
  // The same cos/sin(j*w_k) in float64, before their rounding, laid out
  // [j][k] (float32 output rounded once: rounded_kernel.hpp's exact_rows_into).
  std::vector<double> rot64_cos, rot64_sin;
  // cos/sin(block*w_k) in float64, to step block anchors.
  std::vector<double> step_cos, step_sin;
};

// Fills in the tables of `data` (freq set) and wraps it as a Plan.
Plan finish_plan(PlanData data);

}  // namespace sinpe::detail
