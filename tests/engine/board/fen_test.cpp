#include "engine/board/fen.h"

#include <gtest/gtest.h>

namespace eboard::engine {
namespace {

std::string error_of(std::string_view fen, FenMode mode = FenMode::kStrict) {
  auto pos = parse_fen(fen, mode);
  return pos.ok() ? "(accepted)" : pos.error();
}

TEST(Fen, StartPositionRoundTrips) {
  auto pos = parse_fen(kStartFen);
  ASSERT_TRUE(pos.ok());
  EXPECT_EQ(to_fen(*pos), kStartFen);
  EXPECT_EQ(pos->key(), Position().key());
  EXPECT_EQ(to_fen(Position()), kStartFen);
}

TEST(Fen, MissingFieldsDefault) {
  auto two = parse_fen("4k3/8/8/8/8/8/8/4K3 b");
  ASSERT_TRUE(two.ok()) << two.error();
  EXPECT_EQ(to_fen(*two), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
  auto four = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq -");
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(to_fen(*four), "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
  EXPECT_EQ(four->castling_rights(), kWhiteKingside | kBlackQueenside);
}

TEST(Fen, CountersAreRead) {
  auto pos = parse_fen("4k3/8/8/8/8/8/8/4K3 b - - 37 52");
  ASSERT_TRUE(pos.ok());
  EXPECT_EQ(pos->halfmove_clock(), 37);
  EXPECT_EQ(pos->fullmove_number(), 52);
  EXPECT_EQ(pos->game_ply(), 103);
}

// One test per kind of mistake, each with its precise message.
TEST(FenErrors, WrongNumberOfFields) {
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3"), "FEN must have 2 to 6 fields, found 1");
  EXPECT_EQ(error_of(""), "FEN must have 2 to 6 fields, found 0");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x"), "FEN must have 2 to 6 fields, found 7");
}
TEST(FenErrors, BadPieceLetter) {
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K2X w"), "bad piece letter 'X' in rank 1");
}
TEST(FenErrors, RankNotSummingToEight) {
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/7/4K3 w"), "rank 2 has 7 squares, not 8");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K4 w"), "rank 1 has more than 8 squares");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8 w"), "only 7 ranks, not 8");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/8/4K3 w"), "more than 8 ranks");
}
TEST(FenErrors, MissingOrExtraKings) {
  EXPECT_EQ(error_of("8/8/8/8/8/8/8/4K3 w"), "no black king");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/8 w"), "no white king");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/3KK3 w"), "2 white kings");
}
TEST(FenErrors, BadSideToMove) {
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 x"), "side to move must be 'w' or 'b', not 'x'");
}
TEST(FenErrors, PawnOnFirstOrLastRank) {
  EXPECT_EQ(error_of("3Pk3/8/8/8/8/8/8/4K3 w"),
            "pawn on d8 (pawns never stand on the first or last rank)");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/p3K3 w"),
            "pawn on a1 (pawns never stand on the first or last rank)");
}
TEST(FenErrors, SideNotToMoveInCheck) {
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4KR2 w"), "(accepted)");
  EXPECT_EQ(error_of("4k3/4R3/8/8/8/8/8/4K3 w"), "the side not to move (black) is in check");
}
TEST(FenErrors, CastlingContradictsPlacement) {
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w K"), "castling right 'K' but no rook on h1");
  EXPECT_EQ(error_of("r3k2r/8/8/8/8/8/8/R2K3R w Q"), "castling right 'Q' but no king on e1");
  EXPECT_EQ(error_of("r3k2r/8/8/8/8/8/8/R3K2R w KX"), "bad castling letter 'X'");
  EXPECT_EQ(error_of("r3k2r/8/8/8/8/8/8/R3K2R w KK"), "castling letter 'K' repeated");
}
TEST(FenErrors, ImpossibleEnPassantSquare) {
  EXPECT_EQ(error_of("4k3/8/8/3pP3/8/8/8/4K3 w - d3"),
            "en passant square d3 cannot be right: it must be on rank 6 with white to move");
  EXPECT_EQ(error_of("4k3/8/8/4P3/8/8/8/4K3 w - d6"),
            "en passant square d6 cannot be right: no pawn on d5 that could have just moved two "
            "squares");
  EXPECT_EQ(error_of("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6"),
            "en passant square d6 cannot be right: d6 and d7 must be empty");
  EXPECT_EQ(error_of("4k3/8/8/3pP3/8/8/8/4K3 w - z9"), "bad en passant square 'z9'");
}
TEST(FenErrors, BadCounters) {
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - x 1"), "bad halfmove clock 'x'");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - 0 0"), "bad fullmove number '0'");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - -3 1"), "bad halfmove clock '-3'");
}

TEST(Fen, IrregularPositionsOnlyWhenAsked) {
  // docs/rules.md D5/D11: an illegal move that stood can leave the mover in check or a pawn on
  // the last rank; the game goes on from there.
  const char* in_check = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1";
  const char* last_rank_pawn = "3Pk3/8/8/8/8/8/8/4K3 b - - 0 1";
  for (const char* fen : {in_check, last_rank_pawn}) {
    EXPECT_FALSE(parse_fen(fen).ok()) << fen;
    auto pos = parse_fen(fen, FenMode::kAllowIrregular);
    ASSERT_TRUE(pos.ok()) << fen;
    EXPECT_EQ(to_fen(*pos), fen);
  }
}

TEST(Fen, EnPassantKeptOnlyWhenACaptureIsLegal) {
  auto legal = parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  ASSERT_TRUE(legal.ok());
  EXPECT_EQ(legal->en_passant_square(), kD6);
  // No white pawn next to d5: the square is plausible, but nothing can take.
  auto nobody = parse_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2");
  ASSERT_TRUE(nobody.ok());
  EXPECT_EQ(nobody->en_passant_square(), kNoSquare);
  EXPECT_EQ(to_fen(*nobody), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2");
  // The capture would uncover the rook's attack along the fifth rank.
  auto pinned = parse_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2");
  ASSERT_TRUE(pinned.ok());
  EXPECT_EQ(pinned->en_passant_square(), kNoSquare);
}

TEST(Fen, SquaresAndPieces) {
  EXPECT_EQ(square_name(kE4), "e4");
  EXPECT_EQ(parse_square("h8"), kH8);
  EXPECT_EQ(parse_square("i1"), kNoSquare);
  EXPECT_EQ(parse_square("e"), kNoSquare);
  EXPECT_EQ(piece_to_char(kBlackQueen), 'q');
  EXPECT_EQ(piece_from_char('N'), kWhiteKnight);
  EXPECT_EQ(piece_from_char('x'), kNoPiece);
}

}  // namespace
}  // namespace eboard::engine
