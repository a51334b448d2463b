// libFuzzer target over the C++ entry points (clang -fsanitize=fuzzer,address,undefined).
//
// Every input is decoded into one call: a sinusoidal entry point (rows,
// add_rows, encode, grid2d, heatmap) or a RoPE one (rope_cache,
// rope_cache_rows, apply_rope), a preset or rope type (possibly out of range)
// and options: mostly ones its formula reads (unset, ordinary, hostile or any
// bit pattern; a NaN given is a value the core must refuse), sometimes others,
// which the core must refuse by name. Presets, rope types, layouts and the
// options' names, kinds, rules and defaults all come from the vocabulary
// (vocabulary.def). Besides "no crash, no sanitizer report", each call is
// checked against properties that must always hold:
//   * make_plan / make_rope_plan: a status an independent statement of the
//     rules allows (unknown preset or rope type, an option not read, a value
//     against its rule, a required option missing, a width or rotary
//     dimension out of range, ...); ok only when none of them applies;
//   * failure: a non-ok status and every output byte-for-byte as it was;
//   * a null buffer with work to do never yields ok;
//   * success: every value finite and within its amplitude, the SIMD and
//     scalar paths agree within twice the contract, nothing written past the
//     buffer (ASan), dimensions past rotaryDim unchanged bit for bit;
//   * success with well-conditioned angles (|p w| <= 2^26): every value within
//     the contract of the independent float64 references (tests/cpp/
//     reference.cpp, tests/cpp/rope_reference.cpp); RoPE inv_j and attention
//     factor equal to the reference's to 1e-12;
//   * row-range checks agree with an independent statement of the rules;
//   * multi-axis plans (ropeAxes, mropeSection): the axes statuses by their
//     causes, inv_j the rope type's (per axis for axial, freqs[::2] then
//     freqs[1::2] for pixtral); caches of tokens whose axes agree equal the
//     one-position cache; grid ranges equal the caches of their (row,
//     column) positions; half-precision values are their float32
//     estimate's rounding wherever that estimate is away from a boundary,
//     and a range of the half grid is bit for bit the half cache.
//
// Input format (tests/fuzz/make_corpus.mjs writes the seeds): bytes read in
// order; missing bytes read as zero.
//   u8 op: below 0x80 a sinusoidal call (op % 6), else a RoPE call (op % 4;
//     3: a multi-axis or half-precision one, chosen by the u8 that follows
//     the options: rope_cache_axes, apply_rope_axes, rope_cache_grid (a
//     range), the Dtype caches).
//   sinusoidal: u8 preset | u8 layout | 7 option slots (the first 7 options
//     of the vocabulary, base ... paddingIdx) | u8 width kind, u32 width |
//     [width kind >= 0x80: u8 n, n % 4 x (u8 option, slot)] | call fields.
//   RoPE: u8 rope type | u8 flags (bit 0 the rotation layout; bits 5-6 set:
//     an out-of-range one; bits 2-4 set: u8 sinusoidal layout follows, which
//     RoPE must refuse; bit 7 set: u8 rope axes follows, one beyond each end
//     of the vocabulary's) | u8 rotary kind, u32 rotary dim | one slot
//     per option the rope type reads, in its vocabulary order | u8 n,
//     n % 4 x (u8 option, slot) | call fields.
//   A slot is u8 kind [+ payload]; a slot for an option the formula does not
//   read is dropped unless its kind is >= 0xF0.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../cpp/expected_reads.hpp"
#include "../cpp/reference.hpp"
#include "../cpp/rope_reference.hpp"
#include "../cpp/support.hpp"
#include "options.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"

namespace {

using sinpe::Option;
using sinpe::Status;
using sinpe::detail::Reads;

constexpr double kTol = 2.5e-7;              // cache and table values, x max(1, att)
constexpr double kRotateTol = 5e-7;          // rotated values, x max(1, att) (|x_a| + |x_b|)
constexpr double kFreqTol = 1e-12;           // RoPE inv_j and attention factor, relative
constexpr double kConditioned = 67108864.0;  // 2^26: float64 angle error << the contract
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

std::string g_call;  // the decoded call, for the report

[[noreturn]] void fail(const char* what, double a = 0, double b = 0) {
  std::fprintf(stderr, "fuzz_core: property violated: %s (%.17g, %.17g)\n  call: %s\n", what, a, b,
               g_call.c_str());
  std::abort();
}
#define EXPECT(cond, ...) \
  do { \
    if (!(cond)) fail(#cond, ##__VA_ARGS__); \
  } while (0)

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// ---- options ------------------------------------------------------------------------

// Calls f on the Options field of option id.
template <class F>
void with_field(sinpe::Options& o, Option id, F&& f) {
  switch (id) {
#define SINPE_OPTION(name, js_name, type, rule, config_key, doc) \
  case Option::name: \
    f(o.name); \
    break;
#include "sinpe/vocabulary.def"
  }
}
template <class F>
void with_field(const sinpe::Options& o, Option id, F&& f) {
  with_field(const_cast<sinpe::Options&>(o), id, [&](const auto& field) { f(field); });
}

const sinpe::detail::OptionInfo& info(Option id) { return sinpe::detail::kOptionInfo[int(id)]; }

bool given(const sinpe::Options& o, Option id) {
  bool g = false;
  with_field(o, id, [&](const auto& field) { g = field.has_value(); });
  return g;
}

// A sinusoidal option value: unset most often, else ordinary or hostile.
std::optional<double> classic_value(Reader& r, std::uint8_t kind) {
  switch (kind % 16) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5: return std::nullopt;
    case 6: return 10000.0;
    case 7: return 1.0;
    case 8: return 0.0;
    case 9: return -1.0;
    case 10: return kInf;
    case 11: return -kInf;
    case 12: return 1e-300;
    case 13: return 1e300;
    case 14: return kind >= 0xF0 ? kNaN : double(kind / 16) + 0.5;  // small non-integers, or NaN
    default: return r.f64();                                        // any bit pattern
  }
}

// A RoPE option value: context lengths, factors, the 2^24 edge, hostile values.
std::optional<double> rope_value(Reader& r, std::uint8_t kind) {
  switch (kind % 16) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4: return std::nullopt;
    case 5: return double(r.u16());
    case 6: return 4096.0;
    case 7: return 1.0;
    case 8: return 2.0 + double(r.u8()) / 8.0;  // factors 2 ... 33.875
    case 9: return 0.0;
    case 10: return -1.0;
    case 11: return kNaN;
    case 12: return (r.u8() & 1) ? kInf : -kInf;
    case 13: return (r.u8() & 1) ? 1e-300 : 1e300;
    case 14: return kMaxPos - double(r.u8());
    default: return r.f64();
  }
}

// longrope's factor lists: mostly rotaryDim/2 positive numbers, sometimes a
// wrong length or a hostile entry.
std::optional<std::vector<double>> numbers_value(Reader& r, std::uint8_t kind, int rotary_dim) {
  if (kind % 16 < 5) return std::nullopt;
  const int half = rotary_dim >= 2 && rotary_dim <= sinpe::kMaxDModel ? rotary_dim / 2 : 0;
  std::size_t len = std::size_t(half);
  if ((kind >> 4) % 4 == 3) len = r.u8();  // mostly a wrong length
  const int mode = kind % 16;
  std::vector<double> v(len);
  for (std::size_t i = 0; i < len; ++i) v[i] = mode == 15 && i < 64 ? r.f64() : (double(r.u8()) + 1.0) / 64.0;
  if (mode == 14 && len > 0) {
    const double hostile[] = {0.0, -1.0, kNaN, kInf, 1e-310, 1e300, -0.0, 5e-324};
    const std::uint8_t pick = r.u8();
    v[pick % len] = hostile[(pick / 64 + r.u8()) % 8];
  }
  return v;
}

