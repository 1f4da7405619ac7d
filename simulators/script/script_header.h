// What a sensor script's header says of its game (docs/interfaces.md §3): the lines before
// the first timed statement, folded into one value. eboardd (a `sim:` board's game),
// eboard-replay and the DGT emulator (how the arbiter sets its clock) read a header through
// this one fold, then apply their own command-line overrides.
//
// Like the rest of this library it keeps the text the engine will parse: a rule-set name,
// a time control, a FEN. An empty rules or clock means the header did not say (the caller's
// default applies); a later line of the same kind replaces an earlier one, a tag or a param
// adds to the list.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "simulators/script/script_reader.h"
#include "simulators/script/statement.h"

namespace eboard::script {

struct Header {
  std::string board_id;
  std::string rules;
  std::string clock;
  std::string start = "startpos";  // "startpos" or a FEN
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::pair<std::string, std::string>> params;

  // Takes a header line's body; any other body is left alone.
  void add(const Body& body);
  // The start position as a FEN, "" for the standard one.
  std::string start_fen() const { return start == "startpos" ? "" : start; }
};

// The header of a whole script: its statements up to the first timed one.
Header header_of(const ScriptFile& file);

}  // namespace eboard::script
