// The Protobuf JSON mapping, printed by walking the descriptors.
//
// libprotobuf 3.21's MessageToJsonString with default fields printed takes about 125 µs
// per event on this machine (it converts each message through a google.protobuf.Type
// resolver), far too slow for eboard-replay over a corpus of games. This printer covers
// exactly what the eboard.v1 schema uses (32-bit integers, bools, strings, enums,
// messages, repeated fields, oneofs; no maps, floats, bytes, 64-bit or well-known types)
// and prints byte for byte what libprotobuf prints with always_print_primitive_fields:
// fields in declaration order, unset message fields and unset oneof members left out,
// enums by name (by number when unknown), strings escaped as libprotobuf's
// json_escaping does. tests/proto/json_test.cpp and the frame_reader fuzzer compare the
// two on every kind and on random frames; parsing JSON still uses libprotobuf.
#include "eboard/v1/json.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

#include <cassert>
#include <cstdint>

namespace eboard::proto {
namespace {

namespace pb = google::protobuf;
namespace pbutil = google::protobuf::util;

void append_hex4(std::string& out, std::uint32_t unit) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
}

// Code points libprotobuf escapes although JSON allows them raw: C1 controls and
// invisible format characters (its json_escaping table, checked by json_test).
bool escaped_code_point(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || (cp >= 0x600 && cp <= 0x603) || cp == 0x6DD ||
         cp == 0x70F || cp == 0x17B4 || cp == 0x17B5 || (cp >= 0x200B && cp <= 0x200F) ||
         (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064) ||
         (cp >= 0x206A && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
         (cp >= 0x1D173 && cp <= 0x1D17A) || cp == 0xE0001 || (cp >= 0xE0020 && cp <= 0xE007F);
}

// Length of the valid UTF-8 sequence at text[at] and its code point; 0 if invalid.
std::size_t decode_utf8(std::string_view text, std::size_t at, std::uint32_t& cp) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[at + i]); };
  const std::uint8_t lead = byte(0);
  std::size_t length = 0;
  std::uint32_t min = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, cp = lead & 0x1F, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, cp = lead & 0x0F, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, cp = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}

void append_string(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t at = 0; at < text.size();) {
    const auto c = static_cast<std::uint8_t>(text[at]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20 || c == '<' || c == '>' || c == 0x7F) {
            append_hex4(out, c);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++at;
      continue;
    }
    std::uint32_t cp = 0;
    const std::size_t length = decode_utf8(text, at, cp);
    if (length == 0) {  // not UTF-8: dropped, as libprotobuf does
      ++at;
      continue;
    }
    if (!escaped_code_point(cp)) {
      out.append(text.substr(at, length));
    } else if (cp < 0x10000) {
      append_hex4(out, cp);
    } else {
      append_hex4(out, 0xD800 + ((cp - 0x10000) >> 10));
      append_hex4(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    }
    at += length;
  }
  out += '"';
}

void append_message(std::string& out, const pb::Message& message);

void append_value(std::string& out, const pb::Message& message, const pb::FieldDescriptor* field,
                  int index) {
  const pb::Reflection* reflection = message.GetReflection();
  const bool repeated = index >= 0;
  switch (field->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      out += std::to_string(repeated ? reflection->GetRepeatedInt32(message, field, index)
                                     : reflection->GetInt32(message, field));
      break;
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      out += std::to_string(repeated ? reflection->GetRepeatedUInt32(message, field, index)
                                     : reflection->GetUInt32(message, field));
      break;
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      out += (repeated ? reflection->GetRepeatedBool(message, field, index)
                       : reflection->GetBool(message, field))
                 ? "true"
                 : "false";
      break;
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      std::string scratch;
      const std::string& text =
          repeated ? reflection->GetRepeatedStringReference(message, field, index, &scratch)
                   : reflection->GetStringReference(message, field, &scratch);
      append_string(out, text);
      break;
    }
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const int number = repeated ? reflection->GetRepeatedEnumValue(message, field, index)
                                  : reflection->GetEnumValue(message, field);
      const pb::EnumValueDescriptor* value = field->enum_type()->FindValueByNumber(number);
      if (value != nullptr) {
        append_string(out, value->name());
      } else {
        out += std::to_string(number);  // an open enum's unknown value (proto3)
      }
      break;
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      append_message(out, repeated ? reflection->GetRepeatedMessage(message, field, index)
                                   : reflection->GetMessage(message, field));
      break;
    default: assert(false && "type not used by the eboard.v1 schema");
  }
}

void append_message(std::string& out, const pb::Message& message) {
  const pb::Descriptor* type = message.GetDescriptor();
  const pb::Reflection* reflection = message.GetReflection();
  out += '{';
  bool first = true;
  for (int i = 0; i < type->field_count(); ++i) {
    const pb::FieldDescriptor* field = type->field(i);
    const bool is_message = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
    const bool in_oneof = field->real_containing_oneof() != nullptr;
    if (!field->is_repeated() && (is_message || in_oneof) &&
        !reflection->HasField(message, field)) {
      continue;
    }
    if (!first) out += ',';
    first = false;
    out += '"';
    out += field->json_name();
    out += "\":";
    if (!field->is_repeated()) {
      append_value(out, message, field, -1);
      continue;
    }
    out += '[';
    const int size = reflection->FieldSize(message, field);
    for (int k = 0; k < size; ++k) {
      if (k > 0) out += ',';
      append_value(out, message, field, k);
    }
    out += ']';
  }
  out += '}';
}

template <class Message>
Result<Message> parse(std::string_view line) {
  pbutil::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  Message message;
  const auto status = pbutil::JsonStringToMessage(line, &message, options);
  if (!status.ok()) {
    return Error{"not a JSON " + message.GetTypeName() + ": " + std::string(status.message())};
  }
  return message;
}

}  // namespace

std::string to_json_line(const google::protobuf::Message& message) {
  std::string line;
  line.reserve(256);
  append_message(line, message);
  return line;
}

std::string to_json_line(const eboard::v1::Event& event) {
  return to_json_line(static_cast<const google::protobuf::Message&>(event));
}

std::string to_json_line(const eboard::v1::Frame& frame) {
  return to_json_line(static_cast<const google::protobuf::Message&>(frame));
}

Result<eboard::v1::Event> event_from_json(std::string_view line) {
  return parse<eboard::v1::Event>(line);
}

Result<eboard::v1::Frame> frame_from_json(std::string_view line) {
  return parse<eboard::v1::Frame>(line);
}

}  // namespace eboard::proto
