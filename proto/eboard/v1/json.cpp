#include "eboard/v1/json.h"

#include <google/protobuf/util/json_util.h>

#include <cassert>

namespace eboard::proto {
namespace {

namespace pbutil = google::protobuf::util;

std::string print(const google::protobuf::Message& message) {
  pbutil::JsonPrintOptions options;
  options.add_whitespace = false;
  options.always_print_primitive_fields = true;  // interfaces.md §4: defaults included
  options.always_print_enums_as_ints = false;    // enum values by name
  options.preserve_proto_field_names = false;    // lowerCamelCase names
  std::string line;
  [[maybe_unused]] const auto status = pbutil::MessageToJsonString(message, &line, options);
  assert(status.ok());
  return line;
}

template <class Message>
Result<Message> parse(std::string_view line) {
  pbutil::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  Message message;
  const auto status = pbutil::JsonStringToMessage(line, &message, options);
  if (!status.ok()) {
    return Error{"not a JSON " + message.GetTypeName() + ": " +
                 std::string(status.message())};
  }
  return message;
}

}  // namespace

std::string to_json_line(const eboard::v1::Event& event) { return print(event); }
std::string to_json_line(const eboard::v1::Frame& frame) { return print(frame); }

Result<eboard::v1::Event> event_from_json(std::string_view line) {
  return parse<eboard::v1::Event>(line);
}

Result<eboard::v1::Frame> frame_from_json(std::string_view line) {
  return parse<eboard::v1::Frame>(line);
}

}  // namespace eboard::proto
