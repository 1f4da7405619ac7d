// eboardd's options from the outside: arbitrary bytes split into arguments (one per
// line) go through the Program_options parser and every validation. Any input must give
// a configuration or a one-line error, never a crash or an exception.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "daemon/core/config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args = {"eboardd"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      args.push_back(current);
      current.clear();
    } else if (c != '\0') {
      current.push_back(c);
    }
  }
  args.push_back(current);
  std::vector<const char*> argv;
  for (const auto& arg : args) {
    // Reading files named by the input (--config, --control-token-file, sim scripts) is
    // the parser's job too, but a fuzzer must not wander the file system.
    if (arg.find('/') != std::string::npos) return 0;
    argv.push_back(arg.c_str());
  }
  auto parsed = eboard::daemon::parse_config(static_cast<int>(argv.size()), argv.data());
  if (!parsed.ok() && (parsed.error().empty() || parsed.error().find('\n') != std::string::npos)) {
    __builtin_trap();  // errors are one non-empty line
  }
  return 0;
}
