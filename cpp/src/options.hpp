// The vocabulary as tables the core reads at run time: each option's kind and
// rule, and which options (with which defaults) each preset and rope type
// reads. Generated from vocabulary.def.
#pragma once

#include <cstddef>

#include "sinpe/sinpe.hpp"

namespace sinpe::detail {

enum class Kind { number, boolean, numberArray };
enum class Rule { positive, finite, index, count, length, fraction, any };

struct OptionInfo {
  const char* name;  // as JS spells it
  Kind kind;
  Rule rule;
  const char* config_key;  // Hugging Face config.json key, "" if none
  const char* doc;
};
extern const OptionInfo kOptionInfo[kOptionCount];

// One option a formula reads: its default, or none (optional, absent by
// default), or required.
struct Read {
  Option option;
  enum class Default { value, none, required } kind;
  double value;
};
struct Reads {
  const Read* first;
  std::size_t count;
  const Read* find(Option o) const noexcept;
};
Reads preset_reads(Preset p) noexcept;
Reads rope_reads(RopeType t) noexcept;
Layout preset_layout(Preset p) noexcept;

bool is_given(const Options& o, Option id) noexcept;
// A number or boolean option's given value (booleans as 0/1).
double given_number(const Options& o, Option id) noexcept;
const std::vector<double>* given_numbers(const Options& o, Option id) noexcept;

// Every given option is read by `reads` (else <option>_not_read) and valid by
// its rule (else bad_<option>); every required one is given (else
// <option>_missing). Options are checked in vocabulary order.
Status check_options(const Options& o, Reads reads) noexcept;
// The given value, else the default (NaN when there is none).
double number_or_default(const Options& o, Reads reads, Option id) noexcept;

// Whether one value (an array option's element) follows the option's rule.
bool value_follows_rule(Option id, double v) noexcept;

// The rules of a RoPE plan (vocabulary.def's SINPE_RULE table), in table order.
enum class RopeRule {
#define SINPE_RULE(id, status, options, text) id,
#include "sinpe/vocabulary.def"
};
constexpr int kRopeRuleCount = 0
#define SINPE_RULE(id, status, options, text) +1
#include "sinpe/vocabulary.def"
    ;
// Whether one rule holds for options `o` (read by `reads`) at rotary dimension r.
bool rope_rule_holds(RopeRule rule, const Options& o, Reads reads, int r) noexcept;
// The status a broken rule is (its table entry).
Status rope_rule_status(RopeRule rule) noexcept;
// Every rule, in table order: the first broken one's status, else ok.
Status check_rope_rules(const Options& o, Reads reads, int r) noexcept;

Status bad_status(Option id) noexcept;
Status not_read_status(Option id) noexcept;
Status missing_status(Option id) noexcept;

}  // namespace sinpe::detail
