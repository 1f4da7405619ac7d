#include "eboard/v1/framing.h"

#include <cassert>
#include <limits>
#include <utility>

#include "util/varint.h"

namespace eboard::proto {
namespace {

// A length is at most 32 bits, 5 varint bytes (35 value bits, so no overflow here); a
// longer prefix, even a non-canonical one such as 80 80 80 80 80 00, is refused.
constexpr std::size_t kMaxLengthBytes = 5;

}  // namespace

void append_delimited(const google::protobuf::MessageLite& message, std::string& out) {
  const std::size_t size = message.ByteSizeLong();
  append_varint(out, size);
  const std::size_t offset = out.size();
  out.resize(offset + size);
  auto* at = reinterpret_cast<std::uint8_t*>(out.data() + offset);
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
  const VarintRead length = read_varint(pending, kMaxLengthBytes);
  if (length.status == VarintStatus::kOverlong) {
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
