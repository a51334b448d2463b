// An independent float64 reference: each preset's formula written out the way
// its library writes it, one value at a time, with no code shared with the core.
#pragma once
#include <string>
#include <vector>

namespace ref {

struct Params {
  std::string preset = "vaswani";
  std::string layout;  // "" = the preset's own
  double base = 10000, min_timescale = 1, max_timescale = 10000;
  double freq_shift = 1, scale = 1, max_period = 10000;
  bool has_padding = false;
  double padding_idx = 0;
};

// One row of width d at position p, in float64.
std::vector<double> row(const Params& prm, int d, double p);
// MAE get_2d_sincos_pos_embed: (h*w [+1]) rows of width d.
std::vector<double> grid2d(const Params& prm, int h, int w, int d, bool cls);

}  // namespace ref
