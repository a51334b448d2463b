// sinpe: sinusoidal positional encodings, generated on demand.
//
// Pure C++17, no JavaScript or Emscripten in here. Every value is the float64
// evaluation of its preset's formula rounded to float32, to within 2.5e-7
// (absolute) for |position| < 2^24 and dModel <= 65536. Functions write into
// caller memory and report a Status; on any non-ok status nothing is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace sinpe {

// Every failure names the argument at fault, so the JS layer can say which.
enum class Status : int {
  ok = 0,
  bad_preset = 1,
  bad_layout = 2,
  d_model_out_of_range = 3,     // dModel < 1 or > kMaxDModel
  d_model_odd = 4,              // this preset (or 2-D axis split) needs an even dModel
  d_model_not_multiple_of_4 = 5,// mae / grid2d with a preset that needs even axis width
  d_model_too_small = 6,        // formula divides by zero (fairseq/whisper d<4, diffusers h<=freqShift)
  bad_base = 7,
  bad_min_timescale = 8,
  bad_max_timescale = 9,
  bad_freq_shift = 10,
  bad_scale = 11,
  bad_max_period = 12,
  bad_padding_idx = 13,
  bad_count = 14,               // row count, height or width not a non-negative integer
  bad_start = 15,               // start not an integer in range
  position_not_finite = 16,
  position_out_of_range = 17,   // |position| >= 2^24
  too_large = 18,               // result would exceed kMaxElements
  bad_buffer = 19,              // null or wrongly sized buffer
  bad_column_window = 20,       // heatmap column window outside [0, dModel)
  bad_value_range = 21,         // heatmap vmin >= vmax or not finite
};

const char* status_name(Status s) noexcept;

enum class Preset : int {
  vaswani = 0,
  keras = 1,
  tensor2tensor = 2,
  fairseq = 3,
  whisper = 4,
  diffusers = 5,
  guided_diffusion = 6,
  mae = 7,
};
constexpr int kPresetCount = 8;
const char* preset_name(Preset p) noexcept;

// interleaved: column 2k = sin, 2k+1 = cos. concat: sin half then cos half.
// cos_first: cos half then sin half.
enum class Layout : int { preset_default = -1, interleaved = 0, concat = 1, cos_first = 2 };

constexpr int kMaxDModel = 65536;
constexpr double kMaxAbsPosition = 16777216.0;            // 2^24, exclusive
constexpr std::size_t kMaxElements = std::size_t(1) << 29;  // 2 GiB of float32

// Options as a user states them. A NaN numeric field means "the preset's default".
struct Options {
  Preset preset = Preset::vaswani;
  Layout layout = Layout::preset_default;
  double base = kUnset;           // vaswani, keras, mae, fairseq: 10000
  double min_timescale = kUnset;  // tensor2tensor: 1
  double max_timescale = kUnset;  // tensor2tensor, whisper: 10000
  double freq_shift = kUnset;     // diffusers: 1 (downscale_freq_shift)
  double scale = kUnset;          // diffusers: 1 (multiplies the angle)
  double max_period = kUnset;     // diffusers, guided-diffusion: 10000
  double padding_idx = kUnset;    // fairseq: that row is all zeros
  static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
};

// What a column holds when dModel is odd.
enum class OddColumn : int { none = 0, zero = 1, sine = 2 };

// A resolved encoding for one width: frequencies in float64 plus the layout.
// Build once with make_plan, reuse for many calls; a Plan is immutable and
// may be shared between threads.
class Plan {
 public:
  int d_model() const noexcept { return d_model_; }
  int pairs() const noexcept { return pairs_; }  // h: sin/cos column pairs
  Layout layout() const noexcept { return layout_; }
  OddColumn odd_column() const noexcept { return odd_; }
  bool has_padding_row() const noexcept { return has_padding_; }
  double padding_idx() const noexcept { return padding_idx_; }
  // Angular frequencies actually used (scale folded in); size pairs(), plus one
  // more for OddColumn::sine.
  const std::vector<double>& frequencies() const noexcept { return freq_; }
  // Rows the block kernel makes per float64 anchor.
  int block_rows() const noexcept { return block_; }

 private:
  friend Status make_plan(const Options&, int, Plan*);
  friend struct Kernel;
  int d_model_ = 0;
  int pairs_ = 0;
  Layout layout_ = Layout::interleaved;
  OddColumn odd_ = OddColumn::none;
  bool has_padding_ = false;
  double padding_idx_ = 0;
  std::vector<double> freq_;
  // Rotation tables for the block kernel: cos/sin(j*w_k) for j < block_, as
  // float32, laid out [j][k]. block_ == 1 means "no table".
  int block_ = 1;
  std::vector<float> rot_cos_, rot_sin_;
  // cos/sin(block_*w_k) in float64, to step block anchors.
  std::vector<double> step_cos_, step_sin_;
};

Status make_plan(const Options& options, int d_model, Plan* plan);

// Which code path computes the float32 values. Results agree to the contract
// either way; `scalar` exists so the SIMD path can be tested against it.
enum class Path : int { best = 0, scalar = 1 };
bool simd_compiled() noexcept;

// out[r*d + c] = PE(start + r, c) for r < count. `out` holds count*dModel floats.
Status rows(const Plan& plan, double start, std::size_t count, float* out, Path path = Path::best);
// inout[r*d + c] += PE(start + r, c)
Status add_rows(const Plan& plan, double start, std::size_t count, float* inout, Path path = Path::best);
// out[i*d + c] = PE(positions[i], c); any order, fractional allowed.
Status encode(const Plan& plan, const double* positions, std::size_t n, float* out, Path path = Path::best);

// 2-D grid (ViT / MAE): cell m = r*width + c (+1 after a leading zero row when
// cls_token); columns [0, d/2) encode the column coordinate c, [d/2, d) the row r,
// each with the plan's 1-D encoding at width d/2. `axis_plan` must be made for
// width d/2 (see make_grid_plan). Writes cells [first, first+count) of the
// (height*width + cls_token) cells, count*d floats.
Status make_grid_plan(const Options& options, int d_model, Plan* axis_plan);
Status grid2d(const Plan& axis_plan, std::size_t height, std::size_t width, bool cls_token,
              std::size_t first, std::size_t count, float* out, Path path = Path::best);
// The whole grid: (height*width + cls_token) * d floats.
Status grid2d(const Plan& axis_plan, std::size_t height, std::size_t width, bool cls_token,
              float* out, Path path = Path::best);

// Heatmap: RGBA bytes for rows [start, start+count) and columns
// [col0, col0+cols), each value v mapped through a 256-entry RGBA lookup table
// at index round((v - vmin) / (vmax - vmin) * 255), clamped.
Status heatmap(const Plan& plan, double start, std::size_t count, int col0, int cols,
               const std::uint8_t* lut_rgba256, double vmin, double vmax, std::uint8_t* out_rgba,
               Path path = Path::best);

// Checks shared by every entry point, exposed so bindings can validate before
// touching caller memory.
Status check_position(double p) noexcept;
Status check_row_range(double start, std::size_t count) noexcept;
Status check_elements(std::size_t rows, std::size_t d_model) noexcept;

const char* version() noexcept;

}  // namespace sinpe
