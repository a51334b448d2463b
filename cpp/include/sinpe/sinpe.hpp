// sinpe: sinusoidal positional encodings, generated on demand.
//
// Pure C++17, no JavaScript or Emscripten in here. Every value is the float64
// evaluation of its preset's formula rounded to float32, to within 2.5e-7
// (absolute) for |position| < 2^24 and dModel <= 65536. Functions write into
// caller memory and report a Status; on any non-ok status nothing is written.
//
// The names below (statuses, presets, layouts, options, limits) are generated
// from vocabulary.def, their one definition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace sinpe {

// ---- limits -------------------------------------------------------------------
namespace limits {
#define SINPE_LIMIT(id, type, value, doc) constexpr type id = value;
#include "sinpe/vocabulary.def"
}  // namespace limits
constexpr int kMaxDModel = limits::max_d_model;
constexpr double kMaxAbsPosition = limits::max_abs_position;  // exclusive
constexpr std::size_t kMaxElements = std::size_t(limits::max_elements);

// ---- statuses -----------------------------------------------------------------
// Every failure names the argument at fault (see vocabulary.def for each one's
// argument and message), so the JS layer can say which.
enum class Status : int {
#define SINPE_STATUS(id, error, argument, message) id,
#include "sinpe/vocabulary.def"
#define SINPE_OPTION(id, name, type, rule, config_key, doc) bad_##id, id##_not_read, id##_missing,
#include "sinpe/vocabulary.def"
};
const char* status_name(Status s) noexcept;

// ---- presets, rope types, layouts, options -------------------------------------
enum class Preset : int {
#define SINPE_PRESET(id, name, layout, ...) id,
#include "sinpe/vocabulary.def"
};
enum class RopeType : int {
#define SINPE_ROPE_TYPE(id, name, ...) id,
#include "sinpe/vocabulary.def"
};
// preset_default: the preset's own layout.
enum class Layout : int {
  preset_default = -1,
#define SINPE_LAYOUT(id, name) id,
#include "sinpe/vocabulary.def"
};
enum class RopeLayout : int {
#define SINPE_ROPE_LAYOUT(id, name) id,
#include "sinpe/vocabulary.def"
};
// How a multi-axis RoPE maps position axes to rotary pairs (vocabulary.def);
// none: one position per token, unless mropeSection is given (sectioned).
enum class RopeAxes : int {
  none = -1,
#define SINPE_ROPE_AXES(id, name) id,
#include "sinpe/vocabulary.def"
};
// The element type of a result (Output, CacheOut): float32 (float*), or
// float16 / bfloat16 bit patterns (std::uint16_t*), each the float64 value
// rounded once to nearest-even.
enum class Dtype : int {
#define SINPE_DTYPE(id, name, bytes) id,
#include "sinpe/vocabulary.def"
};
// How a RoPE cache is computed (sinpe/rope_recipe.hpp): exact, or PyTorch's float32 steps.
enum class Recipe : int {
#define SINPE_RECIPE(id, name) id,
#include "sinpe/vocabulary.def"
};
enum class Option : int {
#define SINPE_OPTION(id, name, type, rule, config_key, doc) id,
#include "sinpe/vocabulary.def"
};

constexpr int kPresetCount = 0
#define SINPE_PRESET(id, name, layout, ...) +1
#include "sinpe/vocabulary.def"
    ;
constexpr int kRopeTypeCount = 0
#define SINPE_ROPE_TYPE(id, name, ...) +1
#include "sinpe/vocabulary.def"
    ;
constexpr int kLayoutCount = 0
#define SINPE_LAYOUT(id, name) +1
#include "sinpe/vocabulary.def"
    ;
constexpr int kRopeAxesCount = 0
#define SINPE_ROPE_AXES(id, name) +1
#include "sinpe/vocabulary.def"
    ;
constexpr int kDtypeCount = 0
#define SINPE_DTYPE(id, name, bytes) +1
#include "sinpe/vocabulary.def"
    ;
