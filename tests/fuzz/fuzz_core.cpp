// libFuzzer target over the C++ entry points (clang -fsanitize=fuzzer,address,undefined).
//
// Every input is decoded into one call: an entry point, a preset (possibly
// out of range), options (unset, ordinary, hostile or any bit pattern), a
// width, positions/row ranges/grid windows. Besides "no crash, no sanitizer
// report", each call is checked against properties that must always hold:
//   * failure: a non-ok status and the output buffer left byte-for-byte as it was;
//   * a null buffer with work to do never yields ok;
//   * success: every value finite, |v| <= 1 + 2.5e-7, the SIMD and scalar paths
//     agree within twice the contract, nothing written past the buffer (ASan);
//   * success with a well-conditioned angle (|p * w| <= 2^26): every value within
//     2.5e-7 of the independent float64 reference of tests/cpp/reference.cpp;
//   * row-range checks agree with an independent statement of the rules.
//
// Input format (tests/fuzz/make_corpus.mjs writes the seeds): bytes read in
// order; missing bytes read as zero.
//   u8 op | u8 preset | u8 layout | 7 x option (u8 kind [+ f64 when kind is raw])
//   | u32 dModel (kind-selected) | op-specific fields.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "../cpp/reference.hpp"
#include "sinpe/sinpe.hpp"