// Reads one slot for option id into o. A slot for an option `reads` does not
// hold is dropped unless its kind is >= 0xF0.
void read_slot(Reader& r, sinpe::Options& o, Option id, Reads reads, bool rope, int rotary_dim) {
  const std::uint8_t kind = r.u8();
  const auto& inf = info(id);
  std::optional<double> number;
  std::optional<bool> boolean;
  std::optional<std::vector<double>> numbers;
  switch (inf.kind) {
    case sinpe::detail::Kind::number: number = rope ? rope_value(r, kind) : classic_value(r, kind); break;
    case sinpe::detail::Kind::boolean:
      if (kind % 16 >= 6) boolean = (kind & 16) != 0;
      break;
    case sinpe::detail::Kind::numberArray: numbers = numbers_value(r, kind, rotary_dim); break;
  }
  if (!expected::find_read(reads, id) && kind < 0xF0) return;
  with_field(o, id, [&](auto& field) {
    using T = typename std::decay_t<decltype(field)>::value_type;
    if constexpr (std::is_same_v<T, double>) field = number;
    else if constexpr (std::is_same_v<T, bool>) field = boolean;
    else field = numbers;
  });
}

// Up to three options by index: the way options a formula does not read get in.
void read_extras(Reader& r, sinpe::Options& o, Reads reads, bool rope, int rotary_dim) {
  const int n = r.u8() % 4;
  for (int i = 0; i < n; ++i) {
    const Option id = Option(r.u8() % sinpe::kOptionCount);
    read_slot(r, o, id, reads, rope, rotary_dim);
  }
}

// An independent statement of the options' rules (vocabulary.def).
bool follows_rule(sinpe::detail::Rule rule, double v) {
  switch (rule) {
    case sinpe::detail::Rule::positive: return std::isfinite(v) && v > 0;
    case sinpe::detail::Rule::finite: return std::isfinite(v);
    case sinpe::detail::Rule::index: return std::isfinite(v) && std::trunc(v) == v && std::fabs(v) < kMaxPos;
    case sinpe::detail::Rule::count: return std::isfinite(v) && std::trunc(v) == v && v >= 1 && v < kMaxPos;
    case sinpe::detail::Rule::length: return std::isfinite(v) && std::trunc(v) == v && v >= 1 && v <= kMaxPos;
    case sinpe::detail::Rule::fraction: return std::isfinite(v) && v > 0 && v <= 1;
    case sinpe::detail::Rule::any: return true;
  }
  return false;
}

// Every option error the options have against `reads`: given but not read,
// against its rule, required but missing.
std::vector<Status> option_errors(const sinpe::Options& o, Reads reads) {
  std::vector<Status> errors;
  for (int i = 0; i < sinpe::kOptionCount; ++i) {
    const Option id = Option(i);
    const auto* read = expected::find_read(reads, id);
    if (!given(o, id)) {
      if (read && read->kind == sinpe::detail::Read::Default::required)
        errors.push_back(sinpe::detail::missing_status(id));
      continue;
    }
    if (!read) {
      errors.push_back(sinpe::detail::not_read_status(id));
      continue;
    }
    bool ok = true;
    with_field(o, id, [&](const auto& field) {
      using T = typename std::decay_t<decltype(field)>::value_type;
      if constexpr (std::is_same_v<T, double>) ok = follows_rule(info(id).rule, *field);
      else if constexpr (std::is_same_v<T, std::vector<double>>)
        for (double v : *field) ok = ok && follows_rule(info(id).rule, v);
    });
    if (!ok) errors.push_back(sinpe::detail::bad_status(id));
  }
  return errors;
}

bool contains(const std::vector<Status>& v, Status s) {
  for (Status x : v)
    if (x == s) return true;
  return false;
}

// The given value, else the vocabulary's default (NaN when it has none).
double value_or_default(const sinpe::Options& o, Reads reads, Option id) {
  double v = kNaN;
  with_field(o, id, [&](const auto& field) {
    using T = typename std::decay_t<decltype(field)>::value_type;
    if constexpr (!std::is_same_v<T, std::vector<double>>)
      if (field) v = double(*field);
  });
  if (!given(o, id))
    if (const auto* read = expected::find_read(reads, id)) v = read->value;
  return v;
}

void describe(const sinpe::Options& o) {
  char buf[96];
  for (int i = 0; i < sinpe::kOptionCount; ++i) {
    const Option id = Option(i);
    with_field(o, id, [&](const auto& field) {
      using T = typename std::decay_t<decltype(field)>::value_type;
      if (!field) return;
      if constexpr (std::is_same_v<T, std::vector<double>>)
        std::snprintf(buf, sizeof buf, " %s=[%zu numbers, first %.17g]", sinpe::option_name(id),
                      field->size(), field->empty() ? 0.0 : (*field)[0]);
      else std::snprintf(buf, sizeof buf, " %s=%.17g", sinpe::option_name(id), double(*field));
      g_call += buf;
    });
  }
}

// ---- shared call fields ------------------------------------------------------------

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

// A width (dModel, rotaryDim, headDim); the kind byte's top bit is kept for the caller.
int width_value(Reader& r, std::uint8_t kind) {
  const std::uint32_t raw = r.u32();
  switch (kind % 8) {
    case 0:
    case 1:
    case 2:
    case 3: return int(raw % 65);             // 0 ... 64
    case 4: return int(raw % 1025);           // up to 1024
    case 5: return 65536 - int(raw % 3) + 1;  // 65535 ... 65537
    case 6: return -int(raw % 5);
    default: return int(raw);  // anything
  }
}

std::size_t count_value(Reader& r) {
  const std::uint8_t kind = r.u8();
  const std::uint32_t raw = r.u32();
  switch (kind % 6) {
    case 0:
    case 1:
    case 2: return raw % 70;  // a few blocks of 64
    case 3: return raw % 3000;
    case 4: return std::size_t(raw) * 65536u + raw;  // huge
    default: return std::numeric_limits<std::size_t>::max() - raw % 4;
  }
}

// n positions, with runs of consecutive ones (the block path); whether all are valid.
std::vector<double> positions_value(Reader& r, std::size_t n, bool* valid, double* max_abs) {
  std::vector<double> pos(n);
  *valid = true;
  *max_abs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    pos[i] = (i > 0 && (r.u8() & 1)) ? pos[i - 1] + 1 : position_value(r);
    if (!std::isfinite(pos[i]) || std::fabs(pos[i]) >= kMaxPos) *valid = false;
    else *max_abs = std::fmax(*max_abs, std::fabs(pos[i]));
  }
  return pos;
}

