// The PromotionChoice command (command.proto; docs/protocols.md §10): on a board that senses
// occupancy only it names the piece of the promotion on the board or of the next one; on
// a board that senses the pieces it is refused with a precise error.
#include <gtest/gtest.h>

#include "daemon/core/board_session.h"
#include "engine/board/fen.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/published_events.h"
#include "tests/daemon/session_fixture.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::PublishedEvents;
using testing_support::sq;

constexpr const char* kTwoPawnsFen = "8/1P4P1/8/8/8/k7/p7/4K3 w - - 0 1";

class PromotionChoiceCommand : public testing::Test {
 protected:
  PublishedEvents published_;
  BoardSession session_{"b1", setup(), drivers::WhiteSetting::kLeft, published_.publish()};
  static GameSetup setup() {
    GameSetup s;
    s.rules = "fide-standard";
    s.clock = "900+10";
    s.start_fen = kTwoPawnsFen;
    return s;
  }
  v1::Ack choose(v1::PromotionPiece piece, int at_ms) {
    v1::Command c;
    c.mutable_promotion_choice()->set_piece(piece);
    return session_.command(c, milliseconds(at_ms));
  }
  std::vector<std::string> ucis(bool completed) const {
    std::vector<std::string> out;
    for (const auto& e : published_.events) {
      if (completed && e.has_move_completed()) out.push_back(e.move_completed().uci());
      if (!completed && e.has_move_tentative()) out.push_back(e.move_tentative().uci());
    }
    return out;
  }
};

TEST_F(PromotionChoiceCommand, OccupancyBoardTakesTheChoiceBeforeOrAfterThePawnIsPutDown) {
  session_.on_sensor(drivers::PlacementSeen{placement_of(kTwoPawnsFen, true)}, milliseconds(0));
  EXPECT_EQ(choose(v1::PROMOTION_PIECE_UNSPECIFIED, 100).code(), v1::ACK_ERROR_INVALID_ARGUMENT);
  const v1::Ack before = choose(v1::PROMOTION_PIECE_KNIGHT, 200);
  ASSERT_TRUE(before.ok()) << before.error();
  EXPECT_EQ(before.seq(), 0u);  // nothing on the board to re-match yet
  session_.on_sensor(drivers::SquareChanged{sq('b', 7), drivers::Piece::kEmpty},
                     milliseconds(1000));
  session_.on_sensor(drivers::SquareChanged{sq('b', 8), drivers::Piece::kOccupied},
                     milliseconds(1100));
  session_.on_sensor(drivers::LeverPressed{drivers::ClockSide::kLeft}, milliseconds(1500));
  session_.on_sensor(drivers::SquareChanged{sq('a', 3), drivers::Piece::kEmpty},
                     milliseconds(2000));
  session_.on_sensor(drivers::SquareChanged{sq('b', 3), drivers::Piece::kOccupied},
                     milliseconds(2100));
  session_.on_sensor(drivers::LeverPressed{drivers::ClockSide::kRight}, milliseconds(2500));
  session_.on_sensor(drivers::SquareChanged{sq('g', 7), drivers::Piece::kEmpty},
                     milliseconds(3000));
  session_.on_sensor(drivers::SquareChanged{sq('g', 8), drivers::Piece::kOccupied},
                     milliseconds(3100));
  const v1::Ack after = choose(v1::PROMOTION_PIECE_ROOK, 3300);  // g8=Q stands: re-matched
  ASSERT_TRUE(after.ok()) << after.error();
  EXPECT_GT(after.seq(), 0u);
  session_.on_sensor(drivers::LeverPressed{drivers::ClockSide::kLeft}, milliseconds(3600));
  EXPECT_EQ(ucis(false), (std::vector<std::string>{"b7b8n", "a3b3", "g7g8q", "g7g8r"}));
  EXPECT_EQ(ucis(true), (std::vector<std::string>{"b7b8n", "a3b3", "g7g8r"}));
}

TEST_F(PromotionChoiceCommand, BoardThatSensesPiecesRefusesIt) {
  session_.on_sensor(drivers::PlacementSeen{placement_of(kTwoPawnsFen, false)}, milliseconds(0));
  const v1::Ack refused = choose(v1::PROMOTION_PIECE_KNIGHT, 100);
  EXPECT_EQ(refused.code(), v1::ACK_ERROR_REJECTED);
  EXPECT_EQ(refused.error(),
            "promotion_choice: board b1 senses the pieces; the board shows the promoted piece");
}

}  // namespace
}  // namespace eboard::daemon