namespace {

constexpr double kTol = 2.5e-7;
constexpr double kMaxPos = 16777216.0;
// Buffers the fuzzer may make us allocate (floats); larger requests are still
// made, with a null buffer, and must fail or be refused.
constexpr std::size_t kBudget = std::size_t(1) << 18;

struct Reader {
  const std::uint8_t* p;
  std::size_t n;
  template <class T>
  T get() {
    T v{};
    std::uint8_t b[sizeof(T)] = {};
    const std::size_t m = n < sizeof(T) ? n : sizeof(T);
    std::memcpy(b, p, m);
    p += m;
    n -= m;
    std::memcpy(&v, b, sizeof(T));
    return v;
  }
  std::uint8_t u8() { return get<std::uint8_t>(); }
  std::uint16_t u16() { return get<std::uint16_t>(); }
  std::uint32_t u32() { return get<std::uint32_t>(); }
  double f64() { return get<double>(); }
};

char g_call[512];  // the decoded call, for the report

[[noreturn]] void fail(const char* what, double a = 0, double b = 0) {
  std::fprintf(stderr, "fuzz_core: property violated: %s (%.17g, %.17g)\n  call: %s\n", what, a, b, g_call);
  std::abort();
}
#define EXPECT(cond, ...) \
  do {                    \
    if (!(cond)) fail(#cond, ##__VA_ARGS__); \
  } while (0)

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// An option value: unset (NaN) most often, else ordinary or hostile.
double option_value(Reader& r) {
  const std::uint8_t kind = r.u8();
  switch (kind % 16) {
    case 0: case 1: case 2: case 3: case 4: case 5: return kNaN;  // unset
    case 6: return 10000.0;
    case 7: return 1.0;
    case 8: return 0.0;
    case 9: return -1.0;
    case 10: return kInf;
    case 11: return -kInf;
    case 12: return 1e-300;
    case 13: return 1e300;
    case 14: return double(kind / 16) + 0.5;  // small non-integers, 0.5 ... 15.5
    default: return r.f64();                  // any bit pattern
  }
}

// A position / start: exact boundaries, ordinary values or any double.
double position_value(Reader& r) {
  const std::uint8_t kind = r.u8();
  switch (kind % 12) {
    case 0: return 0;
    case 1: return double(r.u16());
    case 2: return -double(r.u16());
    case 3: return kMaxPos - 1 - double(r.u8());
    case 4: return -(kMaxPos - 1) + double(r.u8());
    case 5: return kMaxPos;
    case 6: return -kMaxPos;
    case 7: return kNaN;
    case 8: return kInf;
    case 9: return double(r.u32() % 1000) / 8.0;  // fractional timesteps
    case 10: return double(r.u32());
    default: return r.f64();
  }
}

int width_value(Reader& r) {
  const std::uint8_t kind = r.u8();
  const std::uint32_t raw = r.u32();
  switch (kind % 8) {
    case 0: case 1: case 2: case 3: return int(raw % 65) ;   // 0 ... 64
    case 4: return int(raw % 1025);                           // up to 1024
    case 5: return 65536 - int(raw % 3) + 1;                  // 65535 ... 65537
    case 6: return -int(raw % 5);
    default: return int(raw);                                 // anything
  }
}

std::size_t count_value(Reader& r) {
  const std::uint8_t kind = r.u8();
  const std::uint32_t raw = r.u32();
  switch (kind % 6) {
    case 0: case 1: case 2: return raw % 70;                 // a few blocks of 64
    case 3: return raw % 3000;
    case 4: return std::size_t(raw) * 65536u + raw;          // huge
    default: return std::numeric_limits<std::size_t>::max() - raw % 4;
  }
}

struct Setup {
  sinpe::Options opt;
  ref::Params prm;  // the same options with defaults filled in, for the reference
  bool ref_ok = true;  // the reference understands these options
};

Setup read_options(Reader& r) {
  Setup s;
  const int preset = int(r.u8() % 10) - 1;  // -1 and 8 are out of range
  const int layout = int(r.u8() % 6) - 2;   // -2 and 3 are out of range
  s.opt.preset = sinpe::Preset(preset);
  s.opt.layout = sinpe::Layout(layout);
  s.opt.base = option_value(r);
  s.opt.min_timescale = option_value(r);
  s.opt.max_timescale = option_value(r);
  s.opt.freq_shift = option_value(r);
  s.opt.scale = option_value(r);
  s.opt.max_period = option_value(r);
  s.opt.padding_idx = option_value(r);

  static const char* names[] = {"vaswani", "keras", "tensor2tensor", "fairseq", "whisper", "diffusers",
                                "guided-diffusion", "mae"};
  static const char* layouts[] = {"interleaved", "concat", "cos-first"};
  if (preset >= 0 && preset < 8) s.prm.preset = names[preset];
  if (layout >= 0 && layout <= 2) s.prm.layout = layouts[layout];
  const auto pick = [](double v, double dflt) { return std::isnan(v) ? dflt : v; };
  s.prm.base = pick(s.opt.base, 10000);
  s.prm.min_timescale = pick(s.opt.min_timescale, 1);
  s.prm.max_timescale = pick(s.opt.max_timescale, 10000);
  s.prm.freq_shift = pick(s.opt.freq_shift, 1);
  s.prm.scale = pick(s.opt.scale, 1);
  s.prm.max_period = pick(s.opt.max_period, 10000);
  s.prm.has_padding = !std::isnan(s.opt.padding_idx);
  s.prm.padding_idx = s.opt.padding_idx;
  return s;
}

// Largest |angle| the plan can make for positions up to max_abs_p, or inf.
double max_angle(const sinpe::Plan& plan, double max_abs_p) {
  double w = 0;
  for (double f : plan.frequencies()) {
    if (!std::isfinite(f)) return kInf;
    w = std::fmax(w, std::fabs(f));
  }
  return w * max_abs_p;
}

// A buffer of exactly n elements (ASan sees any overrun) filled with a sentinel.
template <class T>
struct Guarded {
  std::unique_ptr<T[]> data;
  std::size_t n;
  explicit Guarded(std::size_t n_) : data(n_ ? new T[n_] : nullptr), n(n_) {
    if (n) std::memset(static_cast<void*>(data.get()), 0xA5, n * sizeof(T));
  }
  bool untouched() const {
    const auto* b = reinterpret_cast<const std::uint8_t*>(data.get());
    for (std::size_t i = 0; i < n * sizeof(T); ++i)
      if (b[i] != 0xA5) return false;
    return true;
  }
};

// Values from a successful call: finite, bounded, matching the other path and,
// when well conditioned, the reference.
void check_values(const Setup& s, const sinpe::Plan& plan, int d, const std::vector<double>& positions,
                  const float* best, const float* scalar, double angle) {
  const bool compare_ref = angle <= 67108864.0;  // 2^26: float64 angle error << 2.5e-7
  for (std::size_t i = 0; i < positions.size(); ++i) {
    std::vector<double> want;
    if (compare_ref) want = ref::row(s.prm, d, positions[i]);
    for (int c = 0; c < d; ++c) {
      const std::size_t at = i * std::size_t(d) + std::size_t(c);
      const double v = best[at], w = scalar[at];
      if (std::isfinite(angle)) {
        EXPECT(std::isfinite(v) && std::fabs(v) <= 1 + kTol, v, positions[i]);
        EXPECT(std::fabs(v - w) <= 2 * kTol, v, w);
      }
      if (compare_ref) EXPECT(std::fabs(v - want[std::size_t(c)]) <= kTol, v, want[std::size_t(c)]);
    }
  }
}

// An independent statement of the row-range rules.
bool range_ok(double start, std::size_t count) {
  if (!std::isfinite(start) || std::floor(start) != start || std::fabs(start) >= kMaxPos) return false;
  if (count == 0) return true;
  if (count > std::size_t(2 * kMaxPos)) return false;
  return std::fabs(start + double(count) - 1) < kMaxPos;
}

void fuzz_rows(Reader& r, const Setup& s, const sinpe::Plan& plan, bool add) {
  const int d = plan.d_model();
  const double start = position_value(r);
  const std::size_t count = count_value(r);
  const bool range = range_ok(start, count);
  EXPECT((sinpe::check_row_range(start, count) == sinpe::Status::ok) == range, start, double(count));
  const bool fits = count <= kBudget / std::size_t(d);
  if (!fits) {
    // Too big to hand a real buffer: a null one must be refused.
    const auto st = add ? sinpe::add_rows(plan, start, count, nullptr) : sinpe::rows(plan, start, count, nullptr);
    EXPECT(st != sinpe::Status::ok, start, double(count));
    return;
  }
  Guarded<float> a(count * std::size_t(d)), b(count * std::size_t(d));
  if (add)  // add onto small finite values so the sum stays checkable
    for (std::size_t i = 0; i < a.n; ++i) a.data[i] = b.data[i] = 0.f;
  const auto st = add ? sinpe::add_rows(plan, start, count, a.data.get())
                      : sinpe::rows(plan, start, count, a.data.get());
  if (!range) {
    EXPECT(st != sinpe::Status::ok, start, double(count));
  }
  if (st != sinpe::Status::ok) {
    EXPECT(add ? [&] { for (std::size_t i = 0; i < a.n; ++i) if (a.data[i] != 0.f) return false; return true; }()
               : a.untouched(), double(st));
    return;
  }
  EXPECT(range, start, double(count));
  const auto st2 = add ? sinpe::add_rows(plan, start, count, b.data.get(), sinpe::Path::scalar)
                       : sinpe::rows(plan, start, count, b.data.get(), sinpe::Path::scalar);
  EXPECT(st2 == sinpe::Status::ok, double(st2));
  if (count > 0) EXPECT(sinpe::rows(plan, start, count, nullptr) == sinpe::Status::bad_buffer);
  std::vector<double> pos(count);
  for (std::size_t i = 0; i < count; ++i) pos[i] = start + double(i);
  const double angle = max_angle(plan, std::fmax(std::fabs(start), std::fabs(start + double(count))));
  check_values(s, plan, d, pos, a.data.get(), b.data.get(), angle);
}

void fuzz_encode(Reader& r, const Setup& s, const sinpe::Plan& plan) {
  const int d = plan.d_model();
  std::size_t n = r.u8() % 80;
  if (n > kBudget / std::size_t(d)) n = kBudget / std::size_t(d);
  std::vector<double> pos(n);
  bool valid = true;
  double max_abs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // Runs of consecutive positions exercise the block path inside encode.
    pos[i] = (i > 0 && (r.u8() & 1)) ? pos[i - 1] + 1 : position_value(r);
    if (!std::isfinite(pos[i]) || std::fabs(pos[i]) >= kMaxPos) valid = false;
    else max_abs = std::fmax(max_abs, std::fabs(pos[i]));
  }
  Guarded<float> a(n * std::size_t(d)), b(n * std::size_t(d));
  const auto st = sinpe::encode(plan, pos.data(), n, a.data.get());
  EXPECT((st == sinpe::Status::ok) == valid, double(st));
  if (st != sinpe::Status::ok) {
    EXPECT(st == sinpe::Status::position_not_finite || st == sinpe::Status::position_out_of_range, double(st));
    EXPECT(a.untouched());
    return;
  }
  EXPECT(sinpe::encode(plan, pos.data(), n, b.data.get(), sinpe::Path::scalar) == sinpe::Status::ok);
  if (n > 0) EXPECT(sinpe::encode(plan, pos.data(), n, nullptr) == sinpe::Status::bad_buffer);
  check_values(s, plan, d, pos, a.data.get(), b.data.get(), max_angle(plan, max_abs));
}

void fuzz_grid(Reader& r, const Setup& s, int d) {
  sinpe::Plan axis;
  const auto ps = sinpe::make_grid_plan(s.opt, d, &axis);
  if (ps != sinpe::Status::ok) {
    if (d >= 1 && d <= 65536 && d % 2 == 0) {
      // The only grid-specific failure is an axis width the preset cannot take.
      sinpe::Plan p;
      const auto st1 = sinpe::make_plan(s.opt, d / 2, &p);
      EXPECT(st1 != sinpe::Status::ok, double(st1));
    }
    return;
  }
  EXPECT(axis.d_model() * 2 == d);
  const std::size_t H = r.u8() % 20, W = r.u8() % 20;
  const bool cls = r.u8() & 1;
  const std::size_t cells = H * W + (cls ? 1 : 0);
  const std::size_t first = cells ? r.u16() % (cells + 2) : r.u8() % 2;
  const std::size_t count = r.u16() % (cells + 2);
  const bool window_ok = first <= cells && count <= cells - first;
  const bool fits = count <= kBudget / std::size_t(d);
  if (!fits) {
    EXPECT(sinpe::grid2d(axis, H, W, cls, first, count, nullptr) != sinpe::Status::ok);
    return;
  }
  Guarded<float> a(count * std::size_t(d)), b(count * std::size_t(d));
  const auto st = sinpe::grid2d(axis, H, W, cls, first, count, a.data.get());
  EXPECT((st == sinpe::Status::ok) == window_ok, double(st));
  if (st != sinpe::Status::ok) {
    EXPECT(a.untouched());
    return;
  }
  EXPECT(sinpe::grid2d(axis, H, W, cls, first, count, b.data.get(), sinpe::Path::scalar) == sinpe::Status::ok);
  const double angle = max_angle(axis, double(H > W ? H : W));
  const bool compare_ref = angle <= 67108864.0 && d <= 4096;
  std::vector<double> want;
  if (compare_ref) want = ref::grid2d(s.prm, int(H), int(W), d, cls);
  for (std::size_t i = 0; i < count * std::size_t(d); ++i) {
    const double v = a.data[i], w = b.data[i];
    if (std::isfinite(angle)) {
      EXPECT(std::isfinite(v) && std::fabs(v) <= 1 + kTol, v);
      EXPECT(std::fabs(v - w) <= 2 * kTol, v, w);
    }
    const int D = d / 2;  // axis width; the same unspecified column as in check_values, per half
    const bool unspecified = axis.odd_column() == sinpe::OddColumn::sine && !s.prm.layout.empty() &&
                             s.prm.layout != "interleaved" && int(i % std::size_t(D)) == D - 1;
    if (compare_ref && !unspecified)
      EXPECT(std::fabs(v - want[first * std::size_t(d) + i]) <= kTol, v, want[first * std::size_t(d) + i]);
  }
}

void fuzz_heatmap(Reader& r, const sinpe::Plan& plan) {
  const int d = plan.d_model();
  const double start = position_value(r);
  std::size_t count = r.u8() % 100;
  if (count > kBudget / std::size_t(d)) count = kBudget / std::size_t(d);
  const int col0 = int(r.u16() % (d + 3)) - 1;
  const int cols = int(r.u16() % (d + 3)) - 1;
  double vmin = -1, vmax = 1;
  switch (r.u8() % 5) {
    case 0: break;
    case 1: vmin = -0.5; vmax = 0.25; break;
    case 2: vmin = vmax = 0.5; break;
    case 3: vmin = kNaN; break;
    default: vmin = r.f64(); vmax = r.f64(); break;
  }
  std::uint8_t lut[1024];
  for (int i = 0; i < 256; ++i) {
    lut[4 * i] = std::uint8_t(i);
    lut[4 * i + 1] = std::uint8_t(255 - i);
    lut[4 * i + 2] = std::uint8_t(i ^ 0x5a);
    lut[4 * i + 3] = 7;
  }
  const bool window_ok = col0 >= 0 && cols >= 0 && col0 <= d && cols <= d - col0;
  const bool values_ok = std::isfinite(vmin) && std::isfinite(vmax) && vmin < vmax;
  const bool valid = range_ok(start, count) && window_ok && values_ok;
  const std::size_t px = window_ok ? count * std::size_t(cols) : 0;
  Guarded<std::uint8_t> out(px * 4);
  const auto st = sinpe::heatmap(plan, start, count, col0, cols, lut, vmin, vmax, out.data.get());
  EXPECT((st == sinpe::Status::ok) == valid, double(st));
  if (st != sinpe::Status::ok) {
    EXPECT(out.untouched());
    return;
  }
  if (px == 0) return;
  std::vector<float> vals(count * std::size_t(d));
  EXPECT(sinpe::rows(plan, start, count, vals.data()) == sinpe::Status::ok);
  for (std::size_t j = 0; j < count; ++j)
    for (int c = 0; c < cols; ++c) {
      const std::uint8_t* p = &out.data[(j * std::size_t(cols) + std::size_t(c)) * 4];
      const int idx = p[0];
      EXPECT(p[1] == 255 - idx && p[2] == (idx ^ 0x5a) && p[3] == 7, double(idx));  // a whole LUT entry
      const double v = vals[j * std::size_t(d) + std::size_t(col0 + c)];
      if (!std::isfinite(v)) continue;
      double t = (v - vmin) / (vmax - vmin) * 255;
      t = t < 0 ? 0 : t > 255 ? 255 : t;
      EXPECT(std::fabs(idx - t) <= 1.0 || !std::isfinite(t), double(idx), t);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r{data, size};
  const int op = r.u8() % 6;
  const Setup s = read_options(r);
  const int d = width_value(r);
  std::snprintf(g_call, sizeof g_call,
                "op=%d preset=%d layout=%d d=%d base=%g minTimescale=%g maxTimescale=%g freqShift=%g scale=%g "
                "maxPeriod=%g paddingIdx=%g",
                op, int(s.opt.preset), int(s.opt.layout), d, s.opt.base, s.opt.min_timescale, s.opt.max_timescale,
                s.opt.freq_shift, s.opt.scale, s.opt.max_period, s.opt.padding_idx);

  if (op == 4) {
    fuzz_grid(r, s, d);
    return 0;
  }
  sinpe::Plan plan;
  const auto ps = sinpe::make_plan(s.opt, d, &plan);
  const int preset = int(s.opt.preset), layout = int(s.opt.layout);
  if (preset < 0 || preset > 7) EXPECT(ps == sinpe::Status::bad_preset, double(ps));
  else if (layout < -1 || layout > 2) EXPECT(ps == sinpe::Status::bad_layout, double(ps));
  else if (d < 1 || d > 65536) EXPECT(ps == sinpe::Status::d_model_out_of_range, double(ps));
  if (ps != sinpe::Status::ok) {
    EXPECT(plan.d_model() == 0);  // untouched
    return 0;
  }
  EXPECT(plan.d_model() == d && plan.pairs() == d / 2);
  EXPECT(plan.frequencies().size() == std::size_t(d / 2 + (plan.odd_column() == sinpe::OddColumn::sine)));
  switch (op) {
    case 0: fuzz_rows(r, s, plan, false); break;
    case 1: fuzz_rows(r, s, plan, true); break;
    case 2: case 3: fuzz_encode(r, s, plan); break;
    default: fuzz_heatmap(r, plan); break;
  }
  return 0;
}
