// The JSON form of the wire format: one Event per line, as eboard-replay and
// eboard-events print it (docs/interfaces.md §4), and whole Frames for the WebSocket.
//
// docs/interfaces.md §4 fixes the printing: the Protobuf JSON mapping (lowerCamelCase names,
// enum values by name), default-valued fields included so that `gameEnded.proposed`
// false or `seq` 0 are there for a consumer to read, no whitespace, no newline inside.
#pragma once

#include <string>
#include <string_view>

#include "eboard/v1/event.pb.h"
#include "eboard/v1/frame.pb.h"
#include "util/result.h"

namespace eboard::proto {

// One line of JSON without the trailing newline: what libprotobuf's MessageToJsonString
// prints with always_print_primitive_fields, byte for byte, about 30 times faster
// (json.cpp). Bytes of a string field that are not valid UTF-8 are dropped, as
// libprotobuf does; our strings (FEN, SAN, configured names) never contain any.
std::string to_json_line(const eboard::v1::Event& event);
std::string to_json_line(const eboard::v1::Frame& frame);
// Any message of the eboard.v1 schema (Snapshot for MQTT's retained state, Command ...).
std::string to_json_line(const google::protobuf::Message& message);

// Reads a line printed by to_json_line (or any JSON form of the mapping: unknown field
// names are an error, so a misspelt golden file fails loudly).
Result<eboard::v1::Event> event_from_json(std::string_view line);
Result<eboard::v1::Frame> frame_from_json(std::string_view line);

}  // namespace eboard::proto
