// MoveRecognizer on a board without a clock, with injected time: each completion rule and
// the placements that must not complete anything (docs/clockless.md).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/recognize/move_recognizer.h"

namespace eboard::engine {
namespace {

using Kind = RecognizerEvent::Kind;
using std::chrono::milliseconds;

RecognizerTiming timing() {
  RecognizerTiming t;
  t.clockless = {milliseconds(750), milliseconds(3000), milliseconds(150)};
  return t;
}

// The recognizer with what a tracker does with its reports: a completed move is
// committed at once; everything is kept for inspection.
struct Clockless {
  explicit Clockless(std::string_view fen = kStartFen, SensingMode mode = SensingMode::kAuto,
                     RecognizerTiming t = timing())
      : rec(parse_fen(fen).value(), t, mode) {
    RecognizerEvents out;
    rec.set_clockless(true, milliseconds(0), out);
    take(out);
  }
  void lift(std::string_view sq, int at) { feed(sq, kEmptyCode, at); }
  void put(std::string_view sq, char piece, int at) { feed(sq, square_code_from_char(piece), at); }
  void move(std::string_view from, std::string_view to, int at) {
    const SquareCode code = rec.sensed().at(parse_square(from));
    lift(from, at);
    put(to, square_code_to_char(code), at + 100);
  }
  // The timers up to `at`, each at its own deadline.
  void run_to(int at) {
    while (const auto d = rec.next_deadline()) {
      if (*d > milliseconds(at)) break;
      RecognizerEvents out;
      rec.advance(*d, out);
      take(out);
    }
  }
  void feed(std::string_view sq, SquareCode code, int at) {
    run_to(at);
    RecognizerEvents out;
    rec.sense_square(parse_square(sq), code, milliseconds(at), out);
    take(out);
  }
  void take(RecognizerEvents& out) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const RecognizerEvent e = out[i];
      events.push_back(e);
      if (e.kind == Kind::kCompleted) {
        completed.push_back(to_uci(e.move));
        rules.push_back(e.completion);
        times.push_back(int(e.at.count()));
        RecognizerEvents more;
        rec.commit(e.move, e.at, more);
        take(more);
      }
    }
  }
  std::vector<const RecognizerEvent*> of(Kind kind) const {
    std::vector<const RecognizerEvent*> r;
    for (const auto& e : events)
      if (e.kind == kind) r.push_back(&e);
    return r;
  }

  MoveRecognizer rec;
  std::vector<RecognizerEvent> events;
  std::vector<std::string> completed;
  std::vector<UnpressedCompletion> rules;
  std::vector<int> times;
};

using Strings = std::vector<std::string>;

TEST(ClocklessRecognizer, AMoveLeftStandingCompletesAfterTheSettleTime) {
  Clockless b;
  b.move("e2", "e4", 1000);  // stands from 1100
  b.run_to(4099);
  EXPECT_TRUE(b.completed.empty());
  b.run_to(4100);
  EXPECT_EQ(b.completed, Strings{"e2e4"});
  EXPECT_EQ(b.rules, std::vector{UnpressedCompletion::kSettled});
  EXPECT_EQ(b.times, std::vector{4100});
  EXPECT_EQ(b.rec.committed().side_to_move(), kBlack);
}

// The rule set's times (clockless_settle_ms, clockless_stable_ms) are the ones used.
TEST(ClocklessRecognizer, TheTimesAreTheRuleSetsOwn) {
  RecognizerTiming slow = timing();
  slow.clockless = {milliseconds(2000), milliseconds(5000), milliseconds(150)};
  Clockless b(kStartFen, SensingMode::kAuto, slow);
  b.move("e2", "e4", 1000);  // stands from 1100
  b.run_to(6099);
  EXPECT_TRUE(b.completed.empty());
  b.run_to(6100);
  EXPECT_EQ(b.completed, Strings{"e2e4"});
  // Black's lift 1.5 s after White's move stood is before the stable time: no completion.
  b.move("e7", "e5", 7000);  // stands from 7100
  b.lift("g1", 8600);
  b.run_to(8800);
  EXPECT_EQ(b.completed, Strings{"e2e4"});
}

TEST(ClocklessRecognizer, TheOpponentLiftingAPieceCompletesTheMoveThatStood) {
  Clockless b;
  b.move("e2", "e4", 1000);
  b.lift("e7", 2000);  // Black begins after 900 ms: e4 stood >= 750
  b.run_to(2149);
  EXPECT_TRUE(b.completed.empty());
  b.run_to(2150);
  EXPECT_EQ(b.completed, Strings{"e2e4"});
  EXPECT_EQ(b.rules, std::vector{UnpressedCompletion::kOpponentBegan});
  b.put("e5", 'p', 2400);  // Black's move is the candidate now
  b.run_to(5399);
  EXPECT_EQ(b.completed.size(), 1u);
  b.run_to(5400);
  EXPECT_EQ(b.completed, (Strings{"e2e4", "e7e5"}));
}

