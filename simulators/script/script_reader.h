// Reading sensor scripts (docs/interfaces.md §3): streams in, statements out.
//
// The reader checks the grammar and the two ordering rules (headers before timed lines,
// timestamps non-decreasing); it does not check chess (a FEN or a `put` that makes no
// sense on the board is the engine's business). Errors name the place as `file:line:
// message`, the form every program prints before exiting with status 2.
#pragma once

#include <istream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "simulators/script/statement.h"

namespace eboard::script {

// One line on its own: a statement, nothing (blank or comment), or an error message
// without the `file:line:` prefix.
struct NoStatement {};
struct LineError {
  std::string message;
};
using LineResult = std::variant<Statement, NoStatement, LineError>;
LineResult parse_line(std::string_view text);

class Reader {
 public:
  // `file_name` is only used in messages; use "-" for standard input.
  Reader(std::istream& in, std::string file_name);

  // Reads the next statement into `out`. Returns false at the end of input or on a bad
  // line; error() is empty in the first case and `file:line: message` in the second.
  bool next(Statement& out);
  const std::string& error() const { return error_; }

 private:
  std::istream& in_;
  std::string file_name_;
  int line_number_ = 0;
  bool seen_timed_ = false;
  Millis last_time_{0};
  std::string error_;
};

struct ScriptFile {
  std::vector<Statement> statements;
  std::string error;  // empty when the whole input was read
  bool ok() const { return error.empty(); }
};
ScriptFile read_script(std::istream& in, std::string file_name);
// Opens and reads a file, "-" meaning standard input.
ScriptFile read_script_file(const std::string& path);

// The time of the script's last timed statement (0 for a script without one): how long
// it plays, which tests and benchmarks divide by the wall time they allow for it.
Millis last_statement_time(const ScriptFile& file);

}  // namespace eboard::script
