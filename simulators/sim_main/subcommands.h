// eboard-sim's subcommands. Each lives in its own file; a subcommand not linked in (its
// function left undefined, declared weak here) is reported as "not built yet". Adding
// `script` means adding one file under sim_main/ that defines eboard::sim::run_script.
#pragma once

namespace eboard::sim {
int run_dgt(int argc, char** argv);
int run_chesslink(int argc, char** argv);
int run_certabo(int argc, char** argv);
int run_chessnut(int argc, char** argv);
// PGN -> sensor script (docs/interfaces.md §2); another part of the project provides it.
[[gnu::weak]] int run_script(int argc, char** argv);
}  // namespace eboard::sim