TEST(ClocklessRecognizer, BeforeTheStableTimeOnlyTheOpponentsMovePutDownCompletes) {
  Clockless b;
  b.move("e2", "e4", 1000);
  b.lift("e7", 1400);  // after 300 ms: not yet a standing move
  b.run_to(1700);
  EXPECT_TRUE(b.completed.empty());
  b.put("e5", 'p', 1800);  // Black's move on top of it: e4 is complete
  EXPECT_EQ(b.completed, Strings{"e2e4"});
  EXPECT_EQ(b.rules, std::vector{UnpressedCompletion::kOpponentBegan});
  EXPECT_EQ(b.times, std::vector{1800});
  b.run_to(4799);  // e5 stands since 1800
  EXPECT_EQ(b.completed.size(), 1u);
  b.run_to(4800);
  EXPECT_EQ(b.completed, (Strings{"e2e4", "e7e5"}));
}

TEST(ClocklessRecognizer, AMoveTakenBackBeforeTheSettleTimeIsNeverCompleted) {
  Clockless b;
  b.move("g1", "f3", 1000);
  b.lift("f3", 2900);  // stood 1800 ms, then taken back and another move made
  b.put("g1", 'N', 3100);
  b.move("b1", "c3", 4500);
  b.run_to(20000);
  EXPECT_EQ(b.completed, Strings{"b1c3"});
  EXPECT_EQ(b.of(Kind::kWithdrawn).size(), 1u);
}

TEST(ClocklessRecognizer, TheSameMoveTriedTakenBackAndReplayedCompletesOnce) {
  Clockless b;
  b.move("e2", "e4", 1000);
  b.lift("e4", 2800);
  b.put("e2", 'P', 3000);
  b.move("e2", "e4", 5000);
  b.run_to(20000);
  EXPECT_EQ(b.completed, Strings{"e2e4"});
  EXPECT_EQ(b.times, std::vector{8100});
}

TEST(ClocklessRecognizer, HoveringAndARookFirstCastlingCompleteOnlyTheMoveMade) {
  Clockless b("r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1");
  b.lift("h1", 1000);
  b.put("f1", 'R', 1200);  // Rf1 is a legal move: it stands for 600 ms
  b.lift("e1", 1800);
  b.put("g1", 'K', 2000);  // O-O
  b.lift("a7", 2900);      // Black begins: a piece of theirs set down on a6 first
  b.put("a6", 'p', 3000);  // a hover: a6 is a legal move too
  b.lift("a6", 3500);
  b.put("a5", 'p', 3700);
  b.run_to(20000);
  EXPECT_EQ(b.completed, (Strings{"e1g1", "a7a5"}));
  EXPECT_EQ(b.rules,
            (std::vector{UnpressedCompletion::kOpponentBegan, UnpressedCompletion::kSettled}));
}

TEST(ClocklessRecognizer, ACaptureByTheOpponentVictimFirstCompletesOnTheirOwnLift) {
  Clockless b("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
  b.move("e2", "e4", 1000);
  b.lift("e4", 2500);  // Black takes the pawn off first: not yet a beginning
  b.run_to(2800);
  EXPECT_TRUE(b.completed.empty());
  b.lift("d5", 2900);  // then their own pawn
  b.run_to(3050);
  EXPECT_EQ(b.completed, Strings{"e2e4"});
  b.put("e4", 'p', 3300);
  b.run_to(6300);
  EXPECT_EQ(b.completed, (Strings{"e2e4", "d5e4"}));
}

TEST(ClocklessRecognizer, AnIllegalPlacementStaysPendingThenSettles) {
  Clockless b;
  b.lift("f1", 1000);
  b.put("c4", 'B', 1100);  // through the pawn on e2: illegal
  b.run_to(1400);
  ASSERT_EQ(b.of(Kind::kIllegalPending).size(), 1u);
  EXPECT_TRUE(b.of(Kind::kIllegalCompleted).empty());
  b.run_to(4099);
  EXPECT_TRUE(b.of(Kind::kIllegalCompleted).empty());
  b.run_to(4100);
  const auto done = b.of(Kind::kIllegalCompleted);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0]->completion, UnpressedCompletion::kSettled);
  EXPECT_EQ(done[0]->illegal.reason, IllegalReason::kPieceMovement);
  EXPECT_EQ(done[0]->side, kWhite);
  // The rule set may reinstate the position; the placement still there is not completed
  // again until the board is back on the legal path.
  RecognizerEvents out;
  b.rec.replace_committed(b.rec.committed(), milliseconds(4100), out);
  b.take(out);
  b.run_to(20000);
  EXPECT_EQ(b.of(Kind::kIllegalCompleted).size(), 1u);
  b.lift("c4", 20000);
  b.put("f1", 'B', 20100);
  b.lift("f1", 21000);
  b.put("c4", 'B', 21100);
  b.run_to(30000);
  EXPECT_EQ(b.of(Kind::kIllegalCompleted).size(), 2u);
}

