// The JSON lines of interfaces.md §4 as consumers read them: exact lines for
// representative events (names, defaults printed, enums by name), and JSON round trips.
#include "eboard/v1/json.h"

#include <gtest/gtest.h>

#include <string>

namespace eboard::proto {
namespace {

using eboard::v1::Event;

Event envelope(const std::string& board, unsigned seq, int at_ms) {
  Event event;
  event.set_board_id(board);
  event.set_seq(seq);
  event.set_at_ms(at_ms);
  event.set_visibility(eboard::v1::VISIBILITY_PUBLIC);
  event.set_game_id(1);
  event.set_rules("fide-blitz");
  return event;
}

TEST(JsonLine, MoveCompletedHasTheDocumentedNamesAndDefaults) {
  Event event = envelope("b1", 7, 12345);
  event.add_articles("6.2.1");
  auto* move = event.mutable_move_completed();
  move->set_ply(1);
  move->set_uci("e2e4");
  move->set_san("e4");
  move->set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  move->set_white_ms(180000);
  move->set_black_ms(182000);
  move->set_side(eboard::v1::SIDE_WHITE);
  move->set_completion(eboard::v1::COMPLETION_CLOCK_PRESS);
  move->set_first_seen_ms(11000);
  EXPECT_EQ(to_json_line(event),
            R"({"boardId":"b1","seq":7,"atMs":12345,"visibility":"VISIBILITY_PUBLIC",)"
            R"("gameId":1,"articles":["6.2.1"],"rules":"fide-blitz",)"
            R"("moveCompleted":{"ply":1,"uci":"e2e4","san":"e4",)"
            R"("fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",)"
            R"("whiteMs":180000,"blackMs":182000,"side":"SIDE_WHITE",)"
            R"("completion":"COMPLETION_CLOCK_PRESS","firstSeenMs":11000,"slidThrough":false,)"
            R"("takenBack":false,"pieceMissing":false,"recovered":false}})");
}

TEST(JsonLine, GameEndedPrintsProposedFalseAndEnumNames) {
  Event event = envelope("board-1", 42, 600000);
  auto* end = event.mutable_game_ended();
  end->set_result("0-1");
  end->set_termination(eboard::v1::TERMINATION_CHECKMATE);
  EXPECT_EQ(to_json_line(event),
            R"({"boardId":"board-1","seq":42,"atMs":600000,"visibility":"VISIBILITY_PUBLIC",)"
            R"("gameId":1,"articles":[],"rules":"fide-blitz",)"
            R"("gameEnded":{"result":"0-1","termination":"TERMINATION_CHECKMATE",)"
            R"("proposed":false,"description":"",)"
            R"("unwinnability":"UNWINNABILITY_UNSPECIFIED","proposalSeq":0}})");
}

TEST(JsonLine, ArbiterEventsUseTheirEnumNames) {
  Event event = envelope("b2", 3, 500);
  event.set_visibility(eboard::v1::VISIBILITY_ARBITER);
  auto* pending = event.mutable_illegal_move_pending();
  pending->set_reason(eboard::v1::REASON_KING_IN_CHECK);
  pending->set_description("Ng5 leaves the king on e1 in check");
  pending->set_side(eboard::v1::SIDE_WHITE);
  pending->set_uci("f3g5");
  pending->add_squares("f3");
  pending->add_squares("g5");
  EXPECT_EQ(to_json_line(event),
            R"({"boardId":"b2","seq":3,"atMs":500,"visibility":"VISIBILITY_ARBITER",)"
            R"("gameId":1,"articles":[],"rules":"fide-blitz",)"
            R"("illegalMovePending":{"reason":"REASON_KING_IN_CHECK",)"
            R"("description":"Ng5 leaves the king on e1 in check","side":"SIDE_WHITE",)"
            R"("uci":"f3g5","squares":["f3","g5"]}})");
}

TEST(JsonLine, ClockAndPenaltyAndRawSquare) {
  Event clock = envelope("b1", 9, 2100);
  clock.mutable_clock()->set_white_ms(178900);
  clock.mutable_clock()->set_black_ms(180000);
  clock.mutable_clock()->set_running(eboard::v1::SIDE_BLACK);
  EXPECT_NE(to_json_line(clock).find(
                R"("clock":{"whiteMs":178900,"blackMs":180000,"running":"SIDE_BLACK",)"
                R"("paused":false,"whitePeriod":0,"blackPeriod":0})"),
            std::string::npos)
      << to_json_line(clock);

  Event penalty = envelope("b1", 10, 2200);
  penalty.mutable_penalty()->set_side(eboard::v1::SIDE_BLACK);
  penalty.mutable_penalty()->set_kind(eboard::v1::PENALTY_TIME_ADDED);
  penalty.mutable_penalty()->set_seconds(120);
  EXPECT_NE(to_json_line(penalty).find(
                R"("penalty":{"side":"SIDE_BLACK","kind":"PENALTY_TIME_ADDED","seconds":120,)"
                R"("applied":false,"description":"","proposalSeq":0})"),
            std::string::npos)
      << to_json_line(penalty);

  Event square = envelope("b1", 11, 2300);
  square.mutable_square_changed()->set_square("e4");
  EXPECT_NE(to_json_line(square).find(R"("squareChanged":{"square":"e4","piece":""})"),
            std::string::npos)
      << to_json_line(square);
}

TEST(JsonLine, EmptyKindMessageStillNamesTheKind) {
  Event event = envelope("b1", 4, 0);
  event.mutable_illegal_move_corrected();
  EXPECT_NE(to_json_line(event).find(R"("illegalMoveCorrected":{"side":"SIDE_UNSPECIFIED"})"),
            std::string::npos)
      << to_json_line(event);
}

TEST(JsonLine, IsOneLine) {
  Event event = envelope("b1", 1, 0);
  event.mutable_game_started()->set_fen("start\nfen");  // a newline inside a string
  const std::string line = to_json_line(event);
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  EXPECT_NE(line.find(R"(start\nfen)"), std::string::npos) << line;
}

TEST(JsonLine, RoundTripsThroughTheParser) {
  Event event = envelope("b1", 77, 99);
  auto* decided = event.mutable_claim_decided();
  decided->set_side(eboard::v1::SIDE_WHITE);
  decided->set_kind(eboard::v1::CLAIM_KIND_THREEFOLD);
  decided->set_accepted(true);
  decided->set_reason(eboard::v1::CLAIM_DECISION_REASON_CORRECT);
  decided->set_claim_seq(76);
  const auto parsed = event_from_json(to_json_line(event));
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed.value().SerializeAsString(), event.SerializeAsString());
}

TEST(JsonLine, ParserRejectsMisspeltNames) {
  const auto parsed = event_from_json(R"({"boardId":"b1","sequence":3})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("eboard.v1.Event"), std::string::npos) << parsed.error();
  EXPECT_NE(parsed.error().find("sequence"), std::string::npos) << parsed.error();
}

TEST(JsonLine, FrameJsonForTheWebSocket) {
  eboard::v1::Frame frame;
  frame.mutable_ack()->set_command_id(5);
  frame.mutable_ack()->set_error("board \"b9\" is not configured");
  frame.mutable_ack()->set_code(eboard::v1::ACK_ERROR_UNKNOWN_BOARD);
  const std::string line = to_json_line(frame);
  EXPECT_EQ(line,
            R"({"ack":{"commandId":5,"ok":false,"error":"board \"b9\" is not configured",)"
            R"("code":"ACK_ERROR_UNKNOWN_BOARD","seq":0}})");
  const auto parsed = frame_from_json(line);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed.value().ack().code(), eboard::v1::ACK_ERROR_UNKNOWN_BOARD);
}

}  // namespace
}  // namespace eboard::proto
