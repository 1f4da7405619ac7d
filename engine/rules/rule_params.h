// `param NAME VALUE` overrides (docs/interfaces.md §3; also `--param NAME=VALUE` of eboardd):
// every parameter of docs/rules.md D1-D14 and §2 by its docs/rules.md name, with its value in
// words:
//   booleans   `true` | `false`
//   times      a number of seconds (`60`, `0.5`); for names ending in `_ms` a number of
//              milliseconds, as the name says; either may carry an explicit unit
//              (`60s`, `60000ms`)
//   counts     a whole number, or `inf` where docs/rules.md allows ∞
//   enums      the words of docs/rules.md (`press_only`, `claim_only_before_reply`, `A.5.4`, ...)
//   ladders    comma-separated steps: seconds to the opponent (`60` or `+60`), `warning`,
//              `loss`, `claim_win`; or `arbiter` alone (the daemon records, 12.9)
// Setting `supervision` also sets what docs/rules.md ties to it (see rule_params.cpp), so put
// it before the parameters it would otherwise overwrite.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/rule_set.h"
#include "util/result.h"

namespace eboard::engine {

struct ParamAssignment {
  std::string name;
  std::string value;
};

// Splits `NAME VALUE` (a script's param line without the keyword) or `NAME=VALUE`.
Result<ParamAssignment> parse_param_assignment(std::string_view text);

// Applies one override. On error `rules` is unchanged and the message names the
// parameter, the value and what was expected.
[[nodiscard]] std::optional<Error> apply_param(RuleSet& rules, std::string_view name,
                                               std::string_view value);

// The current value of one parameter in the form apply_param reads.
Result<std::string> format_param(const RuleSet& rules, std::string_view name);

// Every parameter name, in docs/rules.md order.
std::vector<std::string_view> param_names();

}  // namespace eboard::engine
