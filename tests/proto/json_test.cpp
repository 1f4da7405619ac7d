// The JSON lines of docs/interfaces.md §4 as consumers read them: exact lines for
// representative events (names, defaults printed, enums by name), and JSON round trips.
#include "eboard/v1/json.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>
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
                R"("applied":false,"description":"","proposalSeq":0,"proposed":false})"),
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
  EXPECT_EQ(line, R"({"ack":{"commandId":5,"ok":false,"error":"board \"b9\" is not configured",)"
                  R"("code":"ACK_ERROR_UNKNOWN_BOARD","seq":0}})");
  const auto parsed = frame_from_json(line);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed.value().ack().code(), eboard::v1::ACK_ERROR_UNKNOWN_BOARD);
}

// The printer against libprotobuf's own (json.cpp says why there are two).
std::string reference_json(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string line;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(message, &line, options).ok());
  return line;
}

// Sets every field to a value unlike its default; of each oneof only the member number
// `choice` (modulo the oneof's size), recursively.
void fill(google::protobuf::Message& message, int choice) {
  using google::protobuf::FieldDescriptor;
  const auto* type = message.GetDescriptor();
  const auto* reflection = message.GetReflection();
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* field = type->field(i);
    if (const auto* oneof = field->real_containing_oneof();
        oneof != nullptr && oneof->field(choice % oneof->field_count()) != field) {
      continue;
    }
    const int copies = field->is_repeated() ? 2 : 1;
    for (int k = 0; k < copies; ++k) {
      const std::string text = "x\"<>\\\n\u00e9\u2028" + std::to_string(i + k);
      switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32:
          field->is_repeated() ? reflection->AddInt32(&message, field, -7 - i)
                               : reflection->SetInt32(&message, field, -7 - i);
          break;
        case FieldDescriptor::CPPTYPE_UINT32:
          field->is_repeated() ? reflection->AddUInt32(&message, field, 4000000000u + i)
                               : reflection->SetUInt32(&message, field, 4000000000u + i);
          break;
        case FieldDescriptor::CPPTYPE_BOOL:
          field->is_repeated() ? reflection->AddBool(&message, field, true)
                               : reflection->SetBool(&message, field, true);
          break;
        case FieldDescriptor::CPPTYPE_STRING:
          field->is_repeated() ? reflection->AddString(&message, field, text)
                               : reflection->SetString(&message, field, text);
          break;
        case FieldDescriptor::CPPTYPE_ENUM: {
          const auto* type = field->enum_type();
          const int number = type->value(type->value_count() - 1)->number();
          field->is_repeated() ? reflection->AddEnumValue(&message, field, number)
                               : reflection->SetEnumValue(&message, field, number);
          break;
        }
        case FieldDescriptor::CPPTYPE_MESSAGE:
          fill(field->is_repeated() ? *reflection->AddMessage(&message, field)
                                    : *reflection->MutableMessage(&message, field),
               choice);
          break;
        default: ADD_FAILURE() << "unexpected type of " << field->full_name();
      }
    }
  }
}

TEST(JsonLine, MatchesLibprotobufForEveryKindFilledAndEmpty) {
  const auto* kinds = Event::descriptor()->FindOneofByName("kind");
  for (int choice = 0; choice < kinds->field_count(); ++choice) {
    Event filled;
    fill(filled, choice);
    EXPECT_EQ(to_json_line(filled), reference_json(filled));
    Event empty;
    empty.GetReflection()->MutableMessage(&empty, kinds->field(choice));
    EXPECT_EQ(to_json_line(empty), reference_json(empty));
  }
  EXPECT_EQ(to_json_line(Event()), reference_json(Event()));
}

TEST(JsonLine, MatchesLibprotobufForEveryFrameAndCommand) {
  // 13 command actions and 7 frame kinds: every pair of choices modulo both is reached.
  for (int choice = 0; choice < 7 * 13; ++choice) {
    eboard::v1::Frame frame;
    fill(frame, choice);
    EXPECT_EQ(to_json_line(frame), reference_json(frame)) << "choice " << choice;
  }
}

TEST(JsonLine, EscapesLikeLibprotobuf) {
  std::string text;
  for (int c = 1; c < 128; ++c) text += static_cast<char>(c);
  // Code points around the ones libprotobuf escapes, in UTF-8.
  text += "\u0080\u009f\u00a0\u00ac\u00ad\u00ae\u05ff\u0600\u0603\u0604\u06dd\u070f";
  text += "\u17b4\u17b5\u200a\u200b\u200f\u2027\u2028\u202e\u202f\u2060\u2064\u2065";
  text += "\u206a\u206f\ufefe\ufeff\ufff9\ufffb\ufffc\U0001d172\U0001d173\U0001d17a";
  text += "\U0001d17b\U000e0000\U000e0001\U000e0020\U000e007f\U000e0080\U0001f600\u00e9";
  Event event;
  event.set_board_id(text);
  EXPECT_EQ(to_json_line(event), reference_json(event));
  EXPECT_NE(to_json_line(event).find(R"(\ud834\udd73)"), std::string::npos);
}

TEST(JsonLine, UnknownEnumNumberPrintsAsNumber) {
  Event event;
  event.set_visibility(static_cast<eboard::v1::Visibility>(42));
  EXPECT_EQ(to_json_line(event), reference_json(event));
  EXPECT_NE(to_json_line(event).find(R"("visibility":42)"), std::string::npos);
}

}  // namespace
}  // namespace eboard::proto
