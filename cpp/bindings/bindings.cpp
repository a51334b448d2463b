// Embind bindings: the only file that knows about JavaScript.
//
// Results are never handed out as views into wasm memory (memory growth would
// detach them). Each call works in a fixed scratch buffer, chunk by chunk, and
// copies every chunk into the caller's JS-owned typed array with
// TypedArray.prototype.set. The wasm heap therefore does not grow with the
// size of a request.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sinpe/sinpe.hpp"

using emscripten::typed_memory_view;
using emscripten::val;

namespace {

// Options as the JS layer passes them: enums as integers, NaN = preset default.
struct JsOptions {
  int preset = 0;
  int layout = -1;
  double base, minTimescale, maxTimescale, freqShift, scale, maxPeriod, paddingIdx;
};

sinpe::Options to_core(const JsOptions& j) {
  sinpe::Options o;
  o.preset = sinpe::Preset(j.preset);
  o.layout = sinpe::Layout(j.layout);
  o.base = j.base;
  o.min_timescale = j.minTimescale;
  o.max_timescale = j.maxTimescale;
  o.freq_shift = j.freqShift;
  o.scale = j.scale;
  o.max_period = j.maxPeriod;
  o.padding_idx = j.paddingIdx;
  return o;
}

constexpr std::size_t kScratchFloats = std::size_t(1) << 17;  // 512 KiB: stays in L2 between kernel and copy
constexpr std::size_t kPositionChunk = 4096;

float* scratch() {
  static std::vector<float> buffer(kScratchFloats);
  return buffer.data();
}
double* position_scratch() {
  static std::vector<double> buffer(kPositionChunk);
  return buffer.data();
}

// Plans are cheap but not free (a rotation table per width); a slider that
// redraws the same width many times reuses them.
struct CachedPlan {
  bool used = false;
  bool grid = false;
  int d = 0;
  JsOptions key{};
  sinpe::Plan plan;
};
std::array<CachedPlan, 8> g_plans;
std::size_t g_next_plan = 0;

bool same(const JsOptions& a, const JsOptions& b) { return std::memcmp(&a, &b, sizeof(JsOptions)) == 0; }

// Returns a cached or new plan, or nullptr with *status set.
const sinpe::Plan* plan_for(const JsOptions& o, int d, bool grid, sinpe::Status* status) {
  for (CachedPlan& c : g_plans)
    if (c.used && c.d == d && c.grid == grid && same(c.key, o)) {
      *status = sinpe::Status::ok;
      return &c.plan;
    }
  sinpe::Plan plan;
  *status = grid ? sinpe::make_grid_plan(to_core(o), d, &plan) : sinpe::make_plan(to_core(o), d, &plan);
  if (*status != sinpe::Status::ok) return nullptr;
  CachedPlan& slot = g_plans[g_next_plan++ % g_plans.size()];
  slot.used = true;
  slot.grid = grid;
  slot.d = d;
  slot.key = o;
  slot.plan = std::move(plan);
  return &slot.plan;
}

// Index of the first bad position of the last failed encode.
double g_bad_index = -1;

int status(sinpe::Status s) { return int(s); }

std::size_t length_of(const val& array) { return array["length"].as<std::size_t>(); }

// Copies `n` values from wasm memory into `dst` at element offset `at`.
template <class T>
void copy_out(const T* src, std::size_t n, val& dst, std::size_t at) {
  dst.call<void>("set", val(typed_memory_view(n, src)), at);
}

// Makes `n` items (rows, cells) in chunks of at most `per_chunk`: make(first,
// m) fills `buf` with items first ... first+m-1, `width` values each, and that
// chunk is copied to `out`. Stops at the first status that is not ok.
template <class T, class Make>
sinpe::Status in_chunks(std::size_t n, std::size_t per_chunk, std::size_t width, const T* buf, val& out,
                        Make make) {
  for (std::size_t done = 0; done < n; done += per_chunk) {
    const std::size_t m = std::min(per_chunk, n - done);
    if (const sinpe::Status s = make(done, m); s != sinpe::Status::ok) return s;
    copy_out(buf, m * width, out, done * width);
  }
  return sinpe::Status::ok;
}

// Rows of width d that fit the scratch buffer at once.
std::size_t rows_per_chunk(int d) { return std::max<std::size_t>(1, kScratchFloats / std::size_t(d)); }

// `count` rows from `start`, as JS passed them; checked before the conversion
// to size_t, which is undefined for values out of its range.
sinpe::Status row_range(double start, double count, std::size_t* n) {
  if (!(count >= 0 && count <= 2 * sinpe::kMaxAbsPosition)) return sinpe::Status::bad_count;
  *n = std::size_t(count);
  return sinpe::check_row_range(start, *n);
}

int rows_into(double start, double count, int d, JsOptions o, val out) {
  sinpe::Status s;
  const sinpe::Plan* plan = plan_for(o, d, false, &s);
  if (!plan) return status(s);
  std::size_t n = 0;
  if ((s = row_range(start, count, &n)) != sinpe::Status::ok) return status(s);
  if ((s = sinpe::check_elements(n, std::size_t(d))) != sinpe::Status::ok) return status(s);
  if (length_of(out) != n * std::size_t(d)) return status(sinpe::Status::bad_buffer);
  return status(in_chunks(n, rows_per_chunk(d), std::size_t(d), scratch(), out, [&](std::size_t first, std::size_t m) {
    return sinpe::rows(*plan, start + double(first), m, scratch());
  }));
}

// `positions` is any typed array (the JS layer turns plain Arrays into a
// Float64Array); TypedArray.prototype.set converts its element type.
int encode_into(val positions, int d, JsOptions o, val out) {
  sinpe::Status s;
  const sinpe::Plan* plan = plan_for(o, d, false, &s);
  if (!plan) return status(s);
  const std::size_t n = length_of(positions);
  if ((s = sinpe::check_elements(n, std::size_t(d))) != sinpe::Status::ok) return status(s);
  if (length_of(out) != n * std::size_t(d)) return status(sinpe::Status::bad_buffer);
  double* pos = position_scratch();
  const std::size_t per_chunk = std::min(kPositionChunk, rows_per_chunk(d));
  const auto load = [&](std::size_t at, std::size_t m) {
    val(typed_memory_view(m, pos)).call<void>("set", positions.call<val>("subarray", at, at + m));
  };
  const auto check = [&](std::size_t at, std::size_t m) {
    for (std::size_t i = 0; i < m; ++i)
      if (sinpe::check_position(pos[i]) != sinpe::Status::ok) {
        g_bad_index = double(at + i);
        return sinpe::check_position(pos[i]);
      }
    return sinpe::Status::ok;
  };
  if (n <= per_chunk) {  // one chunk (a single row, say): copy the positions in once
    load(0, n);
    if ((s = check(0, n)) != sinpe::Status::ok) return status(s);
    sinpe::encode(*plan, pos, n, scratch());
    copy_out(scratch(), n * std::size_t(d), out, 0);
    return 0;
  }
  // Validate every position before writing anything.
  for (std::size_t at = 0; at < n; at += kPositionChunk) {
    const std::size_t m = std::min(kPositionChunk, n - at);
    load(at, m);
    if ((s = check(at, m)) != sinpe::Status::ok) return status(s);
  }
  return status(in_chunks(n, per_chunk, std::size_t(d), scratch(), out, [&](std::size_t first, std::size_t m) {
    load(first, m);
    return sinpe::encode(*plan, pos, m, scratch());
  }));
}

// x holds batch * seqLen rows of width d; each sequence gets rows start ... start+seqLen-1.
int add_to(val x, double start, double seq_len, int d, JsOptions o) {
  sinpe::Status s;
  const sinpe::Plan* plan = plan_for(o, d, false, &s);
  if (!plan) return status(s);
  if (!(seq_len >= 1)) return status(sinpe::Status::bad_count);
  std::size_t len = 0;
  if ((s = row_range(start, seq_len, &len)) != sinpe::Status::ok) return status(s);
  const std::size_t total = length_of(x);
  if (total % (len * std::size_t(d)) != 0) return status(sinpe::Status::bad_buffer);
  const std::size_t batch = total / (len * std::size_t(d));
  const std::size_t per_chunk = rows_per_chunk(d);
  float* buf = scratch();
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t r = 0; r < len; r += per_chunk) {
      const std::size_t m = std::min(per_chunk, len - r);
      const std::size_t at = (b * len + r) * std::size_t(d);
      val(typed_memory_view(m * std::size_t(d), buf)).call<void>("set", x.call<val>("subarray", at, at + m * std::size_t(d)));
      sinpe::add_rows(*plan, start + double(r), m, buf);
      copy_out(buf, m * std::size_t(d), x, at);
    }
  return 0;
}

