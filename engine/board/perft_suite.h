// The perft-suite file format: one position a line, "FEN ;D1 20 ;D2 400 ...".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace eboard::engine {

struct SuiteEntry {
  std::string fen;
  int line = 0;
  std::vector<std::pair<int, std::uint64_t>> expected;  // (depth, node count)
};

// Parses a whole suite; the first bad line gives "file:line: message".
Result<std::vector<SuiteEntry>> parse_suite(std::string_view text, const std::string& file_name);

}  // namespace eboard::engine
