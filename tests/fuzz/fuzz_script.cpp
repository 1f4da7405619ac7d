// Fuzz the sensor-script reader. Invariant: whatever it accepts, the writer writes back
// and the reader reads again to the same text (round trip), and it never crashes.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "simulators/script/script_reader.h"
#include "simulators/script/script_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eboard::script;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  const ScriptFile file = read_script(in, "fuzz");
  std::ostringstream written;
  for (const Statement& s : file.statements) write_statement(written, s);
  std::istringstream again(written.str());
  const ScriptFile second = read_script(again, "fuzz");
  if (!second.ok() || second.statements.size() != file.statements.size()) __builtin_trap();
  std::ostringstream rewritten;
  for (const Statement& s : second.statements) write_statement(rewritten, s);
  if (rewritten.str() != written.str()) __builtin_trap();
  return 0;
}
