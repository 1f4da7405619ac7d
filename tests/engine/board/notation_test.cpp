// SAN and UCI, both ways: every kind of disambiguation, castling, promotions, en passant,
// check and mate marks, each lenient input form and each kind of mistake.
#include "engine/board/notation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

Position from_fen(std::string_view fen) {
  Result<Position> pos = parse_fen(fen);
  EXPECT_TRUE(pos.ok()) << fen << ": " << (pos.ok() ? "" : pos.error());
  return pos.ok() ? pos.value() : Position();
}

// Plays SAN moves from the start position.
Position after(const std::vector<std::string>& sans) {
  Position pos;
  for (const std::string& san : sans) {
    Result<Move> m = parse_san(pos, san);
    EXPECT_TRUE(m.ok()) << san << ": " << (m.ok() ? "" : m.error());
    if (!m.ok()) break;
    pos.make(m.value());
  }
  return pos;
}

Move uci(const Position& pos, std::string_view text) {
  Result<Move> m = parse_uci(pos, text);
  EXPECT_TRUE(m.ok()) << text << ": " << (m.ok() ? "" : m.error());
  return m.ok() ? m.value() : Move::none();
}

std::string san_of(std::string_view fen, std::string_view uci_text) {
  const Position pos = from_fen(fen);
  return to_san(pos, uci(pos, uci_text));
}

// The UCI of what parse_san reads, or its error message.
std::string read_san(const Position& pos, std::string_view san) {
  Result<Move> m = parse_san(pos, san);
  return m.ok() ? to_uci(m.value()) : m.error();
}
std::string read_san(std::string_view fen, std::string_view san) {
  return read_san(from_fen(fen), san);
}

constexpr std::string_view kTwoKnights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";     // b1, f1 -> d2
constexpr std::string_view kKnightsOnAFile = "4k3/8/8/8/N7/8/N7/4K3 w - - 0 1";  // -> c3
constexpr std::string_view kThreeQueens = "1k6/8/8/8/4Q2Q/8/K7/7Q w - - 0 1";    // -> e1
constexpr std::string_view kPinnedKnight = "4r1k1/8/8/8/8/1N6/4N3/4K3 w - - 0 1";
constexpr std::string_view kCastles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
constexpr std::string_view kPromotion = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
constexpr std::string_view kEnPassant = "8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 2";
constexpr std::string_view kKiwipete =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

TEST(Uci, WritesSquaresCastlingAsKingStepAndLowerCasePromotion) {
  EXPECT_EQ(to_uci(Move(kE2, kE4)), "e2e4");
  EXPECT_EQ(to_uci(uci(from_fen(kCastles), "e1g1")), "e1g1");
  EXPECT_EQ(uci(from_fen(kCastles), "e1c1").kind(), MoveKind::kCastling);
  EXPECT_EQ(to_uci(uci(from_fen(kPromotion), "a7b8n")), "a7b8n");
  EXPECT_EQ(to_uci(Move::none()), "0000");
}

TEST(Uci, ReadsUpperCasePromotionLetter) {
  const Position pos = from_fen(kPromotion);
  EXPECT_EQ(uci(pos, "a7a8Q"), uci(pos, "a7a8q"));
  EXPECT_EQ(uci(pos, "a7a8q").promotion(), kQueen);
}

TEST(Uci, RejectsMalformedText) {
  const Position pos;
  for (std::string_view bad : {"", "e2", "e2e", "e9e4", "i2e4", "e2e4x", "e2e4qq", "0000"}) {
    Result<Move> m = parse_uci(pos, bad);
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_EQ(m.error().rfind("bad UCI move: '" + std::string(bad) + "'", 0), 0u) << m.error();
  }
}

TEST(Uci, RejectsIllegalMove) {
  Result<Move> m = parse_uci(Position(), "e2e5");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error(), "illegal: e2e5 is not a legal move here");
  EXPECT_FALSE(parse_uci(Position(), "e2e4q").ok());  // no promotion there
}

TEST(Uci, RejectsPromotionWithoutPiece) {
  Result<Move> m = parse_uci(from_fen(kPromotion), "a7a8");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error(), "illegal: a7a8 needs a promotion piece (a7a8q)");
}

