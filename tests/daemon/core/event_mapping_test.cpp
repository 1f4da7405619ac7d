// The engine's domain events on the wire (daemon/event_mapping.h): each kind lands in the
// oneof case of its own name, the envelope is the publisher's, the enums that map by
// position line up with the proto's, and EventNumbering numbers as eboardd does.
#include "daemon/event_mapping.h"

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <utility>

#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
namespace ev = engine::events;
using engine::GameEvent;
using engine::GameEventKind;
using engine::Millis;

constexpr int kKindCount = int(GameEventKind::kDrawClaimable) + 1;

const google::protobuf::FieldDescriptor* kind_field(const v1::Event& event) {
  const auto* oneof = v1::Event::descriptor()->FindOneofByName("kind");
  return event.GetReflection()->GetOneofFieldDescriptor(event, oneof);
}

template <std::size_t... I>
GameEvent default_of(GameEventKind kind, std::index_sequence<I...>) {
  GameEvent e;
  ((std::size_t(kind) == I ? (e.body.emplace<I>(), 0) : 0), ...);
  return e;
}

// An event of `kind` whose body has every field at its default.
GameEvent event_of(GameEventKind kind) {
  return default_of(kind, std::make_index_sequence<std::variant_size_v<engine::GameEventBody>>());
}

engine::Position start_position() {
  return engine::parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").value();
}

TEST(EventMapping, EveryKindFillsTheOneofCaseOfItsName) {
  for (int k = 0; k < kKindCount; ++k) {
    const auto kind = GameEventKind(k);
    const GameEvent e = event_of(kind);
    ASSERT_EQ(e.kind(), kind);
    const v1::Event out = to_proto(e, EventEnvelope{"b1", 7, 1, "fide"});
    const auto* field = kind_field(out);
    ASSERT_NE(field, nullptr) << engine::game_event_kind_name(kind) << " sets no kind";
    EXPECT_EQ(field->json_name(), engine::game_event_kind_name(kind));
  }
}

