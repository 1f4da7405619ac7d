// Length-delimited framing of the daemon's stream sockets (docs/interfaces.md §4): each
// message is preceded by its length as a base-128 varint, the standard framing of
// Protobuf streams (what Java's writeDelimitedTo and Go's protodelim produce).
//
// The reader faces the network: bytes arrive in arbitrary chunks (a frame split over
// reads, several frames in one read), from clients that may be buggy or hostile. It
// never trusts a length: anything over the limit is an error as soon as the length
// prefix shows it (before any payload is buffered), and after an error the stream is out
// of step for good, so every later call repeats the error and the connection must be
// closed. It does no I/O and allocates only what the frames it holds need.
#pragma once

#include <google/protobuf/message_lite.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/result.h"

namespace eboard::proto {

// Largest frame accepted by default: a snapshot of a long game is a few tens of KiB.
inline constexpr std::size_t kMaxFrameBytes = std::size_t{1} << 20;

// Appends the varint length and the message's binary form to `out` (so a caller can
// build one buffer of several frames, serialised once and shared, docs/design.md).
void append_delimited(const google::protobuf::MessageLite& message, std::string& out);
std::string encode_delimited(const google::protobuf::MessageLite& message);

// What FrameReader::next found when it did not fail.
enum class ReadStatus {
  kMessage,   // a whole message was read
  kNeedMore,  // the buffer holds only part of the next message (or nothing)
};

class FrameReader {
 public:
  // max_frame_bytes must fit an int (libprotobuf's parse limit).
  explicit FrameReader(std::size_t max_frame_bytes = kMaxFrameBytes);

  // Adds received bytes; ignored once the reader has failed.
  void feed(std::string_view bytes);

  // Takes the next complete message out of the buffer into `message` (cleared first).
  // Fails, naming the frame's byte offset in the stream, when the length is over the
  // limit or not a varint, or the payload does not parse as `message`'s type. Usually
  // called in a loop after each feed until it no longer returns kMessage.
  Result<ReadStatus> next(google::protobuf::MessageLite& message);

  bool failed() const { return !error_.empty(); }
  // Bytes fed but not yet consumed as whole frames.
  std::size_t buffered_bytes() const { return buffer_.size() - start_; }
  // Bytes consumed as whole frames since the start of the stream.
  std::uint64_t consumed_bytes() const { return consumed_; }

 private:
  Result<ReadStatus> fail(std::string message);
  void compact();

  std::size_t max_frame_bytes_;
  std::string buffer_;
  std::size_t start_ = 0;       // first unconsumed byte of buffer_
  std::uint64_t consumed_ = 0;  // stream offset of buffer_[start_]
  std::string error_;
};

}  // namespace eboard::proto