int grid2d_into(double height, double width, bool cls, int d, JsOptions o, val out) {
  sinpe::Status s;
  const sinpe::Plan* axis = plan_for(o, d, true, &s);
  if (!axis) return status(s);
  if (!(height >= 0 && width >= 0 && height <= 16777216.0 && width <= 16777216.0))
    return status(sinpe::Status::bad_count);
  const std::size_t H = std::size_t(height), W = std::size_t(width);
  const std::size_t cells = H * W + (cls ? 1 : 0);
  if ((s = sinpe::check_elements(cells, std::size_t(d))) != sinpe::Status::ok) return status(s);
  if (length_of(out) != cells * std::size_t(d)) return status(sinpe::Status::bad_buffer);
  return status(in_chunks(cells, rows_per_chunk(d), std::size_t(d), scratch(), out, [&](std::size_t first, std::size_t m) {
    return sinpe::grid2d(*axis, H, W, cls, first, m, scratch());
  }));
}

// lut: Uint8Array(1024) of 256 RGBA entries; out: count*cols*4 bytes.
int heatmap_into(double start, double count, int col0, int cols, int d, JsOptions o, val lut, double vmin,
                 double vmax, val out) {
  sinpe::Status s;
  const sinpe::Plan* plan = plan_for(o, d, false, &s);
  if (!plan) return status(s);
  std::size_t n = 0;
  if ((s = row_range(start, count, &n)) != sinpe::Status::ok) return status(s);
  if (col0 < 0 || cols < 0 || col0 > d || cols > d - col0) return status(sinpe::Status::bad_column_window);
  if (length_of(lut) != 1024) return status(sinpe::Status::bad_buffer);
  if (length_of(out) != n * std::size_t(cols) * 4) return status(sinpe::Status::bad_buffer);
  if (n == 0 || cols == 0) return 0;
  static std::uint8_t table[1024];
  val(typed_memory_view(1024, table)).call<void>("set", lut);
  auto* bytes = reinterpret_cast<std::uint8_t*>(scratch());
  // The scratch holds kScratchFloats * 4 bytes: that many RGBA pixels.
  return status(in_chunks(n, rows_per_chunk(cols), std::size_t(cols) * 4, bytes, out, [&](std::size_t first, std::size_t m) {
    return sinpe::heatmap(*plan, start + double(first), m, col0, cols, table, vmin, vmax, bytes);
  }));
}

