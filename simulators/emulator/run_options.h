// Options every `eboard-sim BOARD` subcommand shares (docs/interfaces.md §2): --speed, the
// faults (--garbage N, --drop N, --split, --delay MS, --hangup-at T [--hangup-for S],
// --seed S), --linger S, --verbose, and one SCRIPT. A subcommand's own options are
// offered to `own` first: it returns 0 when the option is not its, the number of
// arguments it took otherwise, or -1 with `error` set.
#pragma once

#include <functional>
#include <string>

#include "simulators/emulator/run_emulator.h"
#include "simulators/script/script_reader.h"

namespace eboard::sim {

using OwnOption = std::function<int(int argc, char** argv, int i, std::string& error)>;

// Returns an error message, "" on success.
std::string parse_run_options(int argc, char** argv, RunOptions& run, std::string& script,
                              const OwnOption& own);

// The script's timed sensor statements and its start placement (header `start`).
std::vector<script::Statement> timed_sensor_lines(const script::ScriptFile& file);
script::Placement header_placement(const script::ScriptFile& file);

}  // namespace eboard::sim