constexpr int kRecipeCount = 0
#define SINPE_RECIPE(id, name) +1
#include "sinpe/vocabulary.def"
    ;
constexpr int kOptionCount = 0
#define SINPE_OPTION(id, name, type, rule, config_key, doc) +1
#include "sinpe/vocabulary.def"
    ;

const char* preset_name(Preset p) noexcept;
const char* rope_type_name(RopeType t) noexcept;
const char* layout_name(Layout l) noexcept;
const char* rope_layout_name(RopeLayout l) noexcept;
const char* option_name(Option o) noexcept;  // the JS name, e.g. "maxTimescale"
const char* dtype_name(Dtype t) noexcept;
const char* recipe_name(Recipe r) noexcept;
const char* rope_axes_name(RopeAxes a) noexcept;

// One float64 value as an IEEE binary16 / bfloat16 bit pattern, rounded once
// to nearest, ties to even: subnormals kept, infinity only past the largest
// finite value after rounding, NaN only from NaN.
std::uint16_t round_to_float16(double v) noexcept;
std::uint16_t round_to_bfloat16(double v) noexcept;

// Options as a user states them: an empty optional is "absent" (the formula's
// default, where it has one). A preset or rope type refuses an option its
// formula does not read (Status <option>_not_read), so nothing is silently
// ignored.
using NumberOption = std::optional<double>;
using BooleanOption = std::optional<bool>;
using NumbersOption = std::optional<std::vector<double>>;
struct Options {
  Preset preset = Preset::vaswani;          // read by make_plan / make_grid_plan
  RopeType rope_type = RopeType::standard;  // read by make_rope_plan
  Layout layout = Layout::preset_default;   // sinusoidal presets only
  RopeAxes rope_axes = RopeAxes::none;      // read by make_rope_plan
#define SINPE_OPTION(id, name, type, rule, config_key, doc) SINPE_OPTION_TYPE_##type id;
#define SINPE_OPTION_TYPE_number NumberOption
#define SINPE_OPTION_TYPE_boolean BooleanOption
#define SINPE_OPTION_TYPE_numberArray NumbersOption
#include "sinpe/vocabulary.def"
#undef SINPE_OPTION_TYPE_number
#undef SINPE_OPTION_TYPE_boolean
#undef SINPE_OPTION_TYPE_numberArray

  bool operator==(const Options& o) const;
  bool operator!=(const Options& o) const { return !(*this == o); }
};

// The status a plan gives an option whose given value breaks its rule
// (Status::bad_<option>).
Status bad_option_status(Option o) noexcept;
// Whether `v` follows option `o`'s rule (vocabulary.def's rule column: the
// value a plan would accept for a number option, or for each element of an
// array option).
bool option_value_follows_rule(Option o, double v) noexcept;
// Where a plan's refusal `s` lies in an array option of `o`: when s is
// bad_<option> of an array option given in `o`, true, with *index the first
// element against that option's rule and *value that element, or *index = -1
// and *value the array's length when every element follows the rule (the
// length is wrong); false (nothing written) for any other status.
bool find_bad_element(const Options& o, Status s, std::ptrdiff_t* index, double* value) noexcept;

// What a column holds when dModel is odd.
enum class OddColumn : int { none = 0, zero = 1, sine = 2 };

namespace detail {
struct PlanData;  // the kernel's tables: cpp/src/plan_data.hpp
}

// A resolved encoding for one width: frequencies in float64 plus the layout.
// Build once with make_plan, reuse for many calls; a Plan is immutable, cheap
// to copy and may be shared between threads.
class Plan {
 public:
  int d_model() const noexcept;
  int pairs() const noexcept;  // h: sin/cos column pairs
  Layout layout() const noexcept;
  OddColumn odd_column() const noexcept;
  bool has_padding_row() const noexcept;
  double padding_idx() const noexcept;
  // Angular frequencies actually used (scale folded in); size pairs(), plus one
  // more for OddColumn::sine.
  const std::vector<double>& frequencies() const noexcept;
  // Rows the block kernel makes per float64 anchor.
  int block_rows() const noexcept;
  bool valid() const noexcept { return data_ != nullptr; }

