// The schema against its contract, read through the descriptors: every event kind of
// docs/interfaces.md §4 and docs/rules.md §0.2 with its fields, every documented enum value, the
// enum and integer conventions. The expectations are copied from the documents by hand,
// so a renamed or dropped field fails here before it reaches a consumer.
#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "eboard/v1/command.pb.h"
#include "eboard/v1/event.pb.h"
#include "eboard/v1/frame.pb.h"

namespace eboard::proto {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

const FieldDescriptor* kind_field(const std::string& json_name) {
  const Descriptor* event = eboard::v1::Event::descriptor();
  for (int i = 0; i < event->field_count(); ++i) {
    const FieldDescriptor* field = event->field(i);
    if (field->json_name() == json_name && field->containing_oneof() != nullptr &&
        field->containing_oneof()->name() == "kind") {
      return field;
    }
  }
  return nullptr;
}

// docs/interfaces.md §4 table, then docs/rules.md §0.2 catalogue with the braces' fields (mapped
// as §4 says: move_pending -> moveTentative, penalty_* -> penalty, claim_window_opened ->
// claimAvailable, flag_fall -> flagFell, game_over -> gameEnded, count_for_side ->
// count), then eboard-replay --raw's squareChanged (docs/interfaces.md §2), then the daemon's
// seqsLost: an extension (docs/interfaces.md §4 "more may be added") that declares the one gap
// a power cut can leave under the default --journal-fsync after-publish (README
// "Journal"), storageStatus, the journal's disk failing and recovering (docs/interfaces.md
// §4, daemon/core/journal.h), and commandApplied: the journal's and the audit trail's
// record of an operator's or arbiter's command (docs/interfaces.md §6.1; recovery plays the
// applied ones again), proposalWithdrawn (docs/rules.md §0.2 proposal_withdrawn: one
// voice per decision), and clockSideLearned: a `white=auto` board's learned clock side,
// journalled for a restart (docs/interfaces.md §4).
const std::map<std::string, std::vector<std::string>>& documented_kinds() {
  static const std::map<std::string, std::vector<std::string>> kinds = {
      {"gameStarted", {"fen", "rules", "timeControl"}},
      {"moveTentative", {"uci", "san"}},
      {"moveWithdrawn", {"uci"}},
      {"illegalMovePending", {"reason", "description"}},
      {"moveCompleted", {"ply", "uci", "san", "fen", "whiteMs", "blackMs", "recovered"}},
      {"illegalMoveCompleted", {"side", "reason", "description", "count"}},
      {"clockPressWithoutMove", {"side", "classification"}},
      {"penalty", {"side", "kind", "seconds", "applied"}},
      {"claimAvailable", {"side", "kind"}},
      {"restoreRequested", {"fen", "squares"}},
      {"clock", {"whiteMs", "blackMs", "running"}},
      {"flagFell", {"side", "period", "movesCompleted", "first"}},
      {"gameEnded", {"result", "termination", "proposed", "unwinnability"}},
      {"deviceStatus", {"state", "detail"}},
      {"positionChanged", {}},
      {"illegalMoveCorrected", {}},
      {"touchMoveObligation", {"square", "legalTargets"}},
      {"touchMoveViolation", {"inferred", "square"}},
      {"illegalMoveStood", {}},
      {"promotionIncomplete", {}},
      {"claimWindowClosed", {}},
      {"claimReceived", {"kind", "eligible"}},
      {"claimDecided", {"kind", "accepted", "penaltyMs", "reason", "proposed"}},
      {"incrementCredited", {}},
      {"delayWindow", {"side", "d"}},
      {"periodStarted", {"side", "period"}},
      {"timeControlMissed", {"side"}},
      {"castlingForbidden", {"side", "wing"}},
      {"setupIrregular", {"kind", "squares"}},
      {"illegalPosition", {"kind"}},
      {"deadPositionSuspected", {}},
      {"clockMismatch", {"field", "clockValue", "modelValue"}},
      {"drawClaimable", {"side", "kind"}},
      {"squareChanged", {"square", "piece"}},
      {"seqsLost", {"firstSeq", "lastSeq", "reason"}},
      {"storageStatus", {"state", "detail", "path", "waitingRecords", "firstWaitingSeq"}},
      {"commandApplied", {"command", "client", "outcome", "lastSeq", "ruledSeqs"}},
      {"proposalWithdrawn", {"proposalSeq", "reason", "supersededBy", "description", "seqs"}},
      {"clockSideLearned", {"whiteSide"}},
  };
  return kinds;
}

TEST(Schema, EveryDocumentedKindHasItsFields) {
  for (const auto& [kind, fields] : documented_kinds()) {
    const FieldDescriptor* field = kind_field(kind);
    ASSERT_NE(field, nullptr) << "no event kind " << kind;
    ASSERT_EQ(field->type(), FieldDescriptor::TYPE_MESSAGE) << kind;
    const Descriptor* message = field->message_type();
    for (const std::string& name : fields) {
      bool found = false;
      for (int i = 0; i < message->field_count(); ++i) {
        found = found || message->field(i)->json_name() == name;
      }
      EXPECT_TRUE(found) << kind << " has no field " << name;
    }
  }
}

TEST(Schema, NoUndocumentedKinds) {
  const Descriptor* event = eboard::v1::Event::descriptor();
  const auto* kind = event->FindOneofByName("kind");
  ASSERT_NE(kind, nullptr);
  for (int i = 0; i < kind->field_count(); ++i) {
    EXPECT_EQ(documented_kinds().count(kind->field(i)->json_name()), 1u)
        << kind->field(i)->json_name() << " is not in this test's copy of the documents";
  }
  EXPECT_EQ(static_cast<std::size_t>(kind->field_count()), documented_kinds().size());
}

TEST(Schema, EnvelopeNames) {
  const Descriptor* event = eboard::v1::Event::descriptor();
  for (const char* name : {"boardId", "seq", "atMs", "visibility"}) {
    bool found = false;
    for (int i = 0; i < event->field_count(); ++i) {
      found = found || event->field(i)->json_name() == name;
    }
    EXPECT_TRUE(found) << name;
  }
}

void expect_values(const EnumDescriptor* type, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    EXPECT_NE(type->FindValueByName(name), nullptr) << type->name() << " lacks " << name;
  }
}

