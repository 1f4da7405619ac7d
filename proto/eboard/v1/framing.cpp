#include "eboard/v1/framing.h"

#include <google/protobuf/io/coded_stream.h>

#include <cassert>
#include <limits>
#include <utility>

namespace eboard::proto {
namespace {

// A length is at most 32 bits, 5 varint bytes (35 value bits, so no overflow here); a
// longer prefix, even a non-canonical one such as 80 80 80 80 80 00, is refused.
constexpr std::size_t kMaxVarintBytes = 5;

enum class VarintStatus { kComplete, kIncomplete, kMalformed };

struct Varint {
  VarintStatus status;
  std::uint64_t value;  // the value, or for kIncomplete a lower bound of it
  std::size_t bytes;
};

// Decodes a varint from the start of `data` without assuming it is complete. The bits
// read so far only ever grow by later bytes, so a partial value is a lower bound.
Varint decode_varint(std::string_view data) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < data.size() && i < kMaxVarintBytes; ++i) {
    const auto byte = static_cast<std::uint8_t>(data[i]);
    value |= static_cast<std::uint64_t>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) return {VarintStatus::kComplete, value, i + 1};
  }
  if (data.size() >= kMaxVarintBytes) return {VarintStatus::kMalformed, value, kMaxVarintBytes};
  return {VarintStatus::kIncomplete, value, data.size()};
}

}  // namespace

void append_delimited(const google::protobuf::MessageLite& message, std::string& out) {
  const std::size_t size = message.ByteSizeLong();
  const std::size_t prefix = google::protobuf::io::CodedOutputStream::VarintSize64(size);
  const std::size_t offset = out.size();
  out.resize(offset + prefix + size);
  auto* at = reinterpret_cast<std::uint8_t*>(out.data() + offset);
  at = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(size, at);
  [[maybe_unused]] const bool ok = message.SerializeWithCachedSizesToArray(at) == at + size;
  assert(ok);
}

std::string encode_delimited(const google::protobuf::MessageLite& message) {
  std::string out;
  append_delimited(message, out);
  return out;
}

FrameReader::FrameReader(std::size_t max_frame_bytes) : max_frame_bytes_(max_frame_bytes) {
  assert(max_frame_bytes <= static_cast<std::size_t>(std::numeric_limits<int>::max()));
}

void FrameReader::feed(std::string_view bytes) {
  if (failed()) return;
  compact();
  buffer_.append(bytes);
}

Result<ReadStatus> FrameReader::next(google::protobuf::MessageLite& message) {
  message.Clear();
  if (failed()) return Error{error_};
  const std::string_view pending = std::string_view(buffer_).substr(start_);
  const Varint length = decode_varint(pending);
  if (length.status == VarintStatus::kMalformed) {
    return fail("frame at byte " + std::to_string(consumed_) +
                ": length prefix is longer than 5 bytes");
  }
  if (length.value > max_frame_bytes_) {
    return fail("frame at byte " + std::to_string(consumed_) + ": length " +
                (length.status == VarintStatus::kIncomplete ? "of at least " : "") +
                std::to_string(length.value) + " exceeds the limit of " +
                std::to_string(max_frame_bytes_) + " bytes");
  }
  if (length.status == VarintStatus::kIncomplete) return ReadStatus::kNeedMore;
  const auto size = static_cast<std::size_t>(length.value);
  if (pending.size() - length.bytes < size) return ReadStatus::kNeedMore;
  if (!message.ParseFromArray(pending.data() + length.bytes, static_cast<int>(size))) {
    message.Clear();
    return fail("frame at byte " + std::to_string(consumed_) + ": " + std::to_string(size) +
                " bytes are not a valid " + message.GetTypeName());
  }
  start_ += length.bytes + size;
  consumed_ += length.bytes + size;
  return ReadStatus::kMessage;
}

Result<ReadStatus> FrameReader::fail(std::string message) {
  error_ = std::move(message);
  buffer_.clear();
  buffer_.shrink_to_fit();
  start_ = 0;
  return Error{error_};
}

// Drops consumed bytes once they are at least half the buffer, so a long stream of small
// feeds costs amortised O(1) per byte and the buffer never holds much beyond one frame
// plus one feed.
void FrameReader::compact() {
  if (start_ == 0) return;
  if (start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
  } else if (start_ * 2 >= buffer_.size()) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
}

}  // namespace eboard::proto
