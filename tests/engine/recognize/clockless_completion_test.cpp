// ClocklessCompletion on its own, with injected time: each rule, and what stops or drops
// a candidate (docs/clockless.md).
#include "engine/recognize/clockless_completion.h"

#include <gtest/gtest.h>

#include "engine/board/fen.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

constexpr ClocklessTiming kTiming{milliseconds(750), milliseconds(3000), milliseconds(150)};

// The board after 1. e4, and White's move standing on it as the candidate.
struct Board {
  SensedBoard sensed;
  ClocklessCompletion unit{kTiming};
  Board() {
    Position p = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").value();
    sensed.set_position(p);
    unit.stand(CandidateKind::kLegalMove, milliseconds(1000), sensed, p.pieces(kBlack));
  }
  void lift(std::string_view sq, int at) {
    sensed.set(parse_square(sq), kEmptyCode);
    unit.sensed(milliseconds(at), sensed);
  }
  void put(std::string_view sq, char piece, int at) {
    sensed.set(parse_square(sq), square_code_from_char(piece));
    unit.sensed(milliseconds(at), sensed);
  }
};

TEST(ClocklessCompletion, AMoveLeftStandingSettles) {
  Board b;
  EXPECT_EQ(b.unit.next_deadline(), milliseconds(4000));
  EXPECT_FALSE(b.unit.due(milliseconds(3999)));
  const auto d = b.unit.due(milliseconds(5000));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->rule, ClocklessRule::kSettled);
  EXPECT_EQ(d->kind, CandidateKind::kLegalMove);
  EXPECT_EQ(d->at, milliseconds(4000));  // the deadline, not the late call
  EXPECT_FALSE(b.unit.has_candidate());
  EXPECT_FALSE(b.unit.due(milliseconds(9000)));  // once
}

TEST(ClocklessCompletion, TheOpponentLiftingAPieceAfterTheStableTimeCompletesIt) {
  Board b;
  b.lift("g8", 1800);  // stood 800 ms >= 750
  EXPECT_EQ(b.unit.next_deadline(), milliseconds(1950));
  const auto d = b.unit.due(milliseconds(1950));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->rule, ClocklessRule::kOpponentBegan);
  EXPECT_EQ(d->at, milliseconds(1950));
}

TEST(ClocklessCompletion, AnOpponentsLiftBeforeTheStableTimeCompletesNothing) {
  Board b;
  b.lift("g8", 1500);  // stood 500 ms only: a hand passing over, or the mover not done
  EXPECT_FALSE(b.unit.next_deadline());
  b.put("g8", 'n', 1600);  // back: its times start again
  EXPECT_EQ(b.unit.next_deadline(), milliseconds(4600));
}

TEST(ClocklessCompletion, AFlickerShorterThanTheLiftHoldIsNoBeginning) {
  Board b;
  b.lift("d8", 2000);
  b.put("d8", 'q', 2060);  // 60 ms: a sensor flicker
  EXPECT_FALSE(b.unit.due(milliseconds(2200)));
  EXPECT_EQ(b.unit.next_deadline(), milliseconds(5060));  // settle counts from the return
}

TEST(ClocklessCompletion, AVictimLiftedFirstThenTheCapturingPieceCountsFromTheFirstLift) {
  Board b;
  b.lift("e4", 2000);  // Black takes White's pawn off first (or White lifts it again)
  EXPECT_FALSE(b.unit.next_deadline());
  b.lift("d7", 2300);  // then a Black piece: the opponent began, the move stood 1000 ms
  const auto d = b.unit.due(milliseconds(2450));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->rule, ClocklessRule::kOpponentBegan);
}

TEST(ClocklessCompletion, TheMoverTakingThePieceBackDropsTheCandidate) {
  Board b;
  b.lift("e4", 2000);
  b.put("e2", 'P', 2300);  // taken back: another placement
  EXPECT_FALSE(b.unit.has_candidate());
  EXPECT_FALSE(b.unit.next_deadline());
}

TEST(ClocklessCompletion, AnIllegalPlacementSettlesOrIsCompletedByTheOpponent) {
  for (const bool opponent : {false, true}) {
    Board b;
    b.unit.stand(CandidateKind::kIllegalPlacement, milliseconds(1000), b.sensed,
                 parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                     .value()
                     .pieces(kBlack));
    if (opponent) b.lift("b8", 2500);
    const auto d = b.unit.due(milliseconds(10000));
    ASSERT_TRUE(d) << opponent;
    EXPECT_EQ(d->kind, CandidateKind::kIllegalPlacement);
    EXPECT_EQ(d->rule, opponent ? ClocklessRule::kOpponentBegan : ClocklessRule::kSettled);
    EXPECT_EQ(d->at, milliseconds(opponent ? 2650 : 4000));
  }
}

}  // namespace
}  // namespace eboard::engine
