// The binding's glue: everything the JS layer calls, in plain numbers. A call's
// options cross as a request block the JS layer writes and the plan call reads
// and clears in the same synchronous step; positions and chunks cross in
// scratch buffers at fixed addresses; results are JS-owned arrays, filled chunk
// by chunk from the scratch by the JS layer (js/engine.js). Nothing a call
// leaves in module memory is read by a later call. The glue converts arguments
// (size guards before every double -> integer conversion) and calls the core,
// which validates everything else.
#pragma once

#include <string>

namespace sinpe::glue {

// Addresses (byte offsets into wasm memory) and sizes of the shared buffers.
// request_address(n): room for a request block of n doubles (0 when n is out
// of range); it may grow memory. A block is the given options only:
//   [entry count, then per entry: option index, value
//                                 (array options: length, values...)]
double request_address(double doubles);
double scratch_address();  // float[scratch_floats()]: results, in-place data
double scratch_floats();
double positions_address();  // double[positions_capacity()]
double positions_capacity();
double lut_address();  // uint8[lut_bytes()]: a heatmap's RGBA colormap
double lut_bytes();
double result_address();  // double[4]: the bad position's index, the bad element of an array option

// Plan kinds, in order ("rows,grid,rope"): the JS layer's names for `kind`.
std::string kind_names();

// Plans. family: preset or rope type index; layout: -1 (the preset's own) or
// a layout index; axes: -1 (none) or a rope-axes index (RoPE only); request_doubles: the length of the
// request block just written at request_address(), which this call reads and clears. Returns a handle (>= 1)
// owned by the caller until release(), or -status. plan() may reuse a cached plan; prepare() makes its own.
// When the status is bad_<an array option>, result[0] is the index of its first element against the option's
// rule (-1: none; the length is wrong) and result[1] that element (else the length).
int plan(int kind, int family, int layout, int axes, double width, double request_doubles);
int prepare(int kind, int family, int layout, int axes, double width, double request_doubles);
void release(int handle);

// Checks of a whole request, run before its first chunk; statuses.
int check_rows(int handle, double start, double count);
int check_positions(double count);  // positions scratch; index of a bad one in result[0]
int check_grid(int handle, double height, double width, bool cls_token);
int check_heatmap(int handle, double start, double count, double col0, double cols, double vmin, double vmax);
int check_rope(int handle, int layout, double head_dim);
int check_rope_grid(int handle, double height, double width);

// Chunks: results in the scratch. Callers keep each chunk within the scratch.
// dtype: a dtype index; float32 results are floats, float16 and bfloat16
// results uint16 bit patterns from the scratch's first byte.
int rows(int handle, double start, double count, int dtype);
int add_rows(int handle, double start, double count);
int encode(int handle, double count, int dtype);
int grid2d(int handle, double height, double width, bool cls_token, double first, double count);
int heatmap(int handle, double start, double count, double col0, double cols, double vmin, double vmax);
// cos rows then sin rows, count*r/2 values each. rope_cache and rope_apply
// read count tokens of axes(handle) positions each from the positions scratch;
// rope_cache_grid makes patches [first, first + count) of a height x width grid.
// recipe: a recipe index (exact, float32; sinpe/rope_recipe.hpp).
int rope_cache_rows(int handle, double start, double count, int dtype, int recipe);
int rope_cache(int handle, double count, int dtype, int recipe);
int rope_cache_grid(int handle, double height, double width, double first, double count, int dtype,
                    int recipe);
int rope_apply(int handle, int layout, double head_dim, double count, double num_heads);

// A plan's float64 frequencies, copied to the scratch (as doubles); returns their count.
int frequencies(int handle);
double attention_factor(int handle);
int axes(int handle);  // position axes per token of a RoPE plan
// Whether v follows the rule of option `option` (an index into vocabulary.def's
// options): 1 or 0; -1 for an index that is no option's. The JS layer asks
// this of a value it must use before any plan (a config's
// partial_rotary_factor) instead of restating the rule.
int follows_rule(int option, double v);

std::string version();

}  // namespace sinpe::glue
