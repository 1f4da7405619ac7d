// One test per way people move pieces: a real GameTracker fed lifts,
// puts and presses at chosen times.
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;
constexpr const char* kCastlingFen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

TEST(Recognition, CleanMoveIsTentativeOnThePutAndCompletedOnThePressEvent) {
  BoardDriver b;
  b.lift("e2", 1000);
  EXPECT_TRUE(b.of<events::MoveTentative>().empty());
  b.put("e4", 'P', 1200);
  ASSERT_EQ(b.tentative_ucis(), Strings{"e2e4"});
  EXPECT_EQ(b.last_event<events::MoveTentative>()->at.count(), 1200);
  EXPECT_EQ(b.last<events::MoveTentative>()->san, "e4");
  b.press(kWhite, 1500);
  const auto* done = b.last<events::MoveCompleted>();
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(b.last_event<events::MoveCompleted>()->at.count(), 1500);
  EXPECT_EQ(to_uci(done->move), "e2e4");
  EXPECT_EQ(done->ply, 1);
  EXPECT_EQ(done->sighting.first_seen.count(), 1200);
  EXPECT_EQ(done->completion, CompletionKind::kClockPress);
  EXPECT_EQ(b.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST(Recognition, CastlingEitherPieceFirstOnEitherWing) {
  struct Case {
    const char* king_to;
    const char* rook_from;
    const char* rook_to;
    bool rook_first;
  };
  for (const Case c : {Case{"g1", "h1", "f1", false}, Case{"g1", "h1", "f1", true},
                       Case{"c1", "a1", "d1", false}, Case{"c1", "a1", "d1", true}}) {
    BoardDriver b(kCastlingFen);
    if (c.rook_first) b.move(c.rook_from, c.rook_to, 1000);
    b.move("e1", c.king_to, 1500);
    if (!c.rook_first) b.move(c.rook_from, c.rook_to, 2000);
    b.press(kWhite, 2500);
    EXPECT_EQ(b.completed_ucis(), Strings{std::string("e1") + c.king_to});
    // 4.4.2: the rook first is a touch-move breach for the arbiter, never an illegal move.
    EXPECT_EQ(b.of<events::TouchMoveViolation>().size(), c.rook_first ? 1u : 0u);
    EXPECT_TRUE(b.of<events::IllegalMoveCompleted>().empty());
  }
  BoardDriver b("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
  b.move("h8", "f8", 1000);
  b.move("e8", "g8", 1500);
  b.press(kBlack, 2000);
  EXPECT_EQ(b.completed_ucis(), Strings{"e8g8"});
}

TEST(Recognition, EnPassantInBothCaptureOrders) {
  for (const bool victim_first : {false, true}) {
    BoardDriver b("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    if (victim_first) b.lift("d5", 900);
    b.move("e5", "d6", 1000);
    if (!victim_first) b.lift("d5", 1300);
    b.press(kWhite, 1600);
    EXPECT_EQ(b.completed_ucis(), Strings{"e5d6"});
  }
}

TEST(Recognition, PromotionDirectTwoStepWithCaptureAndUnderPromotion) {
  const char* fen = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
  {
    BoardDriver b(fen);
    b.lift("e7", 1000);
    b.put("e8", 'Q', 1200);
    b.press(kWhite, 1500);
    EXPECT_EQ(b.completed_ucis(), Strings{"e7e8q"});
  }
  {  // the pawn put down first and left there a while: a pending incomplete promotion
    BoardDriver b(fen);
    b.move("e7", "e8", 1000);
    b.advance(1700);
    const auto* pending = b.last<events::IllegalMovePending>();
    ASSERT_NE(pending, nullptr);
    EXPECT_EQ(pending->reason, IllegalReason::kPromotionIncomplete);
    b.lift("e8", 2000);
    b.put("e8", 'Q', 2300);
    EXPECT_EQ(b.of<events::IllegalMoveCorrected>().size(), 1u);
    b.press(kWhite, 2600);
    EXPECT_EQ(b.completed_ucis(), Strings{"e7e8q"});
  }
  {
    BoardDriver b(fen);
    b.lift("d8", 900);
    b.lift("e7", 1000);
    b.put("d8", 'Q', 1200);
    b.press(kWhite, 1500);
    EXPECT_EQ(b.completed_ucis(), Strings{"e7d8q"});
  }
  {
    BoardDriver b(fen);
    b.lift("e7", 1000);
    b.put("e8", 'N', 1200);
    b.press(kWhite, 1500);
    EXPECT_EQ(b.completed_ucis(), Strings{"e7e8n"});
  }
  {  // pressed with the pawn on the last rank: 7.5.2
    BoardDriver b(fen);
    b.move("e7", "e8", 1000);
    b.press(kWhite, 1200);
    const auto* illegal = b.last<events::IllegalMoveCompleted>();
    ASSERT_NE(illegal, nullptr);
    EXPECT_EQ(illegal->reason, IllegalReason::kPromotionIncomplete);
    EXPECT_TRUE(b.completed_ucis().empty());
  }
}

TEST(Recognition, MoveTakenBackIsWithdrawnAndTheNextMoveRecordsIt) {
  BoardDriver b;
  b.move("e2", "e4", 1000);
  b.move("e4", "e2", 2000);
  ASSERT_EQ(b.of<events::MoveWithdrawn>().size(), 1u);
  EXPECT_EQ(to_uci(b.last<events::MoveWithdrawn>()->move), "e2e4");
  b.move("d2", "d4", 3000);
  b.press(kWhite, 3500);
  EXPECT_EQ(b.completed_ucis(), Strings{"d2d4"});
  EXPECT_TRUE(b.last<events::MoveCompleted>()->sighting.taken_back);
}

TEST(Recognition, HoverAndSlideNeverBecomeTheMove) {
  BoardDriver b;
  b.lift("g1", 1000);
  b.put("h3", 'N', 1100);  // a legal square touched on the way: tentative, then superseded
  b.lift("h3", 1200);
  b.put("g3", 'N', 1250);  // an illegal square, for less than debounce_ms
  b.lift("g3", 1400);
  b.put("f3", 'N', 1450);
  b.advance(3000);
  EXPECT_TRUE(b.of<events::IllegalMovePending>().empty());
  b.press(kWhite, 3000);
  EXPECT_EQ(b.tentative_ucis(), (Strings{"g1h3", "g1f3"}));
  EXPECT_EQ(b.completed_ucis(), Strings{"g1f3"});
  EXPECT_TRUE(b.last<events::MoveCompleted>()->sighting.slid_through);
}

TEST(Recognition, KnockedPieceAndFlickerAreTransients) {
  BoardDriver b;
  b.lift("d7", 500);  // knocked off the board while White thinks: in the air
  b.advance(3000);
  b.put("d7", 'p', 3000);
  b.lift("b8", 3100);  // knocked onto a neighbour for a while: pending, then corrected
  b.put("b6", 'n', 3200);
  b.advance(3600);
  ASSERT_EQ(b.of<events::IllegalMovePending>().size(), 1u);
  EXPECT_EQ(b.last<events::IllegalMovePending>()->reason, IllegalReason::kWrongSide);
  b.lift("b6", 3700);
  b.put("b8", 'n', 3800);
  EXPECT_EQ(b.of<events::IllegalMoveCorrected>().size(), 1u);
  b.lift("a1", 4000);  // flicker
  b.put("a1", 'R', 4030);
  b.move("e2", "e4", 5000);
  b.press(kWhite, 5500);
  EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"});
  EXPECT_TRUE(b.last<events::MoveCompleted>()->sighting.piece_missing);
  EXPECT_TRUE(b.of<events::IllegalMoveCompleted>().empty());
  EXPECT_TRUE(b.of<events::RestoreRequested>().empty());
}

TEST(Recognition, DisarrangedBoardAsksForTheCommittedPosition) {
  BoardDriver b;
  b.move("a1", "a5", 1000);
  b.move("h2", "h5", 1200);
  b.advance(1700);
  const auto* pending = b.last<events::IllegalMovePending>();
  ASSERT_NE(pending, nullptr);
  EXPECT_EQ(pending->reason, IllegalReason::kUnexplained);
  EXPECT_EQ(pending->squares, (std::vector<Square>{kA1, kH2, kA5, kH5}));
  EXPECT_TRUE(b.of<events::RestoreRequested>().empty());
  b.advance(4300);
  const auto* restore = b.last<events::RestoreRequested>();
  ASSERT_NE(restore, nullptr);
  EXPECT_EQ(b.last_event<events::RestoreRequested>()->at.count(), 4300);
  EXPECT_EQ(to_fen(restore->position), std::string(kStartFen));
  b.move("a5", "a1", 5000);
  b.move("h5", "h2", 5200);
  EXPECT_EQ(b.of<events::IllegalMoveCorrected>().size(), 1u);
}

TEST(Recognition, IllegalPendingReasonsThenCompletedWithCount) {
  {  // docs/rules.md scenario 2 then 6-like: king left in check, pressed
    BoardDriver b("rnbqk1nr/pppp1ppp/8/4p3/1b1P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3");
    b.move("f3", "g5", 1000);
    b.advance(1500);
    ASSERT_NE(b.last<events::IllegalMovePending>(), nullptr);
    EXPECT_EQ(b.last<events::IllegalMovePending>()->reason, IllegalReason::kKingInCheck);
    b.press(kWhite, 2000);
    const auto* done = b.last<events::IllegalMoveCompleted>();
    ASSERT_NE(done, nullptr);
    EXPECT_EQ(done->count, 1);
    EXPECT_EQ(done->from, kF3);
    EXPECT_EQ(done->to, kG5);
    EXPECT_EQ(b.tracker.illegal_count(kWhite), 1);
    EXPECT_NE(b.last<events::RestoreRequested>(), nullptr);
    EXPECT_TRUE(b.completed_ucis().empty());
  }
  struct Case {
    const char* fen;
    const char* from;
    const char* to;
    IllegalReason reason;
  };
  for (const Case c :
       {Case{kStartFen.data(), "a1", "a4", IllegalReason::kPieceMovement},
        Case{kStartFen.data(), "e7", "e5", IllegalReason::kWrongSide},
        Case{"r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1", "g1", IllegalReason::kCastling}}) {
    BoardDriver b(c.fen);
    b.move(c.from, c.to, 1000);
    if (std::string(c.to) == "g1") b.move("h1", "f1", 1200);
    b.advance(2000);
    ASSERT_NE(b.last<events::IllegalMovePending>(), nullptr) << c.from << c.to;
    EXPECT_EQ(b.last<events::IllegalMovePending>()->reason, c.reason) << c.from << c.to;
  }
}

TEST(Recognition, PressWithoutMoveIsClassifiedByTheRuleSet) {
  BoardDriver standard;
  standard.press(kWhite, 1000);
  ASSERT_NE(standard.last<events::ClockPressWithoutMove>(), nullptr);
  EXPECT_EQ(standard.last<events::ClockPressWithoutMove>()->classification, PressClass::kIllegal);
  ASSERT_NE(standard.last<events::IllegalMoveCompleted>(), nullptr);
  EXPECT_EQ(standard.last<events::IllegalMoveCompleted>()->reason,
            IllegalReason::kPressWithoutMove);
  BoardDriver legacy(config_for(kStartFen, "legacy-blitz"));
  legacy.press(kWhite, 1000);
  EXPECT_EQ(legacy.last<events::ClockPressWithoutMove>()->classification,
            PressClass::kRestartAllowed);
  EXPECT_EQ(legacy.tracker.illegal_count(kWhite), 0);
}

TEST(Recognition, TwoPliesWithoutAPressEachCompleteByTheirOwnPress) {
  BoardDriver b;  // docs/rules.md scenario 25
  b.move("e2", "e4", 1000);
  b.move("e7", "e5", 2000);
  EXPECT_EQ(b.tentative_ucis(), (Strings{"e2e4", "e7e5"}));
  EXPECT_TRUE(b.completed_ucis().empty());
  b.press(kWhite, 2500);
  EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"});
  b.press(kBlack, 3000);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5"}));
}

TEST(Recognition, BoardTurnedRoundIsMappedBeforeTheFirstMove) {
  TrackerConfig c = config_for();
  GameTracker t(c);
  GameEvents events;
  std::array<SquareCode, kSquareCount> codes{};
  for (int s = 0; s < kSquareCount; ++s) codes[s] = c.start.piece_on(rotate_180(Square(s)));
  t.placement(Millis(0), codes, events);
  EXPECT_TRUE(t.recognizer().rotated());
  t.square(Millis(1000), rotate_180(kE2), kEmptyCode, events);
  t.square(Millis(1100), rotate_180(kE4), kWhitePawn, events);
  t.lever(Millis(1500), kWhite, events);
  ASSERT_EQ(t.moves().size(), 1u);
  EXPECT_EQ(t.moves()[0].move, Move(kE2, kE4));
}

TEST(Recognition, OccupancyOnlyBoardPlaysCapturesAndPromotesToAQueen) {
  BoardDriver b(config_for("4k3/4P3/8/2p1p3/3B4/8/8/4K3 w - - 0 1", "fide-standard",
                           SensingMode::kOccupancy));
  b.lift("e5", 1000);  // the bishop could take on c5 or e5: the lifted square says which
  b.lift("d4", 1100);
  b.put("e5", '?', 1200);
  b.press(kWhite, 1500);
  b.move("e8", "d7", 2000);
  b.tracker.square(Millis(2100), parse_square("d7"), kOccupiedCode, b.events);
  b.press(kBlack, 2500);
  b.lift("e7", 3000);
  b.put("e8", '?', 3100);
  b.press(kWhite, 3500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"d4e5", "e8d7", "e7e8q"}));
}

TEST(Recognition, ResultGestureIsProposedOnlyWhenStable) {
  BoardDriver b("8/8/8/8/8/8/8/K6k w - - 0 60");
  b.move("a1", "e4", 1000);
  b.move("h1", "d5", 1200);
  b.advance(1400);  // not yet stable for debounce_ms
  EXPECT_TRUE(b.of<events::GameEnded>().empty());
  b.advance(1700);
  const auto* ended = b.last<events::GameEnded>();
  ASSERT_NE(ended, nullptr);
  EXPECT_EQ(ended->result, GameResult::kWhiteWins);
  EXPECT_TRUE(ended->finality == Finality::kProposed);
  EXPECT_TRUE(b.of<events::IllegalMovePending>().empty());
  EXPECT_TRUE(b.completed_ucis().empty());
  BoardDriver piece;
  piece.put("e4", '1', 1000);
  piece.advance(1400);
  ASSERT_NE(piece.last<events::GameEnded>(), nullptr);
  EXPECT_EQ(piece.last<events::GameEnded>()->result, GameResult::kDraw);
}

TEST(Recognition, CheckmateCompletesWithoutAPressOnceStable) {
  const char* before_mate = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
  BoardDriver slide(before_mate);
  slide.move("d8", "h4", 1000);  // over the mating square...
  slide.lift("h4", 1500);        // ...and on before game_end_stable_ms
  slide.put("g5", 'q', 1600);
  slide.advance(5000);
  EXPECT_TRUE(slide.of<events::GameEnded>().empty());
  BoardDriver mate(before_mate);
  mate.move("d8", "h4", 1000);
  mate.advance(2099);
  EXPECT_TRUE(mate.completed_ucis().empty());
  mate.advance(2100);
  ASSERT_EQ(mate.completed_ucis(), Strings{"d8h4"});
  EXPECT_EQ(mate.last<events::MoveCompleted>()->completion, CompletionKind::kGameEnd);
  EXPECT_EQ(mate.last_event<events::MoveCompleted>()->at.count(), 2100);
  EXPECT_EQ(mate.last<events::GameEnded>()->result, GameResult::kBlackWins);
  EXPECT_TRUE(mate.tracker.ended());
  BoardDriver pressed(before_mate);
  pressed.move("d8", "h4", 1000);
  pressed.press(kBlack, 1300);
  EXPECT_EQ(pressed.last<events::MoveCompleted>()->completion, CompletionKind::kClockPress);
  EXPECT_EQ(pressed.last<events::GameEnded>()->termination, TerminationKind::kCheckmate);
}

TEST(Recognition, StalemateCompletesWithoutAPress) {
  BoardDriver b("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1");
  b.move("e7", "f7", 1000);
  b.advance(2200);
  ASSERT_NE(b.last<events::GameEnded>(), nullptr);
  EXPECT_EQ(b.last<events::GameEnded>()->result, GameResult::kDraw);
  EXPECT_EQ(b.last<events::GameEnded>()->termination, TerminationKind::kStalemate);
}

}  // namespace
}  // namespace eboard::engine::testing