TEST(Schema, DocumentedEnumValues) {
  expect_values(eboard::v1::Side_descriptor(), {"SIDE_WHITE", "SIDE_BLACK", "SIDE_NONE"});
  expect_values(eboard::v1::Visibility_descriptor(), {"VISIBILITY_PUBLIC", "VISIBILITY_ARBITER"});
  expect_values(eboard::v1::PenaltyKind_descriptor(),
                {"PENALTY_WARNING", "PENALTY_TIME_ADDED", "PENALTY_GAME_LOST"});
  expect_values(
      eboard::v1::Reason_descriptor(),
      {"REASON_PIECE_MOVEMENT", "REASON_KING_IN_CHECK", "REASON_CASTLING", "REASON_WRONG_SIDE",
       "REASON_OWN_PIECE_CAPTURED", "REASON_PROMOTION_INCOMPLETE", "REASON_KING_CAPTURED",
       "REASON_PRESS_WITHOUT_MOVE", "REASON_TWO_HANDS", "REASON_UNEXPLAINED"});
  // docs/interfaces.md §4 plus every game_over reason of docs/rules.md §0.2.
  expect_values(
      eboard::v1::Termination_descriptor(),
      {"TERMINATION_CHECKMATE", "TERMINATION_STALEMATE", "TERMINATION_TIME_FORFEIT",
       "TERMINATION_TIMEOUT_VS_INSUFFICIENT", "TERMINATION_BOTH_FLAGS", "TERMINATION_ILLEGAL_MOVE",
       "TERMINATION_FIVEFOLD_REPETITION", "TERMINATION_SEVENTY_FIVE_MOVES",
       "TERMINATION_DEAD_POSITION", "TERMINATION_AGREEMENT", "TERMINATION_RESIGNATION",
       "TERMINATION_ARBITER", "TERMINATION_THREEFOLD_CLAIM", "TERMINATION_FIFTY_MOVE_CLAIM",
       "TERMINATION_ILLEGAL_MOVE_CLAIM", "TERMINATION_ILLEGAL_POSITION",
       "TERMINATION_PENALTY_LADDER"});
  // docs/rules.md D6 classification words.
  expect_values(eboard::v1::PressClassification_descriptor(),
                {"PRESS_CLASSIFICATION_ILLEGAL", "PRESS_CLASSIFICATION_RESTART_ALLOWED",
                 "PRESS_CLASSIFICATION_NEEDS_RULING"});
  // docs/interfaces.md §3 claim words.
  expect_values(
      eboard::v1::ClaimKind_descriptor(),
      {"CLAIM_KIND_ILLEGAL_MOVE", "CLAIM_KIND_THREEFOLD", "CLAIM_KIND_FIFTY", "CLAIM_KIND_FLAG",
       "CLAIM_KIND_QPF", "CLAIM_KIND_SETUP", "CLAIM_KIND_ORIENTATION", "CLAIM_KIND_CLOCK_SETTING"});
}

