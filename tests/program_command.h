// The shell command that starts one of the project's programs from a test: the program in
// the build's bin directory, behind the cross build's emulator when there is one
// (EBOARD_PROGRAM_LAUNCHER, tests/CMakeLists.txt). An arm64 test under qemu-user then
// starts eboard-replay through qemu-user too, on a machine whose kernel cannot hand arm64
// programs to qemu (no binfmt_misc, as in many containers).
#pragma once

#include <string>
#include <string_view>

namespace eboard::testing_support {

inline std::string program_command(std::string_view program) {
  std::string command = EBOARD_PROGRAM_LAUNCHER;
  if (!command.empty()) command += ' ';
  command += EBOARD_BIN_DIR;
  command += '/';
  command += program;
  return command;
}

}  // namespace eboard::testing_support