  const detail::PlanData& data() const noexcept { return *data_; }
  explicit Plan(std::shared_ptr<const detail::PlanData> data) : data_(std::move(data)) {}
  Plan() = default;

 private:
  std::shared_ptr<const detail::PlanData> data_;
};

// Status::ok and *plan set, or an error naming the option or dModel.
Status make_plan(const Options& options, int d_model, Plan* plan);

// Which code path computes the float32 values. Results agree to the contract
// either way; `scalar` exists so the SIMD path can be tested against it.
enum class Path : int { best = 0, scalar = 1 };
bool simd_compiled() noexcept;

// Where a result goes: `data` holds its values as `dtype`'s elements, float
// for float32, std::uint16_t bit patterns for float16 and bfloat16, each value
// its float64 value rounded once to nearest-even. A dtype outside the
// vocabulary: Status::bad_dtype; a null `data` when there is anything to
// write: Status::null_pointer.
struct Output {
  Dtype dtype = Dtype::float32;
  void* data = nullptr;
};

// out[r*d + c] = PE(start + r, c) for r < count: count*dModel elements.
Status rows(const Plan& plan, double start, std::size_t count, const Output& out, Path path = Path::best);
// out[i*d + c] = PE(positions[i], c); any order, fractional allowed.
Status encode(const Plan& plan, const double* positions, std::size_t n, const Output& out,
              Path path = Path::best);
// The same as float32, into floats.
inline Status rows(const Plan& plan, double start, std::size_t count, float* out, Path path = Path::best) {
  return rows(plan, start, count, Output{Dtype::float32, out}, path);
}
inline Status encode(const Plan& plan, const double* positions, std::size_t n, float* out,
                     Path path = Path::best) {
  return encode(plan, positions, n, Output{Dtype::float32, out}, path);
}
// inout[r*d + c] += PE(start + r, c), float32 products (within the contract,
// not rounded once).
Status add_rows(const Plan& plan, double start, std::size_t count, float* inout, Path path = Path::best);

// 2-D grid (ViT / MAE): cell m = r*width + c (+1 after a leading zero row when
// cls_token); columns [0, d/2) encode the column coordinate c, [d/2, d) the row r,
// each with the plan's 1-D encoding at width d/2. `axis_plan` must be made for
// width d/2 (see make_grid_plan). Writes cells [first, first+count) of the
// (height*width + cls_token) cells, count*d floats.
Status make_grid_plan(const Options& options, int d_model, Plan* axis_plan);
Status grid2d(const Plan& axis_plan, std::size_t height, std::size_t width, bool cls_token, std::size_t first,
              std::size_t count, float* out, Path path = Path::best);
// The whole grid: (height*width + cls_token) * d floats.
Status grid2d(const Plan& axis_plan, std::size_t height, std::size_t width, bool cls_token, float* out,
              Path path = Path::best);

// Heatmap: RGBA bytes for rows [start, start+count) and columns
// [col0, col0+cols), each value v mapped through a 256-entry RGBA lookup table
// at index round((v - vmin) / (vmax - vmin) * 255), clamped; NaN maps to 0.
Status heatmap(const Plan& plan, double start, std::size_t count, int col0, int cols,
               const std::uint8_t* lut_rgba256, double vmin, double vmax, std::uint8_t* out_rgba,
               Path path = Path::best);

// Argument checks shared by every entry point. A caller that works in chunks
// (the bindings) runs them once over the whole request before the first
// chunk, so that an error leaves the output untouched.
Status check_position(double p) noexcept;
// The first bad position's status, with its index in *bad_index.
Status check_positions(const double* positions, std::size_t n, std::size_t* bad_index) noexcept;
Status check_row_range(double start, std::size_t count) noexcept;
Status check_elements(std::size_t rows, std::size_t width) noexcept;
Status check_column_window(const Plan& plan, int col0, int cols) noexcept;
Status check_value_range(double vmin, double vmax) noexcept;

const char* version() noexcept;

}  // namespace sinpe
