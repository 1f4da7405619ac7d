#pragma once

namespace eboard::sim {
// `eboard-sim dgt`: docs/interfaces.md §2. argv[0] is "dgt".
int run_dgt(int argc, char** argv);
}  // namespace eboard::sim