TEST(SanOut, DisambiguatesByFile) {
  EXPECT_EQ(san_of(kTwoKnights, "b1d2"), "Nbd2");
  EXPECT_EQ(san_of(kTwoKnights, "f1d2"), "Nfd2");
  EXPECT_EQ(san_of(kTwoKnights, "f1g3"), "Ng3");  // only one knight reaches g3
}

TEST(SanOut, DisambiguatesByRankWhenFilesAreEqual) {
  EXPECT_EQ(san_of(kKnightsOnAFile, "a4c3"), "N4c3");
  EXPECT_EQ(san_of(kKnightsOnAFile, "a2c3"), "N2c3");
}

TEST(SanOut, DisambiguatesByFileAndRankWhenNeitherAlone) {
  EXPECT_EQ(san_of(kThreeQueens, "h4e1"), "Qh4e1");
  EXPECT_EQ(san_of(kThreeQueens, "e4e1"), "Qee1");
  EXPECT_EQ(san_of(kThreeQueens, "h1e1"), "Q1e1");
}

TEST(SanOut, PinnedRivalNeedsNoDisambiguation) {
  // The e2 knight could reach d4 but is pinned: only legal moves count (8.2.3.4).
  EXPECT_EQ(san_of(kPinnedKnight, "b3d4"), "Nd4");
  EXPECT_EQ(read_san(kPinnedKnight, "Nd4"), "b3d4");
}

