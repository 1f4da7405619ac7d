#include "util/varint.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace eboard {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::string encoded(std::uint64_t value) {
  std::string out;
  append_varint(out, value);
  return out;
}

// The values where the encoding gains a byte: 2^(7k) - 1 and 2^(7k), and the largest.
std::vector<std::uint64_t> boundaries() {
  std::vector<std::uint64_t> values{0, kMax};
  for (int bits = 7; bits < 64; bits += 7) {
    values.push_back((std::uint64_t{1} << bits) - 1);
    values.push_back(std::uint64_t{1} << bits);
  }
  return values;
}

// The Protobuf encoding guide's examples (1, 150), 300 and the largest value.
TEST(Varint, WritesTheProtobufEncoding) {
  EXPECT_EQ(encoded(0), std::string(1, '\0'));
  EXPECT_EQ(encoded(1), "\x01");
  EXPECT_EQ(encoded(127), "\x7f");
  EXPECT_EQ(encoded(128), "\x80\x01");
  EXPECT_EQ(encoded(150), "\x96\x01");
  EXPECT_EQ(encoded(300), "\xac\x02");
  EXPECT_EQ(encoded(std::uint64_t{0xFFFFFFFF}), "\xff\xff\xff\xff\x0f");
  EXPECT_EQ(encoded(kMax), "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
}

TEST(Varint, EveryBoundaryRoundTripsInItsSize) {
  for (const std::uint64_t value : boundaries()) {
    const std::string bytes = encoded(value);
    EXPECT_EQ(bytes.size(), varint_size(value)) << value;
    const VarintRead read = read_varint(bytes + "tail");
    EXPECT_EQ(read.status, VarintStatus::kComplete) << value;
    EXPECT_EQ(read.value, value);
    EXPECT_EQ(read.bytes, bytes.size()) << value;
  }
  EXPECT_EQ(varint_size(kMax), kMaxVarintBytes);
}

TEST(Varint, AppendsAfterWhatIsThere) {
  std::string out = "ab";
  append_varint(out, 300);
  append_varint(out, 1);
  EXPECT_EQ(out, "ab\xac\x02\x01");
  const VarintRead second = read_varint(std::string_view(out).substr(4));
  EXPECT_EQ(second.status, VarintStatus::kComplete);
  EXPECT_EQ(second.value, 1u);
}

TEST(Varint, TruncatedInputIsIncompleteWithALowerBound) {
  const std::string whole = encoded(kMax);
  for (std::size_t cut = 0; cut < whole.size(); ++cut) {
    const VarintRead read = read_varint(std::string_view(whole).substr(0, cut));
    EXPECT_EQ(read.status, VarintStatus::kIncomplete) << cut;
    EXPECT_EQ(read.bytes, cut);
    EXPECT_EQ(read.value, (std::uint64_t{1} << (7 * cut)) - 1) << cut;
  }
  const VarintRead empty = read_varint("");
  EXPECT_EQ(empty.status, VarintStatus::kIncomplete);
  EXPECT_EQ(empty.bytes, 0u);
}

TEST(Varint, MoreThanTheByteLimitIsOverlong) {
  // Zero written non-canonically in six bytes: too long for a 5-byte limit, fine without.
  const std::string zero("\x80\x80\x80\x80\x80\x00", 6);
  const VarintRead limited = read_varint(zero, 5);
  EXPECT_EQ(limited.status, VarintStatus::kOverlong);
  EXPECT_EQ(limited.bytes, 5u);
  const VarintRead unlimited = read_varint(zero);
  EXPECT_EQ(unlimited.status, VarintStatus::kComplete);
  EXPECT_EQ(unlimited.value, 0u);
  EXPECT_EQ(unlimited.bytes, 6u);
  // A limit the bytes do not reach yet is only incomplete.
  EXPECT_EQ(read_varint(zero.substr(0, 4), 5).status, VarintStatus::kIncomplete);
  // Exactly at the limit a complete varint is accepted.
  const VarintRead four_bytes = read_varint(encoded(std::uint64_t{0xFFFFFFFF}), 5);
  EXPECT_EQ(four_bytes.status, VarintStatus::kComplete);
  EXPECT_EQ(four_bytes.value, 0xFFFFFFFFu);
}

TEST(Varint, MoreThan64BitsIsOverlong) {
  // Ten bytes whose last carries more than the 64th bit, and eleven bytes.
  const std::string ten_with_two("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);
  EXPECT_EQ(read_varint(ten_with_two).status, VarintStatus::kOverlong);
  const std::string eleven("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x00", 11);
  const VarintRead read = read_varint(eleven);
  EXPECT_EQ(read.status, VarintStatus::kOverlong);
  EXPECT_EQ(read.bytes, kMaxVarintBytes);
  const std::string ten_continuing("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80", 10);
  EXPECT_EQ(read_varint(ten_continuing).status, VarintStatus::kOverlong);
  // A larger limit than a 64-bit value needs changes nothing.
  EXPECT_EQ(read_varint(eleven, 20).status, VarintStatus::kOverlong);
}

}  // namespace
}  // namespace eboard
