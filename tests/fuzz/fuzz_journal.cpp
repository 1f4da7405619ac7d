// Fuzzes the journal reader (daemon/core/journal_format.h), which reads whatever a disk
// gives back after damage. Input: a whole journal file. Checked, beyond "no crash, no
// leak, no UB":
//   - the records kept have strictly increasing seqs, lie inside the file, do not overlap,
//     and (format 2) each re-encodes to exactly the bytes it was read from;
//   - the logical end and the damaged tail stay inside the file;
//   - the kept events written again as a format 2 journal are read back the same, with no
//     damage: what loading keeps is always a journal the reader takes whole.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/core/journal_format.h"
#include "eboard/v1/event.pb.h"

namespace {

namespace format = eboard::daemon::journal_format;

struct Kept {
  std::vector<std::string> events;
  std::vector<std::uint32_t> seqs;
};

format::ScanResult read(std::string_view file, Kept& kept) {
  const format::Format kind = format::detect(file);
  eboard::v1::Event event;
  std::uint64_t previous_end = 0;
  return format::scan(file, kind, [&](const format::Found& found) {
    if (!event.ParseFromArray(found.event.data(), static_cast<int>(found.event.size()))) {
      return false;
    }
    if (!kept.seqs.empty() && event.seq() <= kept.seqs.back()) return false;
    if (found.offset < previous_end || found.end > file.size()) std::abort();
    if (kind == format::Format::kV2 &&
        format::encode_record(found.event) != file.substr(found.offset, found.end - found.offset)) {
      std::abort();
    }
    previous_end = found.end;
    kept.seqs.push_back(event.seq());
    kept.events.emplace_back(found.event);
    return true;
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view file(reinterpret_cast<const char*>(data), size);
  Kept kept;
  const format::ScanResult result = read(file, kept);
  if (result.logical_end > file.size() && !kept.seqs.empty()) std::abort();
  if (result.logical_end + result.tail_damage_bytes > file.size()) std::abort();
  if (result.tail_record_bytes > result.tail_damage_bytes) std::abort();

  std::string again(format::kFileHeader);
  for (const std::string& e : kept.events) again += format::encode_record(e);
  Kept reread;
  const format::ScanResult clean = read(again, reread);
  if (reread.seqs != kept.seqs || !clean.damaged.empty() || clean.tail_damage_bytes != 0) {
    std::abort();
  }
  return 0;
}