TEST(SanOut, CastlesBothSides) {
  EXPECT_EQ(san_of(kCastles, "e1g1"), "O-O");
  EXPECT_EQ(san_of(kCastles, "e1c1"), "O-O-O");
  const std::string black = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
  EXPECT_EQ(san_of(black, "e8g8"), "O-O");
  EXPECT_EQ(san_of(black, "e8c8"), "O-O-O");
  // The rook's arrival gives check: the mark goes after the castling.
  EXPECT_EQ(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
}

TEST(SanOut, PromotesIncludingUnderPromotionWithCapture) {
  EXPECT_EQ(san_of(kPromotion, "a7a8q"), "a8=Q");  // the rook blocks the check
  EXPECT_EQ(san_of(kPromotion, "a7b8q"), "axb8=Q+");
  EXPECT_EQ(san_of(kPromotion, "a7b8r"), "axb8=R+");
  EXPECT_EQ(san_of(kPromotion, "a7b8b"), "axb8=B");
  EXPECT_EQ(san_of(kPromotion, "a7b8n"), "axb8=N");
}

TEST(SanOut, EnPassantIsAPawnCapture) {
  EXPECT_EQ(san_of(kEnPassant, "e5d6"), "exd6+");  // and the pawn on d6 checks e7
  EXPECT_EQ(san_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"), "exd6");
}

TEST(SanOut, MarksCheckAndMate) {
  const Position scholar = after({"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"});
  EXPECT_EQ(to_san(scholar, uci(scholar, "h5f7")), "Qxf7#");
  EXPECT_EQ(to_san(scholar, uci(scholar, "c4f7")), "Bxf7+");
  EXPECT_EQ(to_san(Position(), uci(Position(), "g1f3")), "Nf3");
  // Discovered check by an en passant capture that opens the bishop's diagonal.
  const Position discovered = from_fen("8/8/2k5/3pP3/8/8/6B1/4K3 w - d6 0 2");
  EXPECT_EQ(to_san(discovered, uci(discovered, "e5d6")), "exd6+");
}

// The check mark, computed without playing the move, agrees with playing it, for every
// legal move of positions full of checks, pins, promotions and castling.
TEST(SanOut, CheckMarkAgreesWithPlayingTheMove) {
  for (std::string_view fen :
       {kKiwipete, kPromotion, kEnPassant, kCastles,
        std::string_view("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        std::string_view("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
        std::string_view("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
        std::string_view("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")}) {
    const Position pos = from_fen(fen);
    MoveList legal;
    generate_legal(pos, legal);
    for (Move m : legal) {
      Position played = pos;
      played.make(m);
      std::string want;
      if (played.in_check()) want = count_legal(played) == 0 ? "#" : "+";
      const std::string san = to_san(pos, m);
      const std::string got =
          san.back() == '+' || san.back() == '#' ? san.substr(san.size() - 1) : "";
      EXPECT_EQ(got, want) << fen << " " << to_uci(m) << " " << san;
    }
  }
}

// Every legal move's SAN reads back as that move, and disambiguation is minimal: without
// it the move would be ambiguous.
TEST(SanOut, RoundTripsAndDisambiguatesMinimally) {
  for (std::string_view fen : {kKiwipete, kThreeQueens, kTwoKnights, kKnightsOnAFile, kPromotion}) {
    const Position pos = from_fen(fen);
    MoveList legal;
    generate_legal(pos, legal);
    for (Move m : legal) {
      const std::string san = to_san(pos, m);
      EXPECT_EQ(read_san(pos, san), to_uci(m)) << fen << " " << san;
      if (san.size() > 3 && std::string("NBRQK").find(san[0]) != std::string::npos) {
        std::string bare = san;
        const std::size_t x = bare.find_first_of("x");
        const std::size_t dest = x != std::string::npos
                                     ? x
                                     : bare.size() - 2 - (bare.back() == '+' || bare.back() == '#');
        if (dest > 1) {
          bare.erase(1, dest - 1);
          EXPECT_NE(read_san(pos, bare).rfind("ambiguous: ", 0), std::string::npos)
              << fen << " " << san << " without disambiguation should be ambiguous";
        }
      }
    }
  }
}

TEST(SanIn, AcceptsZeroesForCastling) {
  EXPECT_EQ(read_san(kCastles, "0-0"), "e1g1");
  EXPECT_EQ(read_san(kCastles, "0-0-0"), "e1c1");
  EXPECT_EQ(read_san(kCastles, "O-O-O+"), "e1c1");
}

TEST(SanIn, AcceptsEveryPromotionSpelling) {
  for (std::string_view text : {"a8=Q", "a8Q", "a8(Q)", "a8q", "a8=Q+", "a8=Q!"})
    EXPECT_EQ(read_san(kPromotion, text), "a7a8q") << text;
  for (std::string_view text : {"axb8=N", "axb8N", "axb8(N)", "ab8=N", "axb8=N+", "a7b8N"})
    EXPECT_EQ(read_san(kPromotion, text), "a7b8n") << text;
}

TEST(SanIn, AcceptsMissingOrExtraCheckMarks) {
  const Position scholar = after({"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"});
  EXPECT_EQ(read_san(scholar, "Qxf7"), "h5f7");
  EXPECT_EQ(read_san(scholar, "Qxf7+"), "h5f7");
  EXPECT_EQ(read_san(scholar, "Qxf7#"), "h5f7");
  EXPECT_EQ(read_san(Position(), "Nf3+"), "g1f3");
  EXPECT_EQ(read_san(Position(), "e4#"), "e2e4");
}

TEST(SanIn, AcceptsAnnotationMarks) {
  for (std::string_view text : {"e4!", "e4?", "e4!!", "e4??", "e4!?", "e4?!", " e4 "})
    EXPECT_EQ(read_san(Position(), text), "e2e4") << text;
}

TEST(SanIn, AcceptsSuperfluousDisambiguation) {
  for (std::string_view text : {"Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Ng1xf3"})
    EXPECT_EQ(read_san(Position(), text), "g1f3") << text;
  EXPECT_EQ(read_san(Position(), "e2e4"), "e2e4");
  EXPECT_EQ(read_san(Position(), "e2-e4"), "e2e4");
  EXPECT_EQ(read_san(Position(), "Pe4"), "e2e4");
}

TEST(SanIn, AcceptsCaptureWithoutXAndOtherCaptureMarks) {
  const Position scholar = after({"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"});
  EXPECT_EQ(read_san(scholar, "Qf7"), "h5f7");
  EXPECT_EQ(read_san(scholar, "Q:f7"), "h5f7");
  EXPECT_EQ(read_san(after({"e4", "d5"}), "ed5"), "e4d5");
}

TEST(SanIn, ReadsEnPassantCaptures) {
  EXPECT_EQ(read_san(kEnPassant, "exd6"), "e5d6");
  EXPECT_EQ(read_san(kEnPassant, "exd6e.p."), "e5d6");
  EXPECT_EQ(read_san(kEnPassant, "exd6 e.p."), "e5d6");
  EXPECT_EQ(from_fen(kEnPassant).is_capture(uci(from_fen(kEnPassant), "e5d6")), true);
}

TEST(SanIn, ReadsPawnPushesOnlyAlongTheFile) {
  // The d3 pawn could capture on e4, but "e4" is the e-pawn's push.
  const std::string fen = "4k3/8/8/8/4p3/3P4/4P3/4K3 w - - 0 1";
  EXPECT_EQ(read_san(fen, "e3"), "e2e3");
  EXPECT_EQ(read_san(fen, "dxe4"), "d3e4");
  EXPECT_EQ(read_san(fen, "d4"), "d3d4");
  EXPECT_EQ(read_san(fen, "e4"), "no such move: e4 (no white pawn can go to e4)");
}

TEST(SanIn, RejectsAmbiguousMoveNamingTheCandidates) {
  EXPECT_EQ(read_san(kTwoKnights, "Nd2"), "ambiguous: Nd2 could be Nbd2 or Nfd2");
  EXPECT_EQ(read_san(kThreeQueens, "Qe1"), "ambiguous: Qe1 could be Q1e1, Qee1 or Qh4e1");
  EXPECT_EQ(read_san(kThreeQueens, "Qhe1"), "ambiguous: Qhe1 could be Q1e1 or Qh4e1");
}

TEST(SanIn, RejectsMoveOfPinnedPieceAsIllegal) {
  EXPECT_EQ(read_san("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "Nd4"),
            "illegal: Nd4 (the white knight cannot move there: its king would be in check)");
  EXPECT_EQ(read_san(kPinnedKnight, "Ned4"),
            "illegal: Ned4 (the white knight cannot move there: its king would be in check)");
}

TEST(SanIn, RejectsMoveThatIgnoresCheckAsIllegal) {
  const Position pos = after({"e4", "f5", "Qh5+"});
  EXPECT_EQ(read_san(pos, "Nf6").rfind("illegal: Nf6", 0), 0u) << read_san(pos, "Nf6");
  EXPECT_EQ(read_san(pos, "g6"), "g7g6");
}

TEST(SanIn, RejectsCastlingWithTheReason) {
  EXPECT_EQ(read_san("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O"),
            "illegal: O-O (no castling right)");
  EXPECT_EQ(read_san("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O"),
            "illegal: O-O-O (a piece stands in the way)");
  EXPECT_EQ(read_san("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "O-O"),
            "illegal: O-O (the king is in check)");
  EXPECT_EQ(read_san("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "0-0"),
            "illegal: 0-0 (the king would pass through or land on an attacked square)");
}

TEST(SanIn, RejectsMoveNoPieceCanMake) {
  EXPECT_EQ(read_san(Position(), "Nd5"), "no such move: Nd5 (no white knight can go to d5)");
  EXPECT_EQ(read_san(Position(), "e5"), "no such move: e5 (no white pawn can go to e5)");
  EXPECT_EQ(read_san(Position(), "Qxf7"), "no such move: Qxf7 (no white queen can go to f7)");
  EXPECT_EQ(read_san(after({"e4"}), "Ke7"), "no such move: Ke7 (no black king can go to e7)");
}

TEST(SanIn, RejectsPromotionWithoutPiece) {
  EXPECT_EQ(read_san(kPromotion, "a8"), "bad SAN: 'a8' (a promotion needs a piece, e.g. a8=Q)");
}

TEST(SanIn, RejectsMalformedText) {
  EXPECT_EQ(read_san(Position(), ""), "bad SAN: '' (empty move)");
  EXPECT_EQ(read_san(Position(), "+!"), "bad SAN: '+!' (empty move)");
  EXPECT_EQ(read_san(Position(), "Xe4"), "bad SAN: 'Xe4' (unexpected 'X')");
  EXPECT_EQ(read_san(Position(), "e9"), "bad SAN: 'e9' (no destination square)");
  EXPECT_EQ(read_san(Position(), "Nzzf3"), "bad SAN: 'Nzzf3' (unexpected 'zz')");
  EXPECT_EQ(read_san(kPromotion, "a8=K"),
            "bad SAN: 'a8=K' (unexpected '=K' after the destination)");
  EXPECT_EQ(read_san(Position(), "Nf3=Q"), "bad SAN: 'Nf3=Q' (only a pawn promotes)");
  EXPECT_EQ(read_san(Position(), "O-O-O-O"), "bad SAN: 'O-O-O-O' (no destination square)");
}

}  // namespace
}  // namespace eboard::engine