// An independent statement of the row-range rules.
bool range_ok(double start, std::size_t count) {
  if (!std::isfinite(start) || std::floor(start) != start || std::fabs(start) >= kMaxPos) return false;
  if (count == 0) return true;
  if (count > std::size_t(2 * kMaxPos)) return false;
  return std::fabs(start + double(count) - 1) < kMaxPos;
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

// ---- sinusoidal ------------------------------------------------------------------------

struct Setup {
  sinpe::Options opt;
  ref::Params prm;  // the same options with the defaults of expected_reads.hpp filled in, for the reference
};

// Preset and layout bytes as the vocabulary counts them, one beyond each end.
sinpe::Preset preset_value(std::uint8_t b) { return sinpe::Preset(int(b % (sinpe::kPresetCount + 2)) - 1); }
sinpe::Layout layout_value(std::uint8_t b) { return sinpe::Layout(int(b % (sinpe::kLayoutCount + 3)) - 2); }
bool valid_preset(sinpe::Preset p) { return int(p) >= 0 && int(p) < sinpe::kPresetCount; }
bool valid_layout(sinpe::Layout l) { return int(l) >= -1 && int(l) < sinpe::kLayoutCount; }
Reads preset_reads(sinpe::Preset p) {
  return valid_preset(p) ? expected::preset_reads(p) : Reads{nullptr, 0};
}

constexpr int kClassicSlots = 7;  // base ... paddingIdx: the slots every input has had since the first corpus
static_assert(int(Option::padding_idx) == kClassicSlots - 1,
              "the classic slots are the vocabulary's first options");

Setup read_sinusoidal(Reader& r, int* d) {
  Setup s;
  s.opt.preset = preset_value(r.u8());
  s.opt.layout = layout_value(r.u8());
  const Reads reads = preset_reads(s.opt.preset);
  for (int i = 0; i < kClassicSlots; ++i) read_slot(r, s.opt, Option(i), reads, false, 0);
  const std::uint8_t kind = r.u8();
  *d = width_value(r, kind);
  if (kind >= 0x80) read_extras(r, s.opt, reads, false, 0);

  if (valid_preset(s.opt.preset)) s.prm.preset = sinpe::preset_name(s.opt.preset);
  if (valid_layout(s.opt.layout) && s.opt.layout != sinpe::Layout::preset_default)
    s.prm.layout = sinpe::layout_name(s.opt.layout);
  // flipSinToCos selects the cos-first layout (true) or the sin-first concat one.
  if (s.opt.flip_sin_to_cos)
    s.prm.layout =
        sinpe::layout_name(*s.opt.flip_sin_to_cos ? sinpe::Layout::cos_first : sinpe::Layout::concat);
  const auto value = [&](Option id, double& field) {
    const double v = value_or_default(s.opt, reads, id);
    if (!std::isnan(v) || given(s.opt, id)) field = v;
  };
  value(Option::base, s.prm.base);
  value(Option::min_timescale, s.prm.min_timescale);
  value(Option::max_timescale, s.prm.max_timescale);
  value(Option::freq_shift, s.prm.freq_shift);
  value(Option::scale, s.prm.scale);
  value(Option::max_period, s.prm.max_period);
  s.prm.has_padding = s.opt.padding_idx.has_value();
  if (s.prm.has_padding) s.prm.padding_idx = *s.opt.padding_idx;
  return s;
}

// make_plan's status against the rules: what must be refused is, by one of its statuses.
void check_plan_status(const sinpe::Options& o, int d, Status st) {
  std::vector<Status> errors;
  if (!valid_preset(o.preset)) errors.push_back(Status::bad_preset);
  if (!valid_layout(o.layout)) errors.push_back(Status::bad_layout);
  for (Status e : option_errors(o, preset_reads(o.preset))) errors.push_back(e);
  if (d < 1 || d > sinpe::kMaxDModel) errors.push_back(Status::d_model_out_of_range);
  if (!errors.empty()) {
    EXPECT(contains(errors, st), double(st), double(errors[0]));
    return;
  }
  // What only the formula can tell, each with its cause.
  const bool both_layouts = o.flip_sin_to_cos && o.layout != sinpe::Layout::preset_default;
  if (both_layouts) EXPECT(st == Status::layout_conflict, double(st));
  switch (st) {
    case Status::ok: break;
    case Status::layout_conflict: EXPECT(both_layouts); break;
    case Status::d_model_odd: EXPECT(d % 2 == 1, double(d)); break;
    case Status::d_model_too_small: EXPECT(d < 4, double(d)); break;
    case Status::bad_freq_shift: EXPECT(o.freq_shift.has_value()); break;
    case Status::frequencies_not_finite: break;
    default: EXPECT(!"an unexpected status from make_plan", double(st));
  }
}

// Largest |angle| the plan can make for positions up to max_abs_p, or inf.
double max_angle(const std::vector<double>& freq, double max_abs_p) {
  double w = 0;
  for (double f : freq) {
    if (!std::isfinite(f)) return kInf;
    w = std::fmax(w, std::fabs(f));
  }
  return w * max_abs_p;
}

// Values from a successful call: finite, bounded, matching the other path and,
// when well conditioned, the reference.
void check_values(const Setup& s, int d, const std::vector<double>& positions, const float* best,
                  const float* scalar, double angle) {
  const bool compare_ref = angle <= kConditioned;
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

void fuzz_rows(Reader& r, const Setup& s, const sinpe::Plan& plan, bool add) {
  const int d = plan.d_model();
  const double start = position_value(r);
  const std::size_t count = count_value(r);
  const bool range = range_ok(start, count);
  EXPECT((sinpe::check_row_range(start, count) == Status::ok) == range, start, double(count));
  const bool fits = count <= kBudget / std::size_t(d);
  if (!fits) {
    // Too big to hand a real buffer: a null one must be refused.
    const auto st =
        add ? sinpe::add_rows(plan, start, count, nullptr) : sinpe::rows(plan, start, count, nullptr);
    EXPECT(st != Status::ok, start, double(count));
    return;
  }
  Guarded<float> a(count * std::size_t(d)), b(count * std::size_t(d));
  if (add)  // add onto zeros so the sum stays checkable
    for (std::size_t i = 0; i < a.n; ++i) a.data[i] = b.data[i] = 0.f;
  const auto st =
      add ? sinpe::add_rows(plan, start, count, a.data.get()) : sinpe::rows(plan, start, count, a.data.get());
  if (!range) EXPECT(st != Status::ok, start, double(count));
  if (st != Status::ok) {
    bool zeros = true;
    for (std::size_t i = 0; i < a.n; ++i) zeros = zeros && a.data[i] == 0.f;
    EXPECT(add ? zeros : a.untouched(), double(st));
    return;
  }
  EXPECT(range, start, double(count));
  const auto st2 = add ? sinpe::add_rows(plan, start, count, b.data.get(), sinpe::Path::scalar)
                       : sinpe::rows(plan, start, count, b.data.get(), sinpe::Path::scalar);
  EXPECT(st2 == Status::ok, double(st2));
  if (count > 0) EXPECT(sinpe::rows(plan, start, count, nullptr) == Status::null_pointer);
  std::vector<double> pos(count);
  for (std::size_t i = 0; i < count; ++i) pos[i] = start + double(i);
  const double angle =
      max_angle(plan.frequencies(), std::fmax(std::fabs(start), std::fabs(start + double(count))));
  check_values(s, d, pos, a.data.get(), b.data.get(), angle);
}

void fuzz_encode(Reader& r, const Setup& s, const sinpe::Plan& plan) {
  const int d = plan.d_model();
  std::size_t n = r.u8() % 80;
  if (n > kBudget / std::size_t(d)) n = kBudget / std::size_t(d);
  bool valid;
  double max_abs;
  const auto pos = positions_value(r, n, &valid, &max_abs);
  Guarded<float> a(n * std::size_t(d)), b(n * std::size_t(d));
  const auto st = sinpe::encode(plan, pos.data(), n, a.data.get());
  EXPECT((st == Status::ok) == valid, double(st));
  if (st != Status::ok) {
    EXPECT(st == Status::position_not_finite || st == Status::position_out_of_range, double(st));
    EXPECT(a.untouched());
    return;
  }
  EXPECT(sinpe::encode(plan, pos.data(), n, b.data.get(), sinpe::Path::scalar) == Status::ok);
  if (n > 0) EXPECT(sinpe::encode(plan, pos.data(), n, nullptr) == Status::null_pointer);
  check_values(s, d, pos, a.data.get(), b.data.get(), max_angle(plan.frequencies(), max_abs));
}

void fuzz_grid(Reader& r, const Setup& s, int d) {
  sinpe::Plan axis;
  const auto ps = sinpe::make_grid_plan(s.opt, d, &axis);
  if (ps != Status::ok) {
    EXPECT(!axis.valid());
    if (d >= 1 && d <= 65536 && d % 2 == 0) {
      // The only grid-specific failure is an axis width the preset cannot take.
      sinpe::Plan p;
      const auto st1 = sinpe::make_plan(s.opt, d / 2, &p);
      EXPECT(st1 != Status::ok, double(st1));
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
    EXPECT(sinpe::grid2d(axis, H, W, cls, first, count, nullptr) != Status::ok);
    return;
  }
  Guarded<float> a(count * std::size_t(d)), b(count * std::size_t(d));
  const auto st = sinpe::grid2d(axis, H, W, cls, first, count, a.data.get());
  EXPECT((st == Status::ok) == window_ok, double(st));
  if (st != Status::ok) {
    EXPECT(a.untouched());
    return;
  }
  EXPECT(sinpe::grid2d(axis, H, W, cls, first, count, b.data.get(), sinpe::Path::scalar) == Status::ok);
  const double angle = max_angle(axis.frequencies(), double(H > W ? H : W));
  const bool compare_ref = angle <= kConditioned && d <= 4096;
  std::vector<double> want;
  if (compare_ref) want = ref::grid2d(s.prm, int(H), int(W), d, cls);
  for (std::size_t i = 0; i < count * std::size_t(d); ++i) {
    const double v = a.data[i], w = b.data[i];
    if (std::isfinite(angle)) {
      EXPECT(std::isfinite(v) && std::fabs(v) <= 1 + kTol, v);
      EXPECT(std::fabs(v - w) <= 2 * kTol, v, w);
    }
    if (compare_ref)
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
    case 1:
      vmin = -0.5;
      vmax = 0.25;
      break;
    case 2: vmin = vmax = 0.5; break;
    case 3: vmin = kNaN; break;
    default:
      vmin = r.f64();
      vmax = r.f64();
      break;
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
  EXPECT((st == Status::ok) == valid, double(st));
  if (st != Status::ok) {
    EXPECT(out.untouched());
    return;
  }
  if (px == 0) return;
  std::vector<float> vals(count * std::size_t(d));
  EXPECT(sinpe::rows(plan, start, count, vals.data()) == Status::ok);
  // rows are the float64 values rounded once, the heatmap colours the float32 kernel's (within the
  // contract of them): the two agree to an index only where the angles are well conditioned.
  const double angle =
      max_angle(plan.frequencies(), std::fmax(std::fabs(start), std::fabs(start + double(count))));
  if (!(angle <= kConditioned)) return;
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

void fuzz_sinusoidal(Reader& r, int op) {
  int d = 0;
  const Setup s = read_sinusoidal(r, &d);
  char head[160];
  std::snprintf(head, sizeof head, "op=%d preset=%d (%s) layout=%d d=%d", op, int(s.opt.preset),
                valid_preset(s.opt.preset) ? sinpe::preset_name(s.opt.preset) : "out of range",
                int(s.opt.layout), d);
  g_call = head;
  describe(s.opt);

  if (op == 4) {
    fuzz_grid(r, s, d);
    return;
  }
  sinpe::Plan plan;
  const auto ps = sinpe::make_plan(s.opt, d, &plan);
  g_call += std::string(" -> ") + sinpe::status_name(ps);
  check_plan_status(s.opt, d, ps);
  if (ps != Status::ok) {
    EXPECT(!plan.valid());  // untouched
    return;
  }
  EXPECT(plan.d_model() == d && plan.pairs() == d / 2);
  EXPECT(plan.frequencies().size() == std::size_t(d / 2 + (plan.odd_column() == sinpe::OddColumn::sine)));
  switch (op) {
    case 0: fuzz_rows(r, s, plan, false); break;
    case 1: fuzz_rows(r, s, plan, true); break;
    case 2:
    case 3: fuzz_encode(r, s, plan); break;
    default: fuzz_heatmap(r, plan); break;
  }
}

// ---- RoPE ------------------------------------------------------------------------------

sinpe::RopeType rope_type_value(std::uint8_t b) {
  return sinpe::RopeType(int(b % (sinpe::kRopeTypeCount + 2)) - 1);
}
bool valid_rope_type(sinpe::RopeType t) { return int(t) >= 0 && int(t) < sinpe::kRopeTypeCount; }
Reads rope_reads(sinpe::RopeType t) {
  return valid_rope_type(t) ? expected::rope_reads(t) : Reads{nullptr, 0};
}

// A frequency the core must refuse: zero, negative, NaN, or with angles p inv
// that overflow for |p| < 2^24; an attention factor whose double is no finite float32.
// proportional's pairs beyond its fraction are 0 on purpose (`still`).
bool frequencies_bad(const std::vector<double>& inv, double att, bool still_allowed) {
  for (double x : inv)
    if (!(still_allowed && x == 0) && (!(x > 0) || !std::isfinite(x * kMaxPos))) return true;
  return !(att > 0) || !std::isfinite(float(2 * att));
}

// make_rope_plan's status against the rules; for an ok plan, inv_j and the
// attention factor against the reference. Returns whether the reference
// knows these options (it refuses yarn with neither factor nor
// originalMaxPositions, where the core takes s = maxPositions / maxPositions).
bool check_rope_plan(const sinpe::Options& o, int r, Status st, const sinpe::RopePlan& plan) {
  std::vector<Status> errors;
  if (!valid_rope_type(o.rope_type)) errors.push_back(Status::bad_rope_type);
  if (o.layout != sinpe::Layout::preset_default) errors.push_back(Status::bad_rope_layout);
  const Reads reads = rope_reads(o.rope_type);
  const std::vector<Status> option = option_errors(o, reads);
  for (Status e : option) errors.push_back(e);
  if (option.empty() && expected::find_read(reads, Option::base) &&
      !(value_or_default(o, reads, Option::base) > 1))
    errors.push_back(Status::rope_base_not_above_one);
  if (r < 2 || r > sinpe::kMaxDModel || r % 2 != 0) errors.push_back(Status::bad_rotary_dim);
  const int axes_id = int(o.rope_axes);
  if (axes_id < -1 || axes_id >= sinpe::kRopeAxesCount) errors.push_back(Status::bad_rope_axes);
  if (!errors.empty()) {
    EXPECT(contains(errors, st), double(st), double(errors[0]));
    EXPECT(!plan.valid());
    return false;
  }
  // The multi-axis layout: mropeSection alone means sectioned.
  const sinpe::RopeAxes axes =
      o.rope_axes == sinpe::RopeAxes::none && o.mrope_section ? sinpe::RopeAxes::sectioned : o.rope_axes;
  const bool pixtral = axes == sinpe::RopeAxes::pixtral;
  const bool axial = axes == sinpe::RopeAxes::axial;
  const bool pixtral_section = pixtral && o.mrope_section.has_value();
  // Both can hold at once (mropeSection given and r not a multiple of 4): the
  // core then names either, each a true cause.
  const bool pixtral_width = pixtral && r % 4 != 0;
  const bool section_missing = axes != sinpe::RopeAxes::none && !pixtral && !o.mrope_section;
  // What only the formula can tell, each with its cause.
  const std::size_t half = std::size_t(r / 2);
  // Axial: each axis a rope of rotary dimension 2 s_a, its factors s_a long.
  const auto factor_len = [&](const sinpe::NumbersOption& f) {
    if (!f) return false;
    if (!axial || !o.mrope_section) return f->size() != half;
    for (double s_a : *o.mrope_section)
      if (f->size() != std::size_t(s_a)) return true;
    return false;
  };
  const bool short_len = factor_len(o.short_factor);
  const bool long_len = factor_len(o.long_factor);
  const bool yarn_or_longrope =
      o.rope_type == sinpe::RopeType::yarn || o.rope_type == sinpe::RopeType::longrope;
  const bool no_context = yarn_or_longrope && !o.original_max_positions && !o.max_positions;
  const bool no_factor = yarn_or_longrope && !o.factor && !o.max_positions;
  // mropeSection: 1 to max_rope_axes integers adding up to r/2 (rope_plan.cpp, axes_layout).
  double section_total = 0;
  if (o.mrope_section)
    for (double v : *o.mrope_section) section_total += v;
  const bool section_sum =
      o.mrope_section && !pixtral &&
      (o.mrope_section->empty() || o.mrope_section->size() > std::size_t(sinpe::limits::max_rope_axes) ||
       section_total != double(half));
  const bool order =
      o.rope_type == sinpe::RopeType::llama3 && !(value_or_default(o, reads, Option::low_freq_factor) <
                                                  value_or_default(o, reads, Option::high_freq_factor));
  switch (st) {
    case Status::ok:
      EXPECT(!short_len && !long_len && !no_context && !no_factor && !order && !section_sum &&
             !pixtral_section && !pixtral_width && !section_missing);
      break;
    case Status::mrope_section_sum: EXPECT(section_sum); break;
    case Status::mrope_section_not_read: EXPECT(pixtral_section); break;
    case Status::rotary_dim_not_multiple_of_4: EXPECT(pixtral_width); break;
    case Status::mrope_section_missing: EXPECT(section_missing); break;
    case Status::bad_short_factor: EXPECT(short_len); break;
    case Status::bad_long_factor: EXPECT(long_len); break;
    case Status::original_max_positions_missing: EXPECT(no_context); break;
    case Status::factor_missing: EXPECT(no_factor); break;
    case Status::freq_factor_order: EXPECT(order); break;
    case Status::frequencies_not_finite: break;
    default: EXPECT(!"an unexpected status from make_rope_plan", double(st));
  }
  if (st != Status::ok && st != Status::frequencies_not_finite) {
    EXPECT(!plan.valid());
    return false;
  }
  const ref::RopeParams prm = to_rope_params(o);
  std::vector<double> inv;
  double att = 0;
  try {
    if (axial) {
      // VisionRotaryEmbedding per axis; the attention factor depends on no rotary dimension.
      for (double s_a : *o.mrope_section) {
        const auto part = ref::rope_inv_freq(prm, int(2 * s_a));
        inv.insert(inv.end(), part.begin(), part.end());
      }
      att = ref::rope_attention(prm, int(2 * (*o.mrope_section)[0]));
    } else {
      inv = ref::rope_inv_freq(prm, r);
      att = ref::rope_attention(prm, r);
    }
    if (pixtral) {  // PixtralRotaryEmbedding: freqs[::2] for the row, then freqs[1::2] for the column
      std::vector<double> perm;
      for (std::size_t j = 0; j < half; j += 2) perm.push_back(inv[j]);
      for (std::size_t j = 1; j < half; j += 2) perm.push_back(inv[j]);
      inv = perm;
    }
  } catch (const std::invalid_argument&) {
    EXPECT(o.rope_type == sinpe::RopeType::yarn && !o.factor && !o.original_max_positions, double(st));
    return false;
  }
  if (st == Status::frequencies_not_finite) {
    EXPECT(frequencies_bad(
        inv, att, o.rope_type == sinpe::RopeType::proportional));  // the reference's frequencies overflow too
    EXPECT(!plan.valid());
    return false;
  }
  EXPECT(!frequencies_bad(inv, att, o.rope_type == sinpe::RopeType::proportional));
  EXPECT(plan.valid() && plan.rotary_dim() == r && plan.inv_freq().size() == half);
  for (std::size_t j = 0; j < half; ++j)
    EXPECT(std::fabs(plan.inv_freq()[j] - inv[j]) <= kFreqTol * inv[j], plan.inv_freq()[j], inv[j]);
  EXPECT(std::fabs(plan.attention_factor() - att) <= kFreqTol * att, plan.attention_factor(), att);
  EXPECT(plan.axes() == (axes == sinpe::RopeAxes::none ? 1
                         : pixtral                     ? 2
                                                       : int(o.mrope_section->size())),
         double(plan.axes()));
  // The one-position reference (ref::rope_cache) has the rope type's own frequencies, not these.
  return !axial && !pixtral;
}

// Cache values from a successful call: finite, within the amplitude, both
// paths agreeing, and when well conditioned within the contract of the reference.
void check_cache(const sinpe::RopePlan& plan, const ref::RopeParams* prm, const std::vector<double>& pos,
                 const float* cos, const float* sin, const float* cos2, const float* sin2, double max_abs) {
  const int r = plan.rotary_dim();
  const std::size_t half = std::size_t(r / 2);
  const double att = plan.attention_factor(), tol = kTol * std::fmax(1.0, att);
  const bool compare_ref = prm && max_angle(plan.inv_freq(), max_abs) <= kConditioned;
  std::vector<double> want_cos, want_sin;
  if (compare_ref) ref::rope_cache(*prm, r, pos, want_cos, want_sin);
  for (std::size_t i = 0; i < pos.size() * half; ++i) {
    for (double v : {double(cos[i]), double(sin[i])})
      EXPECT(std::isfinite(v) && std::fabs(v) <= att + tol, v, att);
    EXPECT(std::fabs(double(cos[i]) - cos2[i]) <= 2 * tol, cos[i], cos2[i]);
    EXPECT(std::fabs(double(sin[i]) - sin2[i]) <= 2 * tol, sin[i], sin2[i]);
    if (compare_ref) {
      EXPECT(std::fabs(cos[i] - want_cos[i]) <= tol, cos[i], want_cos[i]);
      EXPECT(std::fabs(sin[i] - want_sin[i]) <= tol, sin[i], want_sin[i]);
    }
  }
}

void fuzz_rope_cache(Reader& r, const sinpe::RopePlan& plan, const ref::RopeParams* prm) {
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  std::size_t n = r.u8() % 80;
  if (n > kBudget / half) n = kBudget / half;
  bool valid;
  double max_abs;
  const auto pos = positions_value(r, n, &valid, &max_abs);
  Guarded<float> c(n * half), s(n * half), c2(n * half), s2(n * half);
  const Status st = sinpe::rope_cache(plan, sinpe::Positions::list(pos.data(), n),
                                      {sinpe::Dtype::float32, c.data.get(), s.data.get()});
  EXPECT((st == Status::ok) == valid, double(st));
  if (st != Status::ok) {
    EXPECT(st == Status::position_not_finite || st == Status::position_out_of_range, double(st));
    EXPECT(c.untouched() && s.untouched());
    return;
  }
  EXPECT(sinpe::rope_cache(plan, sinpe::Positions::list(pos.data(), n),
                           {sinpe::Dtype::float32, c2.data.get(), s2.data.get()},
                           sinpe::Path::scalar) == Status::ok);
  if (n > 0)
    EXPECT(sinpe::rope_cache(plan, sinpe::Positions::list(pos.data(), n),
                             {sinpe::Dtype::float32, c.data.get(), nullptr}) == Status::null_pointer);
  check_cache(plan, prm, pos, c.data.get(), s.data.get(), c2.data.get(), s2.data.get(), max_abs);
}

void fuzz_rope_cache_rows(Reader& r, const sinpe::RopePlan& plan, const ref::RopeParams* prm) {
  const std::size_t half = std::size_t(plan.rotary_dim() / 2);
  const double start = position_value(r);
  const std::size_t count = count_value(r);
  const bool range = range_ok(start, count);
  if (count > kBudget / half) {
    EXPECT(sinpe::rope_cache(plan, sinpe::Positions::range(start, count),
                             {sinpe::Dtype::float32, nullptr, nullptr}) != Status::ok,
           start, double(count));
    return;
  }
  Guarded<float> c(count * half), s(count * half), c2(count * half), s2(count * half);
  const Status st = sinpe::rope_cache(plan, sinpe::Positions::range(start, count),
                                      {sinpe::Dtype::float32, c.data.get(), s.data.get()});
  EXPECT((st == Status::ok) == range, double(st), start);
  if (st != Status::ok) {
    EXPECT(st == Status::bad_start || st == Status::position_out_of_range, double(st));
    EXPECT(c.untouched() && s.untouched());
    return;
  }
  EXPECT(sinpe::rope_cache(plan, sinpe::Positions::range(start, count),
                           {sinpe::Dtype::float32, c2.data.get(), s2.data.get()},
                           sinpe::Path::scalar) == Status::ok);
  if (count > 0)
    EXPECT(sinpe::rope_cache(plan, sinpe::Positions::range(start, count),
                             {sinpe::Dtype::float32, nullptr, s.data.get()}) == Status::null_pointer);
  std::vector<double> pos(count);
  for (std::size_t i = 0; i < count; ++i) pos[i] = start + double(i);
  const double max_abs = count ? std::fmax(std::fabs(start), std::fabs(start + double(count) - 1)) : 0;
  check_cache(plan, prm, pos, c.data.get(), s.data.get(), c2.data.get(), s2.data.get(), max_abs);
}

void fuzz_apply(Reader& r, const sinpe::RopePlan& plan, const ref::RopeParams* prm, std::uint8_t flags) {
  const int rd = plan.rotary_dim();
  // flags bit 0: the layout; bits 5-6 both set: an out-of-range one (2 or -1).
  sinpe::RopeLayout layout = (flags & 1) ? sinpe::RopeLayout::interleaved : sinpe::RopeLayout::half;
  if ((flags & 0x60) == 0x60) layout = sinpe::RopeLayout((flags & 2) ? 2 : -1);
  const std::uint8_t hk = r.u8();
  int hd = rd;
  switch (hk % 8) {
    case 0:
    case 1:
    case 2:
    case 3: break;
    case 4: hd = rd + int(r.u8() % 20); break;     // partial rotary
    case 5: hd = rd - 1 - int(r.u8() % 4); break;  // narrower than the rotation
    case 6: hd = -int(r.u8() % 3); break;
    default: hd = int(r.u32()); break;
  }
  const std::uint8_t heads_kind = r.u8();
  std::size_t heads = 1 + heads_kind % 5;
  if (heads_kind >= 0xF0) heads = heads_kind == 0xFF ? std::size_t(r.u32()) << 20 : 0;
  std::size_t n = r.u8() % 80;
  bool valid;
  double max_abs;
  std::vector<Status> errors;
  if (int(layout) != int(sinpe::RopeLayout::half) && int(layout) != int(sinpe::RopeLayout::interleaved))
    errors.push_back(Status::bad_rope_layout);
  if (hd < 1 || hd > sinpe::kMaxDModel) errors.push_back(Status::bad_head_dim);
  else if (rd > hd) errors.push_back(Status::rotary_dim_above_head_dim);
  const bool huge = hd > 0 && heads > 0 && n > sinpe::kMaxElements / heads / std::size_t(hd);
  if (errors.empty() && huge) errors.push_back(Status::too_large);
  if (hd <= 0 || heads == 0 || n > kBudget / heads / std::size_t(hd)) {
    // Too big to hand a real buffer (or nothing to rotate): a null one must never give ok with work to do.
    const auto pos = positions_value(r, n, &valid, &max_abs);
    const Status st =
        sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(pos.data(), n), heads, nullptr);
    if (!errors.empty()) EXPECT(contains(errors, st), double(st));
    if (n > 0 && heads > 0) EXPECT(st != Status::ok, double(st));
    return;
  }
  const std::size_t row = std::size_t(hd) * heads;
  const auto pos = positions_value(r, n, &valid, &max_abs);
  if (errors.empty() && n > 0 && heads > 0 && !valid)
    errors = {Status::position_not_finite, Status::position_out_of_range};
  // x: int16 / 256 scaled by a power of two.
  const int shift = int(r.u8() % 41) - 20;
  Guarded<float> x(n * row), x2(n * row);
  std::vector<float> x0(n * row);
  for (std::size_t i = 0; i < x0.size(); ++i) x0[i] = std::ldexp(float(std::int16_t(r.u16())) / 256.f, shift);
  if (!x0.empty()) {
    std::memcpy(x.data.get(), x0.data(), x0.size() * sizeof(float));
    std::memcpy(x2.data.get(), x0.data(), x0.size() * sizeof(float));
  }
  const Status st =
      sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(pos.data(), n), heads, x.data.get());
  if (!errors.empty()) {
    EXPECT(contains(errors, st), double(st), double(errors[0]));
    EXPECT(x0.empty() || std::memcmp(x.data.get(), x0.data(), x0.size() * sizeof(float)) == 0);
    return;
  }
  EXPECT(st == Status::ok, double(st));
  EXPECT(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::list(pos.data(), n), heads, x2.data.get(),
                           sinpe::Path::scalar) == Status::ok);
  if (n == 0 || heads == 0) return;
  const double att = plan.attention_factor(), amp = std::fmax(1.0, att);
  double largest = 0;
  for (float v : x0) largest = std::fmax(largest, std::fabs(double(v)));
  // Products att * x beyond the float range are inf in float32 but not in the reference.
  const bool representable = 2 * att * largest < 1e38;
  const bool compare_ref = prm && representable && max_angle(plan.inv_freq(), max_abs) <= kConditioned;
  std::vector<double> want;
  if (compare_ref)
    want =
        ref::rope_rotate(*prm, x0, pos, hd, rd, layout == sinpe::RopeLayout::half ? "half" : "interleaved");
  const std::size_t half = std::size_t(rd / 2);
  for (std::size_t v = 0; v < n * heads; ++v)
    for (std::size_t i = 0; i < std::size_t(hd); ++i) {
      const std::size_t at = v * std::size_t(hd) + i;
      const double got = x.data[at];
      if (i >= std::size_t(rd)) {
        EXPECT(std::memcmp(&x.data[at], &x0[at], sizeof(float)) == 0, got, x0[at]);
        EXPECT(std::memcmp(&x2.data[at], &x0[at], sizeof(float)) == 0, double(x2.data[at]), x0[at]);
        continue;
      }
      const std::size_t partner =
          layout == sinpe::RopeLayout::half ? (i < half ? i + half : i - half) : (i ^ std::size_t(1));
      const double tol = kRotateTol * amp *
                         (std::fabs(double(x0[at])) + std::fabs(double(x0[v * std::size_t(hd) + partner])));
      if (representable) {
        EXPECT(std::isfinite(got), got);
        EXPECT(std::fabs(got - x2.data[at]) <= 2 * tol, got, x2.data[at]);
      }
      if (compare_ref) EXPECT(std::fabs(got - want[at]) <= tol, got, want[at]);
    }
}

// ---- multi-axis and half-precision RoPE ----------------------------------------------

// Token-major positions of n tokens x A axes; a token's axes agree when `same`.
std::vector<double> axes_positions(Reader& r, std::size_t n, std::size_t A, bool* valid, double* max_abs) {
  const bool same = r.u8() & 1;
  std::vector<double> pos(n * A);
  *valid = true;
  *max_abs = 0;
  for (std::size_t i = 0; i < n * A; ++i) {
    pos[i] = same && i % A != 0 ? pos[i - i % A] : position_value(r);
    if (!std::isfinite(pos[i]) || std::fabs(pos[i]) >= kMaxPos) *valid = false;
    else *max_abs = std::fmax(*max_abs, std::fabs(pos[i]));
  }
  return pos;
}

bool axes_agree(const std::vector<double>& pos, std::size_t A) {
  for (std::size_t i = 0; i < pos.size(); ++i)
    if (!(pos[i] == pos[i - i % A])) return false;
  return true;
}

// Half values against the float32 cache of the same positions: wherever the
// float32 value is farther than the contract from a rounding boundary, the
// half value is its rounding (the float64 value rounds the same way).
void check_half_against(const sinpe::RopePlan& plan, sinpe::Dtype dtype, const std::uint16_t* bits,
                        const float* f32, std::size_t count) {
  const double e = kTol * std::fmax(1.0, plan.attention_factor());
  const auto round = dtype == sinpe::Dtype::float16 ? sinpe::round_to_float16 : sinpe::round_to_bfloat16;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint16_t lo = round(double(f32[i]) - e), hi = round(double(f32[i]) + e);
    if (lo == hi) EXPECT(bits[i] == lo, double(bits[i]), double(lo));
  }
}

void fuzz_axes(Reader& r, const sinpe::RopePlan& plan, std::uint8_t flags) {
  const std::uint8_t sub = r.u8();
  const std::size_t A = std::size_t(plan.axes()), half = std::size_t(plan.rotary_dim() / 2);
  // The half-precision calls' dtype: float16, bfloat16, or not a dtype (the
  // index one beyond the end, and float32's: a float32 CacheOut is the float
  // calls', whose destinations are floats).
  const sinpe::Dtype picked = sinpe::Dtype(int(sub >> 2) % (sinpe::kDtypeCount + 1));
  const sinpe::Dtype dtype = picked == sinpe::Dtype::float32 ? sinpe::Dtype(sinpe::kDtypeCount) : picked;
  const bool is_half = dtype == sinpe::Dtype::float16 || dtype == sinpe::Dtype::bfloat16;
  const double att = plan.attention_factor(), tol = kTol * std::fmax(1.0, att);
  // cos and sin reach the attention factor; float16's largest finite value is
  // 65504 and its ulp there 32, so from 65520 on round-to-nearest-even gives inf.
  const bool half_overflows = dtype == sinpe::Dtype::float16 && att >= 65520.0;
  const Status half_ok = !is_half         ? Status::bad_dtype
                         : half_overflows ? Status::float16_overflow
                                          : Status::ok;
  switch (sub % 4) {
    case 0:
    case 3: {  // rope_cache_axes, float32 (0) or a dtype (3)
      std::size_t n = r.u8() % 80;
      if (n > kBudget / half) n = kBudget / half;
      bool valid;
      double max_abs;
      const auto pos = axes_positions(r, n, A, &valid, &max_abs);
      Guarded<float> c(n * half), s(n * half), c2(n * half), s2(n * half);
      Status st = sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                                    {sinpe::Dtype::float32, c.data.get(), s.data.get()});
      EXPECT((st == Status::ok) == valid, double(st));
      if (st != Status::ok) {
        EXPECT(c.untouched() && s.untouched());
        return;
      }
      EXPECT(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                               {sinpe::Dtype::float32, c2.data.get(), s2.data.get()},
                               sinpe::Path::scalar) == Status::ok);
      for (std::size_t i = 0; i < n * half; ++i) {
        for (double v : {double(c.data[i]), double(s.data[i])})
          EXPECT(std::isfinite(v) && std::fabs(v) <= att + tol, v);
        EXPECT(std::fabs(double(c.data[i]) - c2.data[i]) <= 2 * tol, c.data[i], c2.data[i]);
        EXPECT(std::fabs(double(s.data[i]) - s2.data[i]) <= 2 * tol, s.data[i], s2.data[i]);
      }
      if (axes_agree(pos, A)) {  // text tokens: the one-position cache
        std::vector<double> first(n);
        for (std::size_t i = 0; i < n; ++i) first[i] = pos[i * A];
        EXPECT(sinpe::rope_cache(plan, sinpe::Positions::list(first.data(), n),
                                 {sinpe::Dtype::float32, c2.data.get(), s2.data.get()}) == Status::ok);
        for (std::size_t i = 0; i < n * half; ++i)
          EXPECT(std::fabs(double(c.data[i]) - c2.data[i]) <= 2 * tol, c.data[i], c2.data[i]);
      }
      if (sub % 4 != 3) return;
      Guarded<std::uint16_t> hc(n * half), hs(n * half);
      st = sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                             {dtype, hc.data.get(), hs.data.get()});
      EXPECT(st == half_ok, double(st), double(half_ok));
      if (st != Status::ok) {
        EXPECT(hc.untouched() && hs.untouched());
        return;
      }
      check_half_against(plan, dtype, hc.data.get(), c.data.get(), n * half);
      check_half_against(plan, dtype, hs.data.get(), s.data.get(), n * half);
      // A text token at an integer position: rope_cache_rows gives the same half values.
      if (axes_agree(pos, A) && n > 0 && std::floor(pos[0]) == pos[0]) {
        Guarded<std::uint16_t> rc(1 * half), rs(1 * half);
        EXPECT(sinpe::rope_cache(plan, sinpe::Positions::range(pos[0], 1),
                                 {dtype, rc.data.get(), rs.data.get()}) == Status::ok);
        EXPECT(std::memcmp(rc.data.get(), hc.data.get(), half * 2) == 0);
      }
      return;
    }
    case 1: {                                                             // apply_rope_axes
      int hd = plan.rotary_dim() + int(r.u8() % 5) * 2 * int(flags & 1);  // partial rotary
      if (hd > sinpe::kMaxDModel) hd = plan.rotary_dim();
      const std::size_t heads = 1 + r.u8() % 3;
      std::size_t n = r.u8() % 40;
      if (n * heads * std::size_t(hd) > kBudget) n = 0;
      bool valid;
      double max_abs;
      const auto pos = axes_positions(r, n, A, &valid, &max_abs);
      const std::size_t len = n * heads * std::size_t(hd);
      std::vector<float> x0(len);
      for (std::size_t i = 0; i < len; ++i) x0[i] = float(std::int16_t(r.u16())) / 256.f;
      Guarded<float> x(len), x2(len);
      if (len) {
        std::memcpy(x.data.get(), x0.data(), len * sizeof(float));
        std::memcpy(x2.data.get(), x0.data(), len * sizeof(float));
      }
      const Status st = sinpe::apply_rope(plan, sinpe::RopeLayout::half, hd,
                                          sinpe::Positions::axes(pos.data(), n), heads, x.data.get());
      EXPECT((st == Status::ok) == (valid || n == 0), double(st));
      if (st != Status::ok) {
        EXPECT(len == 0 || std::memcmp(x.data.get(), x0.data(), len * sizeof(float)) == 0);
        return;
      }
      EXPECT(sinpe::apply_rope(plan, sinpe::RopeLayout::half, hd, sinpe::Positions::axes(pos.data(), n),
                               heads, x2.data.get(), sinpe::Path::scalar) == Status::ok);
      for (std::size_t v = 0; v < n * heads; ++v)
        for (std::size_t i = 0; i < std::size_t(hd); ++i) {
          const std::size_t at = v * std::size_t(hd) + i;
          if (i >= 2 * half) {
            EXPECT(std::memcmp(&x.data[at], &x0[at], sizeof(float)) == 0);
            continue;
          }
          const std::size_t partner = v * std::size_t(hd) + (i < half ? i + half : i - half);
          const double t =
              kRotateTol * std::fmax(1.0, att) * (std::fabs(double(x0[at])) + std::fabs(double(x0[partner])));
          EXPECT(std::fabs(double(x.data[at]) - x2.data[at]) <= 2 * t + 1e-30, x.data[at], x2.data[at]);
        }
      return;
    }
    default: {  // rope_cache_grid, a range of patches
      const std::size_t h = r.u8() & 0x80 ? std::size_t(r.u32()) : std::size_t(r.u8() % 40);
      const std::size_t w = r.u8() & 0x80 ? std::size_t(r.u32()) : std::size_t(r.u8() % 40);
      const std::size_t first = r.u8() % 50, count = r.u8() % 60;
      const bool big = h > std::size_t(kMaxPos) || w > std::size_t(kMaxPos);
      const bool huge = !big && w != 0 && h > sinpe::kMaxElements / w;
      const bool beyond = !big && !huge && (first > h * w || count > h * w - first);
      Guarded<float> c(count * half), s(count * half);
      Guarded<std::uint16_t> hc(count * half), hs(count * half);
      const Status st = sinpe::rope_cache(plan, sinpe::Positions::grid(h, w, first, count),
                                          {sinpe::Dtype::float32, c.data.get(), s.data.get()});
      const Status sth = sinpe::rope_cache(plan, sinpe::Positions::grid(h, w, first, count),
                                           {dtype, hc.data.get(), hs.data.get()});
      if (A != 2)
        EXPECT(st == Status::axes_mismatch && sth == Status::axes_mismatch, double(st), double(sth));
      else if (big || beyond)
        EXPECT(st == Status::bad_count && sth == Status::bad_count, double(st), double(sth));
      else if (huge) EXPECT(st == Status::too_large && sth == Status::too_large, double(st), double(sth));
      else {
        EXPECT(st == Status::ok, double(st));
        EXPECT(sth == half_ok, double(sth), double(half_ok));
      }
      if (st != Status::ok) EXPECT(c.untouched() && s.untouched());
      if (sth != Status::ok) EXPECT(hc.untouched() && hs.untouched());
      if (st != Status::ok || count == 0) return;
      std::vector<double> pos(2 * count);
      for (std::size_t m = 0; m < count; ++m) {
        pos[2 * m] = double((first + m) / w);
        pos[2 * m + 1] = double((first + m) % w);
      }
      Guarded<float> c2(count * half), s2(count * half);
      EXPECT(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), count),
                               {sinpe::Dtype::float32, c2.data.get(), s2.data.get()}) == Status::ok);
      for (std::size_t i = 0; i < count * half; ++i) {
        EXPECT(std::fabs(double(c.data[i]) - c2.data[i]) <= 2 * tol, c.data[i], c2.data[i]);
        EXPECT(std::fabs(double(s.data[i]) - s2.data[i]) <= 2 * tol, s.data[i], s2.data[i]);
      }
      if (sth != Status::ok) return;
      Guarded<std::uint16_t> hc2(count * half), hs2(count * half);
      EXPECT(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), count),
                               {dtype, hc2.data.get(), hs2.data.get()}) == Status::ok);
      EXPECT(std::memcmp(hc.data.get(), hc2.data.get(), count * half * 2) == 0);
      EXPECT(std::memcmp(hs.data.get(), hs2.data.get(), count * half * 2) == 0);
      check_half_against(plan, dtype, hc.data.get(), c.data.get(), count * half);
      return;
    }
  }
}

