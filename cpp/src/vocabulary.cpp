// Names and tables generated from vocabulary.def, and the generic option checks.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "options.hpp"

namespace sinpe {

const char* status_name(Status s) noexcept {
  switch (s) {
// clang-format off
#define SINPE_STATUS(id, error, argument, message) \
  case Status::id: \
    return #id;
#include "sinpe/vocabulary.def"
// clang-format on
// clang-format off
#define SINPE_OPTION(id, name, type, rule, config_key, doc) \
  case Status::bad_##id: return "bad_" #id; \
  case Status::id##_not_read: return #id "_not_read"; \
  case Status::id##_missing: return #id "_missing";
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return "unknown";
}

const char* preset_name(Preset p) noexcept {
  switch (p) {
// clang-format off
#define SINPE_PRESET(id, name, layout, ...) \
  case Preset::id: return name;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return "unknown";
}

const char* rope_type_name(RopeType t) noexcept {
  switch (t) {
// clang-format off
#define SINPE_ROPE_TYPE(id, name, ...) \
  case RopeType::id: return name;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return "unknown";
}

const char* layout_name(Layout l) noexcept {
  switch (l) {
    case Layout::preset_default:
      return "preset-default";
// clang-format off
#define SINPE_LAYOUT(id, name) \
  case Layout::id: return name;
#include "sinpe/vocabulary.def"
      // clang-format on
  }
  return "unknown";
}

const char* rope_layout_name(RopeLayout l) noexcept {
  switch (l) {
// clang-format off
#define SINPE_ROPE_LAYOUT(id, name) \
  case RopeLayout::id: return name;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return "unknown";
}

const char* dtype_name(Dtype t) noexcept {
  switch (t) {
// clang-format off
#define SINPE_DTYPE(id, name, bytes) \
  case Dtype::id: return name;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return "unknown";
}

const char* recipe_name(Recipe r) noexcept {
  switch (r) {
// clang-format off
#define SINPE_RECIPE(id, name) \
  case Recipe::id: return name;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return "unknown";
}

const char* rope_axes_name(RopeAxes a) noexcept {
  switch (a) {
    case RopeAxes::none:
      return "none";
// clang-format off
#define SINPE_ROPE_AXES(id, name) \
  case RopeAxes::id: return name;
#include "sinpe/vocabulary.def"
      // clang-format on
  }
  return "unknown";
}

const char* version() noexcept { return SINPE_VERSION; }

const char* option_name(Option o) noexcept {
  const int i = int(o);
  return i >= 0 && i < kOptionCount ? detail::kOptionInfo[i].name : "unknown";
}

bool Options::operator==(const Options& o) const {
  if (preset != o.preset || rope_type != o.rope_type || layout != o.layout || rope_axes != o.rope_axes)
    return false;
  // Bitwise for numbers, so that a given NaN equals itself (a cache key).
  const auto same = [](const auto& a, const auto& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a.has_value()) return true;
    using T = std::decay_t<decltype(*a)>;
    if constexpr (std::is_same_v<T, double>) return std::memcmp(&*a, &*b, sizeof(double)) == 0;
    else if constexpr (std::is_same_v<T, bool>) return *a == *b;
    else return a->size() == b->size() && std::memcmp(a->data(), b->data(), a->size() * sizeof(double)) == 0;
  };
// clang-format off
#define SINPE_OPTION(id, name, type, rule, config_key, doc) \
  if (!same(id, o.id)) return false;
#include "sinpe/vocabulary.def"
  // clang-format on
  return true;
}

namespace detail {

const OptionInfo kOptionInfo[kOptionCount] = {
#define SINPE_OPTION(id, name, type, rule, config_key, doc) {name, Kind::type, Rule::rule, config_key, doc},
#include "sinpe/vocabulary.def"
};

namespace {

struct NoDefault {};
struct Required {};
constexpr Read read_of(Option o, double v) { return {o, Read::Default::value, v}; }
constexpr Read read_of(Option o, NoDefault) {
  return {o, Read::Default::none, std::numeric_limits<double>::quiet_NaN()};
}
constexpr Read read_of(Option o, Required) {
  return {o, Read::Default::required, std::numeric_limits<double>::quiet_NaN()};
}

#define SINPE_READ(option, value) read_of(Option::option, value)
// clang-format off
#define SINPE_NONE \
  NoDefault {}
#define SINPE_REQUIRED \
  Required {}
#define SINPE_PRESET(id, name, layout, ...) constexpr Read preset_##id[] = {__VA_ARGS__};
#define SINPE_ROPE_TYPE(id, name, ...) constexpr Read rope_##id[] = {__VA_ARGS__};
#include "sinpe/vocabulary.def"
// clang-format on
#undef SINPE_READ
#undef SINPE_NONE
#undef SINPE_REQUIRED

template <std::size_t N>
constexpr Reads reads_of(const Read (&r)[N]) {
  return {r, N};
}

bool follows_rule(Rule rule, double v) {
  switch (rule) {
    case Rule::positive: return std::isfinite(v) && v > 0;
    case Rule::finite: return std::isfinite(v);
    case Rule::index:
      return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < limits::max_abs_position;
    case Rule::count: return std::isfinite(v) && v == std::floor(v) && v >= 1 && v < limits::max_abs_position;
    case Rule::length:
      return std::isfinite(v) && v == std::floor(v) && v >= 1 && v <= limits::max_abs_position;
    case Rule::fraction: return std::isfinite(v) && v > 0 && v <= 1;
    case Rule::any: return true;
  }
  return false;
}

constexpr int kFirstOptionStatus = 0
#define SINPE_STATUS(id, error, argument, message) +1
#include "sinpe/vocabulary.def"
    ;

}  // namespace

const Read* Reads::find(Option o) const noexcept {
  for (std::size_t i = 0; i < count; ++i)
    if (first[i].option == o) return &first[i];
  return nullptr;
}

Reads preset_reads(Preset p) noexcept {
  switch (p) {
// clang-format off
#define SINPE_PRESET(id, name, layout, ...) \
  case Preset::id: return reads_of(preset_##id);
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return {nullptr, 0};
}

Reads rope_reads(RopeType t) noexcept {
  switch (t) {
// clang-format off
#define SINPE_ROPE_TYPE(id, name, ...) \
  case RopeType::id: return reads_of(rope_##id);
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return {nullptr, 0};
}

Layout preset_layout(Preset p) noexcept {
  switch (p) {
// clang-format off
#define SINPE_PRESET(id, name, layout, ...) \
  case Preset::id: return Layout::layout;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return Layout::interleaved;
}

bool is_given(const Options& o, Option id) noexcept {
  switch (id) {
// clang-format off
#define SINPE_OPTION(id, name, type, rule, config_key, doc) \
  case Option::id: return o.id.has_value();
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return false;
}

namespace {
double number_of(const NumberOption& v) { return *v; }
double number_of(const BooleanOption& v) { return *v ? 1.0 : 0.0; }
double number_of(const NumbersOption&) { return std::numeric_limits<double>::quiet_NaN(); }
const std::vector<double>* numbers_of(const NumbersOption& v) { return &*v; }
template <class T>
const std::vector<double>* numbers_of(const T&) {
  return nullptr;
}
}  // namespace

double given_number(const Options& o, Option id) noexcept {
  switch (id) {
// clang-format off
#define SINPE_OPTION(id, name, type, rule, config_key, doc) \
  case Option::id: \
    return o.id.has_value() ? number_of(o.id) : std::numeric_limits<double>::quiet_NaN();
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return std::numeric_limits<double>::quiet_NaN();
}

const std::vector<double>* given_numbers(const Options& o, Option id) noexcept {
  switch (id) {
// clang-format off
#define SINPE_OPTION(id, name, type, rule, config_key, doc) \
  case Option::id: return o.id.has_value() ? numbers_of(o.id) : nullptr;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return nullptr;
}

bool value_follows_rule(Option id, double v) noexcept {
  const int i = int(id);
  return i >= 0 && i < kOptionCount && follows_rule(kOptionInfo[i].rule, v);
}

Status bad_status(Option id) noexcept { return Status(kFirstOptionStatus + 3 * int(id)); }
Status not_read_status(Option id) noexcept { return Status(kFirstOptionStatus + 3 * int(id) + 1); }
Status missing_status(Option id) noexcept { return Status(kFirstOptionStatus + 3 * int(id) + 2); }

}  // namespace detail

Status bad_option_status(Option o) noexcept { return detail::bad_status(o); }
bool option_value_follows_rule(Option o, double v) noexcept { return detail::value_follows_rule(o, v); }

bool find_bad_element(const Options& o, Status s, std::ptrdiff_t* index, double* value) noexcept {
  for (int i = 0; i < kOptionCount; ++i) {
    const Option id = Option(i);
    const std::vector<double>* v = detail::given_numbers(o, id);
    if (!v || detail::bad_status(id) != s) continue;
    *index = -1;
    *value = double(v->size());
    for (std::size_t k = 0; k < v->size(); ++k)
      if (!detail::value_follows_rule(id, (*v)[k])) {
        *index = std::ptrdiff_t(k);
        *value = (*v)[k];
        break;
      }
    return true;
  }
  return false;
}

namespace detail {

Status check_options(const Options& o, Reads reads) noexcept {
  for (int i = 0; i < kOptionCount; ++i) {
    const Option id = Option(i);
    const Read* r = reads.find(id);
    if (!is_given(o, id)) {
      if (r && r->kind == Read::Default::required) return missing_status(id);
      continue;
    }
    if (!r) return not_read_status(id);
    const OptionInfo& info = kOptionInfo[i];
    if (info.kind == Kind::numberArray) {
      for (double v : *given_numbers(o, id))
        if (!follows_rule(info.rule, v)) return bad_status(id);
    } else if (!follows_rule(info.rule, given_number(o, id))) {
      return bad_status(id);
    }
  }
  return Status::ok;
}

// One case per rule of vocabulary.def's SINPE_RULE table: the only place a
// rule's condition is written.
bool rope_rule_holds(RopeRule rule, const Options& o, Reads reads, int r) noexcept {
  switch (rule) {
    case RopeRule::rope_base_above_one: return number_or_default(o, reads, Option::base) > 1;
    case RopeRule::rotary_dim_even: return r >= 2 && r <= limits::max_d_model && r % 2 == 0;
    case RopeRule::mrope_section_sum: {
      const std::vector<double>* s = given_numbers(o, Option::mrope_section);
      if (s == nullptr || o.rope_axes == RopeAxes::pixtral) return true;  // pixtral reads none
      if (s->empty() || s->size() > std::size_t(limits::max_rope_axes)) return false;
      double sum = 0;
      for (double v : *s) sum += v;  // integers below 2^24 each (the option's rule): exact
      return sum == r / 2;
    }
    case RopeRule::pixtral_rotary_dim: return o.rope_axes != RopeAxes::pixtral || r % 4 == 0;
    case RopeRule::freq_factor_order:
      if (!reads.find(Option::low_freq_factor) || !reads.find(Option::high_freq_factor)) return true;
      return number_or_default(o, reads, Option::low_freq_factor) <
             number_or_default(o, reads, Option::high_freq_factor);
  }
  return false;
}

Status rope_rule_status(RopeRule rule) noexcept {
  switch (rule) {
// clang-format off
#define SINPE_RULE(id, status, options, text) \
  case RopeRule::id: return Status::status;
#include "sinpe/vocabulary.def"
    // clang-format on
  }
  return Status::invalid_plan;
}

Status check_rope_rules(const Options& o, Reads reads, int r) noexcept {
  for (int i = 0; i < kRopeRuleCount; ++i)
    if (!rope_rule_holds(RopeRule(i), o, reads, r)) return rope_rule_status(RopeRule(i));
  return Status::ok;
}

double number_or_default(const Options& o, Reads reads, Option id) noexcept {
  if (is_given(o, id)) return given_number(o, id);
  const Read* r = reads.find(id);
  return r ? r->value : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace detail
}  // namespace sinpe
