// The JSON form of the wire format: one Event per line, as eboard-replay and
// eboard-events print it (interfaces.md §4), and whole Frames for the WebSocket.
//
// interfaces.md §4 fixes the printing: the Protobuf JSON mapping (lowerCamelCase names,
// enum values by name), default-valued fields included so that `gameEnded.proposed`
// false or `seq` 0 are there for a consumer to read, no whitespace, no newline inside.
#pragma once

#include <string>
#include <string_view>

#include "eboard/v1/event.pb.h"
#include "eboard/v1/frame.pb.h"
#include "engine/util/result.h"

namespace eboard::proto {

// One line of JSON without the trailing newline. Cannot fail for this schema's messages
// (the status is asserted). Bytes of a string field that are not valid UTF-8 are
// dropped by libprotobuf, which logs an error: strings are ours (FEN, SAN, names from
// the configuration), so that is a bug upstream, not input to handle.
std::string to_json_line(const eboard::v1::Event& event);
std::string to_json_line(const eboard::v1::Frame& frame);

// Reads a line printed by to_json_line (or any JSON form of the mapping: unknown field
// names are an error, so a misspelt golden file fails loudly).
Result<eboard::v1::Event> event_from_json(std::string_view line);
Result<eboard::v1::Frame> frame_from_json(std::string_view line);

}  // namespace eboard::proto
