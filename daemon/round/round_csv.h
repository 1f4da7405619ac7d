// The round CSV of docs/interfaces.md §6.2 and the RFC 4180 reader under it (also used for
// --board-map). UTF-8, a header line naming the columns, comma-separated; a field may be
// quoted ("..." with "" for a quote inside, line breaks included); unquoted fields lose
// the spaces around them. Columns: `board,white,black` and optionally `eboard`,
// `white_fide_id`, `black_fide_id`, `white_elo`, `black_elo`, `white_title`,
// `black_title`, `white_team`, `black_team`, in any order. An unknown or repeated column,
// a row with another number of fields, a bad value or a board number given twice is an
// error naming the line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "daemon/round/round_sheet.h"

namespace eboard::daemon::round {

struct CsvRecord {
  int line = 0;  // the line the record starts on
  std::vector<std::string> fields;
};

// Blank lines are skipped. Fields must be valid UTF-8 without control characters.
Result<std::vector<CsvRecord>> read_csv(std::string_view text, const std::string& path);

Result<RoundSheet> parse_round_csv(std::string_view text, const std::string& path,
                                   const RoundOptions& options);

// Shared checks of both formats (the error is the message without `file:line: `).
std::optional<std::string> check_board_name(std::string_view name);
// Upper case FIDE title, or an error naming the value.
Result<std::string> fide_title(std::string_view text);

}  // namespace eboard::daemon::round
