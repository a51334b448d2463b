// The binding's glue: everything the JS layer calls, in plain numbers. Values
// cross in memory shared with JS (option slots, scratch buffers at fixed
// addresses); results are JS-owned arrays, filled chunk by chunk from the
// scratch by the JS layer (js/engine.js). The glue converts arguments (size
// guards before every double -> integer conversion) and calls the core, which
// validates everything else.
#pragma once

#include <string>

namespace sinpe::glue {

// Addresses (byte offsets into wasm memory) and sizes of the shared buffers.
double option_values_address();  // double[option count]: each option's value (array options: its length)
double option_given_address();   // double[option count]: 1 where the option was given
double numbers_address(int option, double length);  // double[length] for an array option, or 0 if too long
double scratch_address();                           // float[scratch_floats()]: results, in-place data
double scratch_floats();
double positions_address();  // double[positions_capacity()]
double positions_capacity();
double lut_address();     // uint8[1024]: a heatmap's RGBA colormap
double result_address();  // double[4]: the bad position's index, attention factor, ...

// Plans. kind: 0 rows, 1 grid2d, 2 rope. family: preset or rope type index;
// layout: -1 (the preset's own) or a layout index. Options come from the
// option slots. Returns a handle (>= 0) or -status. Handle 0 is the plan of
// the last plan() call; prepare() returns a handle owned until release().
int plan(int kind, int family, int layout, double width);
int prepare(int kind, int family, int layout, double width);
void release(int handle);

// Checks of a whole request, run before its first chunk; statuses.
int check_rows(int handle, double start, double count);
int check_positions(double count);  // positions scratch; index of a bad one in result[0]
int check_grid(int handle, double height, double width, bool cls_token);
int check_heatmap(int handle, double start, double count, double col0, double cols, double vmin, double vmax);
int check_rope(int handle, int layout, double head_dim);

// Chunks: results in the scratch. Callers keep each chunk within the scratch.
int rows(int handle, double start, double count);
int add_rows(int handle, double start, double count);
int encode(int handle, double count);
int grid2d(int handle, double height, double width, bool cls_token, double first, double count);
int heatmap(int handle, double start, double count, double col0, double cols, double vmin, double vmax);
// cos rows then sin rows, count*r/2 floats each.
int rope_cache_rows(int handle, double start, double count);
int rope_cache(int handle, double count);
int rope_apply(int handle, int layout, double head_dim, double count, double num_heads);

// A plan's float64 frequencies, copied to the scratch (as doubles); returns their count.
int frequencies(int handle);
double attention_factor(int handle);
int width(int handle);  // dModel, or rotaryDim

std::string flavour();
std::string version();

}  // namespace sinpe::glue
