#include "engine/recognize/successor_table.h"

#include <gtest/gtest.h>

#include "engine/board/fen.h"
#include "engine/recognize/illegal_analysis.h"
#include "engine/recognize/sensed_board.h"

namespace eboard::engine {
namespace {

const char* const kPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
};

// What a board shows after the move, set square by square as a board would report it.
SensedBoard board_after(const Position& pos, Move m) {
  Position after = pos;
  after.make(m);
  SensedBoard b;
  b.set_position(after);
  return b;
}

TEST(SensedBoard, KeysFollowEveryChangeAndMatchThePositionsKeys) {
  for (const char* fen : kPositions) {
    const Position pos = parse_fen(fen).value();
    SensedBoard b;
    b.set_position(pos);
    EXPECT_EQ(b.placement_key(), pos.placement_key()) << fen;
    EXPECT_EQ(b.occupancy_key(), occupancy_key(pos)) << fen;
    EXPECT_EQ(b.occupied(), pos.pieces());
  }
  SensedBoard b;
  b.set(kE4, kWhitePawn);
  const Key with_pawn = b.placement_key();
  b.set(kE4, kResultDrawCode);  // result pieces are not chess pieces
  EXPECT_EQ(b.placement_key(), 0u);
  EXPECT_EQ(b.occupancy_key(), 0u);
  b.set(kE4, kWhitePawn);
  EXPECT_EQ(b.placement_key(), with_pawn);
  EXPECT_EQ(b.rotated_placement_key(), zobrist::piece_square(kWhitePawn, kD5));
}

TEST(SuccessorTable, EveryLegalMoveIsFoundByTheBoardItLeaves) {
  for (const char* fen : kPositions) {
    const Position pos = parse_fen(fen).value();
    SuccessorTable table;
    table.build(pos, MatchKeys::kPlacement);
    ASSERT_FALSE(table.moves().empty());
    for (const Move m : table.moves()) {
      const int i = table.find(board_after(pos, m).placement_key());
      ASSERT_NE(i, SuccessorTable::kNone) << fen;
      EXPECT_EQ(table.move(i), m) << fen;
    }
    EXPECT_EQ(table.find(pos.placement_key() ^ 12345), SuccessorTable::kNone);
    EXPECT_EQ(table.base_key(), pos.placement_key());
  }
}

TEST(SuccessorTable, OccupancyKeysChainMovesThatLeaveTheSameBoard) {
  const Position pos = parse_fen("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1").value();
  SuccessorTable table;
  table.build(pos, MatchKeys::kOccupancy);
  for (const Move m : table.moves()) {
    const int i = table.find(board_after(pos, m).occupancy_key());
    ASSERT_NE(i, SuccessorTable::kNone);
    bool found = false;
    for (int j = i; j != SuccessorTable::kNone; j = table.next_same(j)) found |= table.move(j) == m;
    EXPECT_TRUE(found);
  }
  // e7e8 to four pieces: one board, four moves chained.
  SensedBoard b;
  b.set_position(pos);
  b.set(kE7, kEmptyCode);
  b.set(kE8, kOccupiedCode);
  int n = 0;
  for (int j = table.find(b.occupancy_key()); j != SuccessorTable::kNone; j = table.next_same(j))
    ++n;
  EXPECT_EQ(n, 4);
}

TEST(IllegalAnalysis, NamesThePieceTheSquaresAndTheReason) {
  const Position p1 =
      parse_fen("rnbqk1nr/pppp1ppp/8/4p3/1b1P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3").value();
  SensedBoard b;
  b.set_position(p1);
  b.set(kF3, kEmptyCode);
  b.set(kG5, kWhiteKnight);
  IllegalAnalysis a = analyse_placement(p1, b, MatchKeys::kPlacement);
  EXPECT_EQ(a.reason, IllegalReason::kKingInCheck);
  EXPECT_EQ(a.description, "Nf3-g5 leaves the king on e1 in check");
  EXPECT_EQ(a.from, kF3);
  EXPECT_EQ(a.to, kG5);
  EXPECT_FALSE(pieces_in_air(p1, b, MatchKeys::kPlacement));
  b.set(kG5, kEmptyCode);
  EXPECT_TRUE(pieces_in_air(p1, b, MatchKeys::kPlacement));
}

}  // namespace
}  // namespace eboard::engine