// A new Float64Array of the plan's angular frequencies, or a status number.
val frequencies(int d, JsOptions o) {
  sinpe::Status s;
  const sinpe::Plan* plan = plan_for(o, d, false, &s);
  if (!plan) return val(status(s));
  const auto& f = plan->frequencies();
  val out = val::global("Float64Array").new_(f.size());
  copy_out(f.data(), f.size(), out, 0);
  return out;
}

std::string flavour() { return sinpe::simd_compiled() ? "simd" : "baseline"; }
std::string version() { return sinpe::version(); }
double heap_bytes() { return double(emscripten_get_heap_size()); }
double bad_index() { return g_bad_index; }
std::string status_name(int s) { return sinpe::status_name(sinpe::Status(s)); }

// Fills the same output as rows_into without computing anything: the bound
// that `npm run bench` compares the kernel against.
int fill_into(double count, int d, val out) {
  return status(in_chunks(std::size_t(count), rows_per_chunk(d), std::size_t(d), scratch(), out, [&](std::size_t first, std::size_t m) {
    std::fill_n(scratch(), m * std::size_t(d), float(first));
    return sinpe::Status::ok;
  }));
}

}  // namespace

EMSCRIPTEN_BINDINGS(sinpe) {
  emscripten::value_object<JsOptions>("Options")
      .field("preset", &JsOptions::preset)
      .field("layout", &JsOptions::layout)
      .field("base", &JsOptions::base)
      .field("minTimescale", &JsOptions::minTimescale)
      .field("maxTimescale", &JsOptions::maxTimescale)
      .field("freqShift", &JsOptions::freqShift)
      .field("scale", &JsOptions::scale)
      .field("maxPeriod", &JsOptions::maxPeriod)
      .field("paddingIdx", &JsOptions::paddingIdx);
  emscripten::function("rowsInto", &rows_into);
  emscripten::function("encodeInto", &encode_into);
  emscripten::function("addTo", &add_to);
  emscripten::function("grid2dInto", &grid2d_into);
  emscripten::function("heatmapInto", &heatmap_into);
  emscripten::function("frequencies", &frequencies);
  emscripten::function("fillInto", &fill_into);
  emscripten::function("flavour", &flavour);
  emscripten::function("version", &version);
  emscripten::function("heapBytes", &heap_bytes);
  emscripten::function("badIndex", &bad_index);
  emscripten::function("statusName", &status_name);
}