// Every message and enum of the eboard.v1 files, for the convention checks.
std::vector<const FileDescriptor*> schema_files() {
  return {eboard::v1::Event::descriptor()->file(),        eboard::v1::Frame::descriptor()->file(),
          eboard::v1::Command::descriptor()->file(),      eboard::v1::Side_descriptor()->file(),
          eboard::v1::ClaimDecided::descriptor()->file(), eboard::v1::Tag::descriptor()->file()};
}

TEST(Schema, EveryEnumStartsWithUnspecified) {
  int enums = 0;
  for (const FileDescriptor* file : schema_files()) {
    for (int i = 0; i < file->enum_type_count(); ++i) {
      const EnumDescriptor* type = file->enum_type(i);
      ++enums;
      const auto* zero = type->FindValueByNumber(0);
      ASSERT_NE(zero, nullptr) << type->name();
      const std::string name = zero->name();
      EXPECT_TRUE(name.size() > 12 && name.substr(name.size() - 12) == "_UNSPECIFIED")
          << type->name() << ": " << name;
      const std::string prefix = name.substr(0, name.size() - 11);
      for (int v = 0; v < type->value_count(); ++v) {
        EXPECT_EQ(type->value(v)->name().rfind(prefix, 0), 0u)
            << type->value(v)->name() << " lacks the prefix " << prefix;
      }
    }
  }
  EXPECT_GE(enums, 20);
}

// docs/interfaces.md §4: 32-bit integers so the JSON mapping prints numbers.
TEST(Schema, NoSixtyFourBitIntegers) {
  int messages = 0;
  for (const FileDescriptor* file : schema_files()) {
    for (int m = 0; m < file->message_type_count(); ++m) {
      const Descriptor* message = file->message_type(m);
      ++messages;
      for (int i = 0; i < message->field_count(); ++i) {
        const auto type = message->field(i)->cpp_type();
        EXPECT_TRUE(type != FieldDescriptor::CPPTYPE_INT64 &&
                    type != FieldDescriptor::CPPTYPE_UINT64)
            << message->full_name() << "." << message->field(i)->name();
      }
    }
  }
  EXPECT_GE(messages, 50);
}

TEST(Schema, FrameAndCommandShapes) {
  const Descriptor* frame = eboard::v1::Frame::descriptor();
  for (const char* name : {"hello", "snapshot", "event", "subscribe", "command", "ack"}) {
    const FieldDescriptor* field = frame->FindFieldByName(name);
    ASSERT_NE(field, nullptr) << name;
    EXPECT_NE(field->containing_oneof(), nullptr) << name;
  }
  EXPECT_NE(eboard::v1::Subscribe::descriptor()->FindFieldByName("from_seq"), nullptr);
  const Descriptor* command = eboard::v1::Command::descriptor();
  for (const char* name :
       {"command_id", "token", "new_game", "add_time", "pause", "resume", "set_result", "ruling",
        "restore_position", "claim", "resign", "draw_agreed"}) {
    EXPECT_NE(command->FindFieldByName(name), nullptr) << name;
  }
}

}  // namespace
}  // namespace eboard::proto