void fuzz_rope(Reader& r, int op) {
  sinpe::Options o;
  o.rope_type = rope_type_value(r.u8());
  const std::uint8_t flags = r.u8();
  if ((flags & 0x1C) == 0x1C) o.layout = layout_value(r.u8());  // a sinusoidal layout: no meaning for RoPE
  if (flags & 0x80) o.rope_axes = sinpe::RopeAxes(int(r.u8() % (sinpe::kRopeAxesCount + 3)) - 2);
  const std::uint8_t rk = r.u8();
  const int rd = width_value(r, rk);
  const Reads reads = rope_reads(o.rope_type);
  for (std::size_t i = 0; i < reads.count; ++i) read_slot(r, o, reads.first[i].option, reads, true, rd);
  read_extras(r, o, reads, true, rd);
  char head[160];
  std::snprintf(head, sizeof head, "rope op=%d type=%d (%s) layout=%d axes=%d flags=%d rotaryDim=%d", op,
                int(o.rope_type),
                valid_rope_type(o.rope_type) ? sinpe::rope_type_name(o.rope_type) : "out of range",
                int(o.layout), int(o.rope_axes), int(flags), rd);
  g_call = head;
  describe(o);

  sinpe::RopePlan plan;
  const Status st = sinpe::make_rope_plan(o, rd, &plan);
  g_call += std::string(" -> ") + sinpe::status_name(st);
  const bool ref_ok = check_rope_plan(o, rd, st, plan);
  if (st != Status::ok) return;
  const ref::RopeParams prm = to_rope_params(o);
  const ref::RopeParams* p = ref_ok ? &prm : nullptr;
  switch (op) {
    case 0: fuzz_rope_cache(r, plan, p); break;
    case 1: fuzz_rope_cache_rows(r, plan, p); break;
    case 2: fuzz_apply(r, plan, p, flags); break;
    default: fuzz_axes(r, plan, flags); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r{data, size};
  const std::uint8_t op = r.u8();
  if (op < 0x80) fuzz_sinusoidal(r, op % 6);
  else fuzz_rope(r, op % 4);
  // SINPE_FUZZ_VERBOSE=1: print each decoded call (to see what a regression input does).
  static const bool verbose = std::getenv("SINPE_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "call: %s\n", g_call.c_str());
  return 0;
}
