// Writing sensor scripts (docs/interfaces.md §3): the inverse of the reader, so that
// read(write(s)) == s for every statement (the round-trip test relies on it).
#pragma once

#include <ostream>
#include <string>

#include "simulators/script/statement.h"

namespace eboard::script {

// One line without the newline; timed lines start with the time in seconds (3 decimals).
std::string format_statement(const Statement& statement);
void write_statement(std::ostream& out, const Statement& statement);
// Seconds with at most 3 decimals and at least one ("178.9", "180.0", "0.125").
std::string format_seconds(Millis time);

}  // namespace eboard::script
