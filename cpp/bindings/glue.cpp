#include "glue.hpp"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "sinpe/plan_cache.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/rope_recipe.hpp"
#include "sinpe/sinpe.hpp"

namespace sinpe::glue {

namespace {

// 1 MiB of results per chunk: it stays in L2 between the kernel and the copy out.
constexpr std::size_t kScratchFloats = std::size_t(1) << 18;
constexpr std::size_t kPositionChunk = 4096;

// A call's request block (see glue.hpp), cleared by the plan call that reads it.
std::vector<double> g_request(1);
std::vector<float> g_scratch(kScratchFloats);
std::vector<double> g_positions(kPositionChunk);
constexpr std::size_t kLutBytes = 1024;  // 256 RGBA entries: the core's colormap
std::uint8_t g_lut[kLutBytes];
double g_result[4];

double address(const void* p) { return double(reinterpret_cast<std::uintptr_t>(p)); }

Status as_status(int s) { return Status(s); }
int code(Status s) { return int(s); }

// A JS number as an integer of the target type, or false.
template <class T>
bool to_integer(double v, T lo, T hi, T* out) {
  if (!(v >= double(lo) && v <= double(hi)) || v != std::floor(v)) return false;
  *out = T(v);
  return true;
}

enum Kind { kRows = 0, kGrid = 1, kRope = 2 };

struct Entry {
  bool used = false;
  int kind = kRows;
  Plan plan;
  RopePlan rope;
};
std::vector<Entry> g_handles(1);  // handle 0 is never used
PlanCache g_cache;

// The options of a request block of `doubles` doubles, for a preset (or rope
// type) and layout: ok, bad_request when the block is malformed, or, for an
// array option longer than any plan reads (kMaxDModel values: the JS layer
// sends its length only, up to any length a JS array can have), that
// option's own status (mrope_section_sum for mropeSection, whose limit is the
// axes', else bad_<option>) with g_result = (-1, its length).
constexpr std::size_t kMaxArrayLength = 4294967295u;  // 2^32 - 1: the longest JS array
Status read_request(int kind, int family, int layout, int axes, std::size_t doubles, Options* out) {
  Options o;
  if (kind == kRope) o.rope_type = RopeType(family);
  else o.preset = Preset(family);
  o.layout = Layout(layout);
  o.rope_axes = RopeAxes(axes);
  const double* b = g_request.data();
  std::size_t at = 1, entries = 0;
  if (doubles < 1 || doubles > g_request.size() || !to_integer<std::size_t>(b[0], 0, kOptionCount, &entries))
    return Status::bad_request;
  Status too_long = Status::ok;
  for (std::size_t k = 0; k < entries; ++k) {
    int id = 0;
    if (at + 2 > doubles || !to_integer(b[at], 0, kOptionCount - 1, &id)) return Status::bad_request;
    const double v = b[at + 1];
    at += 2;
    int i = 0;
    bool ok = true;
    const auto number = [&](NumberOption& f) {
      if (i == id) ok = !f.has_value(), f = v;
    };
    const auto boolean = [&](BooleanOption& f) {
      if (i == id) ok = !f.has_value() && (v == 0 || v == 1), f = v != 0;
    };
    const auto numberArray = [&](NumbersOption& f) {
      if (i != id) return;
      std::size_t n = 0;
      if (!f.has_value() && to_integer<std::size_t>(v, std::size_t(kMaxDModel) + 1, kMaxArrayLength, &n)) {
        // Too long for any plan: its own status (the first such option's),
        // its elements neither sent nor read.
        if (too_long == Status::ok) {
          too_long =
              Option(id) == Option::mrope_section ? Status::mrope_section_sum : bad_option_status(Option(id));
          g_result[0] = -1;
          g_result[1] = double(n);
        }
        return;
      }
      ok = !f.has_value() && to_integer<std::size_t>(v, 0, kMaxDModel, &n) && at + n <= doubles;
      if (ok) f = std::vector<double>(b + at, b + at + n), at += n;
    };
#define SINPE_OPTION(id, name, type, rule, config_key, doc) \
  type(o.id); \
  ++i;
#include "sinpe/vocabulary.def"
    if (!ok) return Status::bad_request;
  }
  if (at != doubles) return Status::bad_request;
  if (too_long != Status::ok) return too_long;
  *out = std::move(o);
  return Status::ok;
}

// Where an array option's value breaks its rule (find_bad_element), else (-1, 0).
void locate_bad_element(const Options& o, Status s) {
  std::ptrdiff_t index = -1;
  double value = 0;
  find_bad_element(o, s, &index, &value);
  g_result[0] = double(index);
  g_result[1] = value;
}

Status make(int kind, int family, int layout, int axes, double width, double request_doubles, Entry* e,
            bool cached) {
  Options o;
  std::size_t doubles = 0;
  const Status read = to_integer<std::size_t>(request_doubles, 1, g_request.size(), &doubles) &&
                              kind >= kRows && kind <= kRope
                          ? read_request(kind, family, layout, axes, doubles, &o)
                          : Status::bad_request;
  g_request[0] = 0;  // consumed: a later call finds no options of this one
  if (read != Status::ok) return read;
  int w = 0;
  const Status bad_width = kind == kRope ? Status::bad_rotary_dim : Status::d_model_out_of_range;
  if (!to_integer(width, -1, kMaxDModel + 1, &w)) return bad_width;
  e->kind = kind;
  e->used = true;
  Status s;
  if (kind == kRope) s = cached ? g_cache.rope_plan(o, w, &e->rope) : make_rope_plan(o, w, &e->rope);
  else if (kind == kGrid) s = cached ? g_cache.grid_plan(o, w, &e->plan) : make_grid_plan(o, w, &e->plan);
  else s = cached ? g_cache.plan(o, w, &e->plan) : make_plan(o, w, &e->plan);
  if (s != Status::ok) locate_bad_element(o, s);
  return s;
}

const Entry* entry(int handle, int kind) {
  if (handle < 0 || std::size_t(handle) >= g_handles.size()) return nullptr;
  const Entry& e = g_handles[std::size_t(handle)];
  return e.used && e.kind == kind ? &e : nullptr;
}

// Results in the scratch as a dtype index's elements (floats, or uint16 bit
// patterns from its first byte); the core checks the dtype.
Output scratch_out(int dtype) { return {Dtype(dtype), g_scratch.data()}; }

// count (and start) as the core takes them.
bool count_arg(double count, std::size_t* n) {
  return to_integer<std::size_t>(count, 0, std::size_t(kMaxElements), n);
}

}  // namespace

double request_address(double doubles) {
  // Every option given, each array option at its longest.
  constexpr std::size_t kMost = 1 + 2 * std::size_t(kOptionCount) * (1 + std::size_t(kMaxDModel));
  std::size_t n = 0;
  if (!to_integer<std::size_t>(doubles, 1, kMost, &n)) return 0;
  if (g_request.size() < n) g_request.resize(n);
  return address(g_request.data());
}
double scratch_address() { return address(g_scratch.data()); }
double scratch_floats() { return double(kScratchFloats); }
double positions_address() { return address(g_positions.data()); }
double positions_capacity() { return double(kPositionChunk); }
double lut_address() { return address(g_lut); }
double lut_bytes() { return double(kLutBytes); }
std::string kind_names() { return "rows,grid,rope"; }
double result_address() { return address(g_result); }

// A free handle for `e`.
int keep(Entry&& e) {
  for (std::size_t h = 1; h < g_handles.size(); ++h)
    if (!g_handles[h].used) {
      g_handles[h] = std::move(e);
      return int(h);
    }
  g_handles.push_back(std::move(e));
  return int(g_handles.size() - 1);
}

int plan(int kind, int family, int layout, int axes, double width, double request_doubles) {
  Entry e;
  if (const Status s = make(kind, family, layout, axes, width, request_doubles, &e, true); s != Status::ok)
    return -code(s);
  return keep(std::move(e));
}

int prepare(int kind, int family, int layout, int axes, double width, double request_doubles) {
  Entry e;
  if (const Status s = make(kind, family, layout, axes, width, request_doubles, &e, false); s != Status::ok)
    return -code(s);
  return keep(std::move(e));
}

void release(int handle) {
  if (handle > 0 && std::size_t(handle) < g_handles.size()) g_handles[std::size_t(handle)] = Entry();
}

// Rows of a sinusoidal plan, or cache rows of a RoPE plan (r/2 values per array).
int check_rows(int handle, double start, double count) {
  const Entry* e = entry(handle, kRows);
  const Entry* rope = e ? nullptr : entry(handle, kRope);
  if (!e && !rope) return code(Status::invalid_plan);
  std::size_t n = 0;
  if (!count_arg(count, &n)) return code(Status::bad_count);
  if (const Status s = check_row_range(start, n); s != Status::ok) return code(s);
  return code(
      check_elements(n, e ? std::size_t(e->plan.d_model()) : std::size_t(rope->rope.rotary_dim() / 2)));
}

int check_positions(double count) {
  std::size_t n = 0, bad = 0;
  if (!to_integer<std::size_t>(count, 0, kPositionChunk, &n)) return code(Status::bad_count);
  const Status s = sinpe::check_positions(g_positions.data(), n, &bad);
  g_result[0] = double(bad);
  return code(s);
}

int check_grid(int handle, double height, double width, bool cls_token) {
  const Entry* e = entry(handle, kGrid);
  if (!e) return code(Status::invalid_plan);
  std::size_t H = 0, W = 0;
  const auto max = std::size_t(kMaxAbsPosition);
  if (!to_integer<std::size_t>(height, 0, max, &H) || !to_integer<std::size_t>(width, 0, max, &W))
    return code(Status::bad_count);
  const std::size_t d = 2 * std::size_t(e->plan.d_model());
  if (W != 0 && H > (kMaxElements / d) / W) return code(Status::too_large);
  return code(check_elements(H * W + (cls_token ? 1 : 0), d));
}

int check_heatmap(int handle, double start, double count, double col0, double cols, double vmin,
                  double vmax) {
  if (const int s = check_rows(handle, start, count); s != 0) return s;
  const Entry* e = entry(handle, kRows);
  int c0 = 0, nc = 0;
  if (!to_integer(col0, -1, kMaxDModel + 1, &c0) || !to_integer(cols, -1, kMaxDModel + 1, &nc))
    return code(Status::bad_column_window);
  if (const Status s = check_column_window(e->plan, c0, nc); s != Status::ok) return code(s);
  return code(check_value_range(vmin, vmax));
}

int check_rope(int handle, int layout, double head_dim) {
  const Entry* e = entry(handle, kRope);
  if (!e) return code(Status::invalid_plan);
  if (layout < 0 || layout > int(RopeLayout::interleaved)) return code(Status::bad_rope_layout);
  int hd = 0;
  if (!to_integer(head_dim, 0, kMaxDModel + 1, &hd)) return code(Status::bad_head_dim);
  return code(check_head_dim(e->rope, hd));
}

int rows(int handle, double start, double count, int dtype) {
  const Entry* e = entry(handle, kRows);
  std::size_t n = 0;
  if (!e) return code(Status::invalid_plan);
  if (!count_arg(count, &n)) return code(Status::bad_chunk);
  if (n > kScratchFloats / std::size_t(e->plan.d_model())) return code(Status::too_large);
  return code(sinpe::rows(e->plan, start, n, scratch_out(dtype)));
}

int add_rows(int handle, double start, double count) {
  const Entry* e = entry(handle, kRows);
  std::size_t n = 0;
  if (!e) return code(Status::invalid_plan);
  if (!count_arg(count, &n)) return code(Status::bad_chunk);
  return code(sinpe::add_rows(e->plan, start, n, g_scratch.data()));
}

int encode(int handle, double count, int dtype) {
  const Entry* e = entry(handle, kRows);
  std::size_t n = 0;
  if (!e) return code(Status::invalid_plan);
  if (!to_integer<std::size_t>(count, 0, kPositionChunk, &n)) return code(Status::bad_chunk);
  if (n > kScratchFloats / std::size_t(e->plan.d_model())) return code(Status::too_large);
  return code(sinpe::encode(e->plan, g_positions.data(), n, scratch_out(dtype)));
}

int grid2d(int handle, double height, double width, bool cls_token, double first, double count) {
  const Entry* e = entry(handle, kGrid);
  std::size_t H = 0, W = 0, f = 0, n = 0;
  const auto max = std::size_t(kMaxAbsPosition);
  if (!e) return code(Status::invalid_plan);
  if (!to_integer<std::size_t>(height, 0, max, &H) || !to_integer<std::size_t>(width, 0, max, &W) ||
      !count_arg(first, &f) || !count_arg(count, &n))
    return code(Status::bad_count);
  return code(sinpe::grid2d(e->plan, H, W, cls_token, f, n, g_scratch.data()));
}

int heatmap(int handle, double start, double count, double col0, double cols, double vmin, double vmax) {
  const Entry* e = entry(handle, kRows);
  std::size_t n = 0;
  int c0 = 0, nc = 0;
  if (!e) return code(Status::invalid_plan);
  if (!count_arg(count, &n) || !to_integer(col0, 0, kMaxDModel, &c0) || !to_integer(cols, 0, kMaxDModel, &nc))
    return code(Status::bad_chunk);
  return code(sinpe::heatmap(e->plan, start, n, c0, nc, g_lut, vmin, vmax,
                             reinterpret_cast<std::uint8_t*>(g_scratch.data())));
}

// A recipe index (vocabulary.def SINPE_RECIPE).
bool recipe_arg(int recipe, Recipe* out) {
  if (recipe < 0 || recipe >= kRecipeCount) return false;
  *out = Recipe(recipe);
  return true;
}

// Where a chunk of cache rows of `values` values each for cos and sin goes:
// cos at the scratch's start, sin `values` elements of the dtype after it
// (an unknown dtype: the core refuses it before writing).
CacheOut cache_out(int dtype, std::size_t values) {
  const std::size_t bytes = dtype == int(Dtype::float32) ? sizeof(float) : sizeof(std::uint16_t);
  auto* cos = reinterpret_cast<unsigned char*>(g_scratch.data());
  return {Dtype(dtype), cos, cos + values * bytes};
}

// Whether n rows of r/2 values, cos and sin, fit in the scratch.
bool cache_fits(const Entry* e, std::size_t n, std::size_t* half) {
  *half = std::size_t(e->rope.rotary_dim() / 2);
  return n <= kScratchFloats / (2 * *half);
}

// A chunk of a cache: the recipe converted, then the core's one entry point,
// which checks the rest (the dtype once).
int cache_chunk(const Entry* e, const Positions& at, int dtype, int recipe) {
  Recipe how;
  std::size_t half = 0;
  if (!recipe_arg(recipe, &how)) return code(Status::bad_recipe);
  if (!cache_fits(e, at.count, &half)) return code(Status::too_large);
  return code(sinpe::rope_cache_recipe(e->rope, how, at, cache_out(dtype, at.count * half)));
}

int rope_cache_rows(int handle, double start, double count, int dtype, int recipe) {
  const Entry* e = entry(handle, kRope);
  std::size_t n = 0;
  if (!e) return code(Status::invalid_plan);
  if (!count_arg(count, &n)) return code(Status::bad_chunk);
  return cache_chunk(e, Positions::range(start, n), dtype, recipe);
}

int rope_cache(int handle, double count, int dtype, int recipe) {
  const Entry* e = entry(handle, kRope);
  std::size_t n = 0;
  if (!e) return code(Status::invalid_plan);
  if (!to_integer<std::size_t>(count, 0, kPositionChunk / std::size_t(e->rope.axes()), &n))
    return code(Status::bad_chunk);
  return cache_chunk(e, Positions::axes(g_positions.data(), n), dtype, recipe);
}

int check_rope_grid(int handle, double height, double width) {
  const Entry* e = entry(handle, kRope);
  if (!e) return code(Status::invalid_plan);
  std::size_t H = 0, W = 0;
  const auto max = std::size_t(kMaxAbsPosition);
  if (!to_integer<std::size_t>(height, 0, max, &H) || !to_integer<std::size_t>(width, 0, max, &W))
    return code(Status::bad_count);
  // No patch written: only the checks of the whole grid run.
  if (e->rope.axes() != 2) return code(Status::axes_mismatch);
  if (W != 0 && H > kMaxElements / W) return code(Status::too_large);
  return code(check_elements(H * W, std::size_t(e->rope.rotary_dim() / 2)));
}

int rope_cache_grid(int handle, double height, double width, double first, double count, int dtype,
                    int recipe) {
  const Entry* e = entry(handle, kRope);
  std::size_t H = 0, W = 0, f = 0, n = 0;
  const auto max = std::size_t(kMaxAbsPosition);
  if (!e) return code(Status::invalid_plan);
  if (!to_integer<std::size_t>(height, 0, max, &H) || !to_integer<std::size_t>(width, 0, max, &W) ||
      !count_arg(first, &f) || !count_arg(count, &n))
    return code(Status::bad_count);
  return cache_chunk(e, Positions::grid(H, W, f, n), dtype, recipe);
}

int rope_apply(int handle, int layout, double head_dim, double count, double num_heads) {
  const Entry* e = entry(handle, kRope);
  std::size_t n = 0, heads = 0;
  int hd = 0;
  if (!e) return code(Status::invalid_plan);
  if (!to_integer<std::size_t>(count, 0, kPositionChunk / std::size_t(e->rope.axes()), &n) ||
      !count_arg(num_heads, &heads) || !to_integer(head_dim, 1, kMaxDModel, &hd))
    return code(Status::bad_chunk);
  if (heads != 0 && n > kScratchFloats / heads / std::size_t(hd)) return code(Status::too_large);
  return code(sinpe::apply_rope(e->rope, RopeLayout(layout), hd, Positions::axes(g_positions.data(), n),
                                heads, g_scratch.data()));
}

int frequencies(int handle) {
  const std::vector<double>* f = nullptr;
  if (const Entry* e = entry(handle, kRope)) f = &e->rope.inv_freq();
  else if (const Entry* e2 = entry(handle, kRows)) f = &e2->plan.frequencies();
  if (!f) return -1;
  double* out = reinterpret_cast<double*>(g_scratch.data());
  for (std::size_t i = 0; i < f->size(); ++i) out[i] = (*f)[i];
  return int(f->size());
}

int axes(int handle) {
  const Entry* e = entry(handle, kRope);
  return e ? e->rope.axes() : 1;
}

double attention_factor(int handle) {
  const Entry* e = entry(handle, kRope);
  return e ? e->rope.attention_factor() : 1.0;
}

int follows_rule(int option, double v) {
  if (option < 0 || option >= kOptionCount) return -1;
  return option_value_follows_rule(Option(option), v) ? 1 : 0;
}

std::string version() { return sinpe::version(); }

}  // namespace sinpe::glue
