// Fuzzes FrameReader, the parser that faces the daemon's sockets (docs/interfaces.md §4,
// proto/eboard/v1/framing.h). Input: byte 0 picks a chunk size, byte 1 a frame limit,
// the rest is the stream. Checked, beyond "no crash, no leak, no UB":
//   - feeding the stream whole or in chunks gives the same frames and fails (or not) at
//     the same frame offset: splitting reads never changes what a client is taken to say;
//   - every frame read encodes back to at most the limit and re-reads to the same bytes;
//   - its JSON line (eboard/v1/json.h's own printer) is byte for byte libprotobuf's, and
//     parses back to the same frame (unknown fields aside, which JSON cannot carry).
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/json_util.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "eboard/v1/frame.pb.h"
#include "eboard/v1/framing.h"
#include "eboard/v1/json.h"

namespace {

struct Outcome {
  std::vector<std::string> frames;  // each frame re-serialised
  std::string error_offset;         // "frame at byte N:" of the error, "" if none
};

Outcome read_stream(std::string_view stream, std::size_t chunk, std::size_t limit) {
  eboard::proto::FrameReader reader(limit);
  Outcome outcome;
  eboard::v1::Frame frame;
  for (std::size_t at = 0; at < stream.size() && outcome.error_offset.empty(); at += chunk) {
    reader.feed(stream.substr(at, chunk));
    for (;;) {
      const auto status = reader.next(frame);
      if (!status.ok()) {
        outcome.error_offset = status.error().substr(0, status.error().find(':') + 1);
        if (outcome.error_offset.rfind("frame at byte ", 0) != 0) std::abort();
        break;
      }
      if (status.value() == eboard::proto::ReadStatus::kNeedMore) break;
      outcome.frames.push_back(frame.SerializeAsString());
    }
  }
  return outcome;
}

void check_json(eboard::v1::Frame frame) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string reference;
  if (!google::protobuf::util::MessageToJsonString(frame, &reference, options).ok()) {
    std::abort();
  }
  const std::string line = eboard::proto::to_json_line(frame);
  if (line != reference) std::abort();
  const auto parsed = eboard::proto::frame_from_json(line);
  frame.DiscardUnknownFields();
  if (!parsed.ok() || parsed.value().SerializeAsString() != frame.SerializeAsString()) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Invalid UTF-8 in a string field makes libprotobuf log; that is expected input here.
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t chunk = data[0] % 17 + 1;
  const std::size_t limit = static_cast<std::size_t>(data[1]) * 16;
  const std::string_view stream(reinterpret_cast<const char*>(data + 2), size - 2);

  const Outcome whole = read_stream(stream, stream.size() + 1, limit);
  const Outcome chunked = read_stream(stream, chunk, limit);
  if (whole.frames != chunked.frames || whole.error_offset != chunked.error_offset) {
    std::abort();
  }
  for (std::size_t i = 0; i < whole.frames.size(); ++i) {
    const std::string& bytes = whole.frames[i];
    if (bytes.size() > limit) std::abort();
    eboard::v1::Frame again;
    if (!again.ParseFromString(bytes) || again.SerializeAsString() != bytes) std::abort();
    // libprotobuf's printer takes ~100 µs a frame: check the first two of each input only.
    if (i < 2) check_json(again);
  }
  return 0;
}