TEST(EventMapping, TheEnvelopeIsThePublishers) {
  const GameEvent e(Millis(61'250), ev::ClockShown{}, engine::EventVisibility::kArbiter,
                    {"6.9", "A.4"});
  const v1::Event out = to_proto(e, EventEnvelope{"hall-3", 42, 2, "fide-rapid"});
  EXPECT_EQ(out.board_id(), "hall-3");
  EXPECT_EQ(out.seq(), 42u);
  EXPECT_EQ(out.game_id(), 2u);
  EXPECT_EQ(out.rules(), "fide-rapid");
  EXPECT_EQ(out.at_ms(), 61'250);
  EXPECT_EQ(out.visibility(), v1::VISIBILITY_ARBITER);
  ASSERT_EQ(out.articles_size(), 2);
  EXPECT_EQ(out.articles(1), "A.4");
}

TEST(EventMapping, AMoveCarriesItsUciFenClocksAndHowItCompleted) {
  const engine::Position before = start_position();
  engine::Position after = before;
  const engine::Move move = engine::parse_uci(before, "e2e4").value();
  after.make(move);

  ev::MoveCompleted e;
  e.side = engine::kWhite;
  e.move = move;
  e.san = "e4";
  e.ply = 1;
  e.position = engine::snapshot_of(after);
  e.white_remaining = Millis(5'400'000);
  e.black_remaining = Millis(5'399'000);
  e.completion = engine::CompletionKind::kRecovered;
  e.sighting.first_seen = Millis(4'250);
  e.sighting.taken_back = true;
  const v1::MoveCompleted m = to_proto(GameEvent(Millis(0), e), EventEnvelope{}).move_completed();
  EXPECT_EQ(m.uci(), "e2e4");
  EXPECT_EQ(m.san(), "e4");
  EXPECT_EQ(m.ply(), 1u);
  EXPECT_EQ(m.side(), v1::SIDE_WHITE);
  EXPECT_EQ(m.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(m.white_ms(), 5'400'000);
  EXPECT_EQ(m.black_ms(), 5'399'000);
  EXPECT_EQ(m.completion(), v1::COMPLETION_RECOVERED);
  EXPECT_TRUE(m.recovered());
  EXPECT_EQ(m.first_seen_ms(), 4'250);
  EXPECT_TRUE(m.taken_back());
  EXPECT_FALSE(m.slid_through());

  e.completion = engine::CompletionKind::kClockPress;
  EXPECT_FALSE(to_proto(GameEvent(Millis(0), e), EventEnvelope{}).move_completed().recovered());
}

TEST(EventMapping, AnIllegalMoveNamesItsSquaresOrNone) {
  ev::IllegalMovePending e;
  e.side = engine::kBlack;
  e.reason = engine::IllegalReason::kKingInCheck;
  e.from = engine::parse_square("e8");
  e.to = engine::parse_square("e7");
  e.squares = {engine::parse_square("e8"), engine::parse_square("e7")};
  v1::IllegalMovePending m =
      to_proto(GameEvent(Millis(0), e), EventEnvelope{}).illegal_move_pending();
  EXPECT_EQ(m.uci(), "e8e7");
  EXPECT_EQ(m.side(), v1::SIDE_BLACK);
  EXPECT_EQ(m.reason(), v1::REASON_KING_IN_CHECK);
  ASSERT_EQ(m.squares_size(), 2);
  EXPECT_EQ(m.squares(0), "e8");

  // The analysis named no move (pieces lifted and put back elsewhere): no uci at all
  // rather than a made-up one.
  e.from = engine::kNoSquare;
  e.to = engine::kNoSquare;
  m = to_proto(GameEvent(Millis(0), e), EventEnvelope{}).illegal_move_pending();
  EXPECT_EQ(m.uci(), "");
}

TEST(EventMapping, TheResultIsWrittenAsPgnWritesIt) {
  const std::pair<engine::GameResult, const char*> pairs[] = {
      {engine::GameResult::kWhiteWins, "1-0"},
      {engine::GameResult::kBlackWins, "0-1"},
      {engine::GameResult::kDraw, "1/2-1/2"},
      {engine::GameResult::kUnfinished, "*"},
  };
  for (const auto& [result, text] : pairs) {
    ev::GameEnded e;
    e.result = result;
    e.finality = engine::Finality::kProposed;
    const v1::GameEnded m = to_proto(GameEvent(Millis(0), e), EventEnvelope{}).game_ended();
    EXPECT_EQ(m.result(), text);
    EXPECT_TRUE(m.proposed());
    EXPECT_EQ(engine::parse_result(text), result);
  }
  EXPECT_EQ(engine::parse_result("1-1"), std::nullopt);
  EXPECT_EQ(engine::parse_result(""), std::nullopt);
}

TEST(EventMapping, ASquareChangeNamesTheSquareAndWhatStandsOnIt) {
  const auto piece_of = [](engine::SquareCode code) {
    const GameEvent e(Millis(0), ev::SquareChanged{engine::parse_square("g7"), code});
    const v1::SquareChanged m = to_proto(e, EventEnvelope{}).square_changed();
    EXPECT_EQ(m.square(), "g7");
    return m.piece();
  };
  EXPECT_EQ(piece_of(engine::kEmptyCode), "");
  EXPECT_EQ(piece_of(engine::square_code_from_char('q')), "q");
  EXPECT_EQ(piece_of(engine::kOccupiedCode), "?");
}

TEST(EventMapping, DurationsGoOutInMillisecondsAndPenaltiesInWholeSeconds) {
  const GameEvent increment(Millis(0), ev::IncrementCredited{engine::kBlack, Millis(2'500)});
  EXPECT_EQ(to_proto(increment, EventEnvelope{}).increment_credited().increment_ms(), 2'500);
  ev::Penalty penalty;
  penalty.amount = Millis(90'999);
  EXPECT_EQ(to_proto(GameEvent(Millis(0), penalty), EventEnvelope{}).penalty().seconds(), 90);
}

TEST(EventMapping, NobodysClockRunningIsSideNone) {
  ev::ClockShown e;
  EXPECT_EQ(to_proto(GameEvent(Millis(0), e), EventEnvelope{}).clock().running(), v1::SIDE_NONE);
  e.running = engine::kBlack;
  EXPECT_EQ(to_proto(GameEvent(Millis(0), e), EventEnvelope{}).clock().running(), v1::SIDE_BLACK);
}

// The mappings that add 1 to the engine's value rely on the two enums listing the same
// values in the same order: a value added to one side only breaks these.
template <class ProtoEnum>
int proto_values_without_unspecified() {
  return google::protobuf::GetEnumDescriptor<ProtoEnum>()->value_count() - 1;
}

TEST(EventMapping, TerminationsLineUpWithTheProto) {
  const std::pair<engine::TerminationKind, v1::Termination> pairs[] = {
      {engine::TerminationKind::kCheckmate, v1::TERMINATION_CHECKMATE},
      {engine::TerminationKind::kStalemate, v1::TERMINATION_STALEMATE},
      {engine::TerminationKind::kTimeForfeit, v1::TERMINATION_TIME_FORFEIT},
      {engine::TerminationKind::kTimeoutVsInsufficient, v1::TERMINATION_TIMEOUT_VS_INSUFFICIENT},
      {engine::TerminationKind::kBothFlags, v1::TERMINATION_BOTH_FLAGS},
      {engine::TerminationKind::kIllegalMove, v1::TERMINATION_ILLEGAL_MOVE},
      {engine::TerminationKind::kFivefoldRepetition, v1::TERMINATION_FIVEFOLD_REPETITION},
      {engine::TerminationKind::kSeventyFiveMoves, v1::TERMINATION_SEVENTY_FIVE_MOVES},
      {engine::TerminationKind::kDeadPosition, v1::TERMINATION_DEAD_POSITION},
      {engine::TerminationKind::kAgreement, v1::TERMINATION_AGREEMENT},
      {engine::TerminationKind::kResignation, v1::TERMINATION_RESIGNATION},
      {engine::TerminationKind::kArbiter, v1::TERMINATION_ARBITER},
      {engine::TerminationKind::kThreefoldClaim, v1::TERMINATION_THREEFOLD_CLAIM},
      {engine::TerminationKind::kFiftyMoveClaim, v1::TERMINATION_FIFTY_MOVE_CLAIM},
      {engine::TerminationKind::kIllegalMoveClaim, v1::TERMINATION_ILLEGAL_MOVE_CLAIM},
      {engine::TerminationKind::kIllegalPosition, v1::TERMINATION_ILLEGAL_POSITION},
      {engine::TerminationKind::kPenaltyLadder, v1::TERMINATION_PENALTY_LADDER},
  };
  EXPECT_EQ(std::size(pairs), std::size_t(proto_values_without_unspecified<v1::Termination>()));
  for (const auto& [engine_kind, wire] : pairs) {
    ev::GameEnded e;
    e.termination = engine_kind;
    EXPECT_EQ(to_proto(GameEvent(Millis(0), e), EventEnvelope{}).game_ended().termination(), wire)
        << v1::Termination_Name(wire);
  }
}

TEST(EventMapping, ClaimAndPenaltyKindsLineUpWithTheProto) {
  EXPECT_EQ(engine::kClaimKindCount, proto_values_without_unspecified<v1::ClaimKind>());
  const std::pair<engine::ClaimKind, v1::ClaimKind> claims[] = {
      {engine::ClaimKind::kIllegalMove, v1::CLAIM_KIND_ILLEGAL_MOVE},
      {engine::ClaimKind::kThreefold, v1::CLAIM_KIND_THREEFOLD},
      {engine::ClaimKind::kFifty, v1::CLAIM_KIND_FIFTY},
      {engine::ClaimKind::kFlag, v1::CLAIM_KIND_FLAG},
      {engine::ClaimKind::kQpf, v1::CLAIM_KIND_QPF},
      {engine::ClaimKind::kSetup, v1::CLAIM_KIND_SETUP},
      {engine::ClaimKind::kOrientation, v1::CLAIM_KIND_ORIENTATION},
      {engine::ClaimKind::kClockSetting, v1::CLAIM_KIND_CLOCK_SETTING},
      {engine::ClaimKind::kAgreement, v1::CLAIM_KIND_AGREEMENT},
  };
  for (const auto& [engine_kind, wire] : claims) {
    ev::ClaimReceived e;
    e.kind = engine_kind;
    EXPECT_EQ(to_proto(GameEvent(Millis(0), e), EventEnvelope{}).claim_received().kind(), wire)
        << v1::ClaimKind_Name(wire);
  }

  EXPECT_EQ(3, proto_values_without_unspecified<v1::PenaltyKind>());
  ev::Penalty penalty;
  penalty.kind = engine::PenaltyKind::kTimeAdded;
  penalty.amount = Millis(120'000);
  penalty.side = engine::kWhite;
  penalty.proposal_seq = 17;
  const auto wire_of = [](const ev::Penalty& p) {
    return to_proto(GameEvent(Millis(0), p), EventEnvelope{}).penalty();
  };
  const v1::Penalty p = wire_of(penalty);
  EXPECT_EQ(p.kind(), v1::PENALTY_TIME_ADDED);
  EXPECT_EQ(p.seconds(), 120);
  EXPECT_EQ(p.side(), v1::SIDE_WHITE);
  EXPECT_EQ(p.proposal_seq(), 17u);
  penalty.kind = engine::PenaltyKind::kGameLost;
  EXPECT_EQ(wire_of(penalty).kind(), v1::PENALTY_GAME_LOST);
}

TEST(EventMapping, ReasonsVerdictsWingsAndPositionsLineUpWithTheProto) {
  const auto wire = [](const auto& body) { return to_proto(GameEvent(Millis(0), body), {}); };
  ev::ClaimDecided decided;
  decided.reason = engine::ClaimReason::kNone;
  EXPECT_EQ(wire(decided).claim_decided().reason(), v1::CLAIM_DECISION_REASON_UNSPECIFIED);
  EXPECT_EQ(wire(decided).claim_decided().side(), v1::SIDE_UNSPECIFIED);  // nobody's: agreement
  decided.reason = engine::ClaimReason::kArbiter;
  EXPECT_EQ(wire(decided).claim_decided().reason(), v1::CLAIM_DECISION_REASON_ARBITER);
  EXPECT_EQ(int(engine::ClaimReason::kArbiter),
            proto_values_without_unspecified<v1::ClaimDecisionReason>());

  ev::GameEnded ended;
  ended.unwinnability = engine::UnwinnabilityNote::kUndetermined;
  EXPECT_EQ(wire(ended).game_ended().unwinnability(), v1::UNWINNABILITY_UNDETERMINED);

  ev::CastlingForbidden castling;
  castling.wing = engine::CastlingWing::kQueenSide;
  EXPECT_EQ(wire(castling).castling_forbidden().wing(), v1::CASTLING_WING_QUEEN_SIDE);
  castling.wing = engine::CastlingWing::kAll;
  EXPECT_EQ(wire(castling).castling_forbidden().wing(), v1::CASTLING_WING_ALL);

  ev::IllegalPosition position;
  position.kind = engine::IllegalPositionKind::kBothKingsInCheck;
  EXPECT_EQ(wire(position).illegal_position().kind(),
            v1::ILLEGAL_POSITION_KIND_BOTH_KINGS_IN_CHECK);
}

TEST(EventMapping, AWithdrawalIsToldToWhoeverWasToldOfTheProposal) {
  engine::Withdrawal w;
  w.seq = 31;
  w.seqs = {31, 35};
  w.superseded_by = 40;
  w.reason = engine::WithdrawReason::kSuperseded;
  w.description = "a newer proposal on the same result";
  w.at = engine::Millis{90'000};
  w.visibility = engine::EventVisibility::kPublic;
  const v1::Event out = to_proto(w, EventEnvelope{"b2", 41, 3, "fide"});
  EXPECT_EQ(out.seq(), 41u);
  EXPECT_EQ(out.game_id(), 3u);
  EXPECT_EQ(out.at_ms(), 90'000);
  EXPECT_EQ(out.visibility(), v1::VISIBILITY_PUBLIC);
  const v1::ProposalWithdrawn& x = out.proposal_withdrawn();
  EXPECT_EQ(x.proposal_seq(), 31u);
  EXPECT_EQ(x.reason(), v1::WITHDRAWN_REASON_SUPERSEDED);
  EXPECT_EQ(x.superseded_by(), 40u);
  ASSERT_EQ(x.seqs_size(), 2);
  EXPECT_EQ(x.seqs(1), 35u);
}

TEST(EventNumbering, SeqsCountEveryEventAndGamesCountFromTheFirstStart) {
  EventNumbering numbering;
  EXPECT_EQ(numbering.next(event_of(GameEventKind::kClock), "b1", "fide").game_id, 1u);
  EXPECT_EQ(numbering.next(event_of(GameEventKind::kGameStarted), "b1", "fide").game_id, 1u);
  EXPECT_EQ(numbering.next(event_of(GameEventKind::kMoveCompleted), "b1", "fide").game_id, 1u);
  const EventEnvelope& withdrawn = numbering.next("b1", "fide");
  EXPECT_EQ(withdrawn.seq, 4u);
  EXPECT_EQ(withdrawn.game_id, 1u);
  const EventEnvelope& second =
      numbering.next(event_of(GameEventKind::kGameStarted), "b1", "rapid");
  EXPECT_EQ(second.seq, 5u);
  EXPECT_EQ(second.game_id, 2u);
  EXPECT_EQ(second.rules, "rapid");
  EXPECT_EQ(numbering.seq(), 5u);
}

}  // namespace
}  // namespace eboard::daemon
