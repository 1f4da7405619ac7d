#include "drivers/dgt/dgt_framer.h"

#include <gtest/gtest.h>

namespace eboard::drivers::dgt {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::vector<RawMessage> feed(Framer& framer, const Bytes& bytes) {
  std::vector<RawMessage> out;
  framer.feed(bytes, out);
  return out;
}

// docs/protocols.md §1.7: "8E 00 05 34 00" e2 became empty; "8E 00 05 24 01" pawn on e4.
const Bytes kE2Empty = {0x8E, 0x00, 0x05, 0x34, 0x00};
const Bytes kE4Pawn = {0x8E, 0x00, 0x05, 0x24, 0x01};

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

TEST(DgtFramer, SplitsTheWorkedExample) {
  Framer framer;
  const auto messages = feed(framer, concat({kE2Empty, kE4Pawn}));
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].id, 0x8E);
  EXPECT_EQ(messages[0].payload, (Bytes{0x34, 0x00}));
  EXPECT_EQ(messages[1].payload, (Bytes{0x24, 0x01}));
  EXPECT_EQ(framer.discarded_bytes(), 0u);
  EXPECT_FALSE(framer.has_partial());
}

TEST(DgtFramer, AcceptsByteAtATimeDelivery) {
  Framer framer;
  std::vector<RawMessage> out;
  for (std::uint8_t b : concat({kE2Empty, kE4Pawn})) framer.feed(std::span(&b, 1), out);
  EXPECT_EQ(out.size(), 2u);
  EXPECT_EQ(framer.discarded_bytes(), 0u);
}

TEST(DgtFramer, DropsLeadingGarbageAndCountsIt) {
  Framer framer;
  const auto messages = feed(framer, concat({{0x12, 0x7F, 0xFF, 0x80}, kE2Empty}));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].payload, (Bytes{0x34, 0x00}));
  EXPECT_EQ(framer.discarded_bytes(), 4u);
}

TEST(DgtFramer, RejectsLengthOutsideTheIdsBounds) {
  Framer framer;
  // 0x8E with length 6: wrong; the real message follows.
  const auto messages = feed(framer, concat({{0x8E, 0x00, 0x06}, kE4Pawn}));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].payload, (Bytes{0x24, 0x01}));
  EXPECT_EQ(framer.discarded_bytes(), 3u);
}

TEST(DgtFramer, AMessageCutShortIsDroppedWhenTheNextIdArrives) {
  Framer framer;
  // e2-empty lost its last byte; the e4 update starts inside it.
  const auto messages = feed(framer, concat({{0x8E, 0x00, 0x05, 0x34}, kE4Pawn}));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].payload, (Bytes{0x24, 0x01}));
  EXPECT_EQ(framer.discarded_bytes(), 4u);
}

TEST(DgtFramer, APartialMessageWaitsAndCanBeDropped) {
  Framer framer;
  EXPECT_TRUE(feed(framer, {0x8E, 0x00, 0x05, 0x34}).empty());
  EXPECT_TRUE(framer.has_partial());
  EXPECT_EQ(framer.discarded_bytes(), 0u);
  framer.drop_partial();
  EXPECT_FALSE(framer.has_partial());
  EXPECT_EQ(framer.discarded_bytes(), 4u);
  EXPECT_EQ(feed(framer, kE4Pawn).size(), 1u);
}

TEST(DgtFramer, LengthBytesWithTheTopBitAreRejected) {
  Framer framer;
  const auto messages = feed(framer, concat({{0x8E, 0x80}, kE2Empty}));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(framer.discarded_bytes(), 2u);
}

TEST(DgtFramer, VariableLengthMessages) {
  Framer framer;
  // Trademark "DGT" (total 6) and an EEPROM log ending in 6B.
  const auto messages =
      feed(framer, {0x92, 0x00, 0x06, 'D', 'G', 'T', 0x8F, 0x00, 0x06, 0x6A, 0x6F, 0x6B});
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].payload.size(), 3u);
  EXPECT_EQ(messages[1].id, 0x8F);
  EXPECT_EQ(messages[1].payload, (Bytes{0x6A, 0x6F, 0x6B}));
}

}  // namespace
}  // namespace eboard::drivers::dgt
