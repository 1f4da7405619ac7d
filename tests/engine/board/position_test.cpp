#include "engine/board/position.h"

#include <gtest/gtest.h>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

Position from(std::string_view fen, FenMode mode = FenMode::kStrict) {
  auto pos = parse_fen(fen, mode);
  EXPECT_TRUE(pos.ok()) << fen << ": " << (pos.ok() ? "" : pos.error());
  return pos.ok() ? pos.value() : Position();
}

Move find(const Position& pos, Square from, Square to) {
  MoveList moves;
  generate_legal(pos, moves);
  for (Move m : moves)
    if (m.from() == from && m.to() == to) return m;
  ADD_FAILURE() << "no legal move " << square_name(from) << square_name(to) << " in "
                << to_fen(pos);
  return Move();
}

void play(Position& pos, std::initializer_list<std::pair<Square, Square>> moves) {
  for (auto [from, to] : moves) pos.make(find(pos, from, to));
}

TEST(Position, KnightShuffleRepeats) {
  Position pos;
  EXPECT_EQ(pos.repetition_count(), 0);
  play(pos, {{kG1, kF3}, {kG8, kF6}, {kF3, kG1}, {kF6, kG8}});
  EXPECT_EQ(pos.repetition_count(), 1);
  play(pos, {{kG1, kF3}, {kG8, kF6}, {kF3, kG1}, {kF6, kG8}});
  EXPECT_EQ(pos.repetition_count(), 2);  // threefold
  EXPECT_EQ(pos.halfmove_clock(), 8);
  EXPECT_EQ(pos.fullmove_number(), 5);
}

TEST(Position, LostCastlingRightsMakeADifferentPosition) {
  // 9.2: same placement but castling rights lost is not the same position.
  Position pos = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Key start = pos.key();
  play(pos, {{kE1, kE2}, {kE8, kE7}, {kE2, kE1}, {kE7, kE8}});
  EXPECT_EQ(pos.placement_key(),
            Position(from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")).placement_key());
  EXPECT_NE(pos.key(), start);
  EXPECT_EQ(pos.repetition_count(), 0);
}

TEST(Position, EnPassantCountsOnlyWhenLegal) {
  // After 1.e4 no black pawn can take on e3, so the position equals one without the ep
  // square; after a double step next to an enemy pawn it differs.
  Position pos;
  play(pos, {{kE2, kE4}});
  EXPECT_EQ(pos.en_passant_square(), kNoSquare);
  EXPECT_EQ(pos.key(), from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key());
  Position p2 = from("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
  play(p2, {{kE2, kE4}});
  EXPECT_EQ(p2.en_passant_square(), kE3);
  EXPECT_NE(p2.key(), from("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").key());
}

TEST(Position, HalfmoveClockResetsOnPawnMovesAndCaptures) {
  Position pos = from("4k3/8/8/3p4/8/2N5/4P3/4K3 w - - 10 30");
  play(pos, {{kC3, kB5}});
  EXPECT_EQ(pos.halfmove_clock(), 11);
  play(pos, {{kE8, kD7}, {kE2, kE3}});
  EXPECT_EQ(pos.halfmove_clock(), 0);
  play(pos, {{kD7, kC6}, {kB5, kC3}});
  EXPECT_EQ(pos.halfmove_clock(), 2);
  play(pos, {{kD5, kD4}, {kC3, kE4}});
  EXPECT_EQ(pos.halfmove_clock(), 1);
  play(pos, {{kD4, kE3}});
  EXPECT_EQ(pos.halfmove_clock(), 0);
  EXPECT_EQ(pos.captured_piece(), kWhitePawn);
}

TEST(Position, InsufficientMaterial) {
  EXPECT_TRUE(from("4k3/8/8/8/8/8/8/4K3 w").is_insufficient_material());
  EXPECT_TRUE(from("4k3/8/8/8/8/8/8/4KN2 w").is_insufficient_material());
  EXPECT_TRUE(from("4kb2/8/8/8/8/8/8/4K3 w").is_insufficient_material());
  EXPECT_TRUE(from("4kb2/8/8/8/8/8/8/2B1K3 w").is_insufficient_material());  // same colour
  EXPECT_FALSE(from("4k1b1/8/8/8/8/8/8/2B1K3 w").is_insufficient_material());
  EXPECT_FALSE(from("4k3/8/8/8/8/8/8/3NKN2 w").is_insufficient_material());
  EXPECT_FALSE(from("4kn2/8/8/8/8/8/8/2B1K3 w").is_insufficient_material());
  EXPECT_FALSE(from("4k3/8/8/8/8/8/4P3/4K3 w").is_insufficient_material());
  EXPECT_FALSE(Position().is_insufficient_material());
}

TEST(Position, PlacementKeyIgnoresSideCastlingAndEnPassant) {
  Position a = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Position b = from("r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1");
  EXPECT_EQ(a.placement_key(), b.placement_key());
  EXPECT_NE(a.key(), b.key());
}

TEST(Position, IrregularPositionsGenerateSafely) {
  // docs/rules.md D5/D11: the side not to move in check (its king may not be taken), a pawn
  // left on the last rank (it has no moves), a black pawn on its own first rank.
  Position checked = from("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", FenMode::kAllowIrregular);
  MoveList moves;
  generate_legal(checked, moves);
  for (Move m : moves) EXPECT_NE(m.to(), kE8) << "a king must never be captured";
  EXPECT_GT(moves.size(), 10);
  EXPECT_TRUE(checked.opponent_in_check());

  Position pawn = from("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", FenMode::kAllowIrregular);
  generate_legal(pawn, moves);
  for (Move m : moves) EXPECT_NE(m.from(), kD8);
  EXPECT_EQ(perft(pawn, 3), perft(pawn, 3));

  Position adjacent = from("8/8/8/8/8/8/8/3Kk3 w - - 0 1", FenMode::kAllowIrregular);
  generate_legal(adjacent, moves);
  for (Move m : moves) EXPECT_NE(m.to(), kE1);
  EXPECT_GT(perft(adjacent, 2), 0u);
}

TEST(Position, CopiesAreIndependent) {
  Position a;
  Position b = a;
  play(b, {{kE2, kE4}});
  EXPECT_EQ(to_fen(a), kStartFen);
  EXPECT_NE(a.key(), b.key());
}

}  // namespace
}  // namespace eboard::engine