TEST(ClocklessRecognizer, AnIllegalPlacementIsCompletedWhenTheOpponentBegins) {
  Clockless b;
  b.lift("f1", 1000);
  b.put("c4", 'B', 1100);
  b.lift("g8", 2500);
  b.run_to(2650);
  const auto done = b.of(Kind::kIllegalCompleted);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0]->completion, UnpressedCompletion::kOpponentBegan);
  EXPECT_EQ(done[0]->at, milliseconds(2650));
}

TEST(ClocklessRecognizer, AnEnPassantCapturesVictimLiftedLastIsPartOfTheMove) {
  Clockless b("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  b.lift("e5", 1000);
  b.put("f6", 'P', 1100);  // illegal until the victim goes: pending after the debounce
  b.run_to(1900);
  ASSERT_EQ(b.of(Kind::kIllegalPending).size(), 1u);
  b.lift("f5", 2000);  // a Black pawn lifted, but it makes the legal capture
  b.run_to(9000);
  EXPECT_TRUE(b.of(Kind::kIllegalCompleted).empty());
  EXPECT_EQ(b.completed, Strings{"e5f6"});
}

TEST(ClocklessRecognizer, ADisarrangedBoardIsNeverCompletedByTime) {
  Clockless b;
  b.lift("a2", 1000);
  b.put("h5", 'P', 1100);
  b.lift("b7", 1200);
  b.put("a4", 'p', 1300);
  b.run_to(60000);
  ASSERT_FALSE(b.of(Kind::kIllegalPending).empty());
  EXPECT_EQ(b.of(Kind::kIllegalPending).back()->illegal.reason, IllegalReason::kUnexplained);
  EXPECT_TRUE(b.of(Kind::kIllegalCompleted).empty());
  EXPECT_TRUE(b.completed.empty());
}

// Occupancy only: a capturing piece lifted shows the occupancy of its capture of any piece
// it attacks; held for longer than the settle time it is still no move.
TEST(ClocklessRecognizer, OnAnOccupancyBoardALiftedCapturingPieceIsNoCapture) {
  Clockless b("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
              SensingMode::kOccupancy);
  b.lift("e4", 1000);  // reads as exd5: d5 is occupied
  b.run_to(9000);
  EXPECT_TRUE(b.completed.empty());
  EXPECT_TRUE(b.of(Kind::kTentative).empty());
  b.lift("d5", 9000);
  b.put("d5", '?', 9200);  // now the capture is made
  b.run_to(20000);
  EXPECT_EQ(b.completed, Strings{"e4d5"});
}

// Occupancy only: Black's reply stood; White takes the victim off first, then lifts the
// capturing piece (which completes Black's move); the capture is told from the other
// captures of the same occupancy by the victim lifted before that completion.
TEST(ClocklessRecognizer, OnAnOccupancyBoardAVictimLiftedBeforeTheCompletionNamesTheCapture) {
  // The bishop on c4 attacks b5 and d5: Bxb5 and Bxd5 read the same.
  Clockless b("r1bqkbnr/p1p2ppp/2n5/1p1pp3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 0 5",
              SensingMode::kOccupancy);
  b.move("a7", "a6", 1000);
  b.lift("d5", 2500);  // White takes the pawn off (Black's piece: no beginning)
  b.lift("c4", 2700);  // then the bishop: Black's move is complete
  b.run_to(2850);
  EXPECT_EQ(b.completed, Strings{"a7a6"});
  b.put("d5", '?', 3000);
  b.run_to(20000);
  EXPECT_EQ(b.completed, (Strings{"a7a6", "c4d5"}));
}

TEST(ClocklessRecognizer, SwitchedOnWithTwoPliesStandingTheFirstCompletesAtOnce) {
  MoveRecognizer rec(parse_fen(kStartFen).value(), timing());
  RecognizerEvents out;
  for (const auto& [sq, code, at] : std::vector<std::tuple<const char*, char, int>>{
           {"e2", '.', 1000}, {"e4", 'P', 1100}, {"e7", '.', 2000}, {"e5", 'p', 2100}}) {
    rec.sense_square(parse_square(sq), square_code_from_char(code), milliseconds(at), out);
  }
  out.clear();
  rec.set_clockless(true, milliseconds(2500), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, Kind::kCompleted);
  EXPECT_EQ(out[0].completion, UnpressedCompletion::kOpponentBegan);
  EXPECT_EQ(to_uci(out[0].move), "e2e4");
  const Move first = out[0].move;
  out.clear();
  rec.commit(first, milliseconds(2500), out);
  // e5 stood since 2100: it settles 3 s after that, not after the switch.
  EXPECT_EQ(rec.next_deadline(), milliseconds(5100));
}

TEST(ClocklessRecognizer, SwitchedOffTheTimersStop) {
  Clockless b;
  b.move("e2", "e4", 1000);
  RecognizerEvents out;
  b.rec.set_clockless(false, milliseconds(1500), out);
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(b.rec.next_deadline());
  b.run_to(60000);
  EXPECT_TRUE(b.completed.empty());
}

}  // namespace
}  // namespace eboard::engine
