#include "daemon/core/board_session.h"

#include <algorithm>

#include "daemon/core/recovery.h"
#include "daemon/event_mapping.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/clock/time_control.h"
#include "engine/rules/rule_params.h"
#include "engine/rules/rule_set.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using engine::Color;

// A full dump whose clock report does not come within this time is judged without it.
constexpr Millis kDumpJudgeWait{3000};

engine::SquareCode code_of(drivers::Piece piece) {
  if (piece == drivers::Piece::kEmpty) return engine::kEmptyCode;
  const engine::SquareCode code = engine::square_code_from_char(drivers::piece_letter(piece));
  return code == engine::kNoCode ? engine::kOccupiedCode : code;
}

std::array<engine::SquareCode, engine::kSquareCount> codes_of(const engine::Position& pos) {
  std::array<engine::SquareCode, engine::kSquareCount> codes{};
  for (int s = 0; s < engine::kSquareCount; ++s) {
    codes[s] = engine::SquareCode(pos.piece_on(engine::Square(s)));
  }
  return codes;
}

v1::Ack ack(v1::AckError code, const std::string& error) {
  v1::Ack a;
  a.set_ok(code == v1::ACK_ERROR_UNSPECIFIED);
  a.set_code(code);
  a.set_error(error);
  return a;
}

std::optional<Color> color_of(v1::Side side) {
  if (side == v1::SIDE_WHITE) return engine::kWhite;
  if (side == v1::SIDE_BLACK) return engine::kBlack;
  return std::nullopt;
}

engine::PieceType promotion_piece_of(v1::PromotionPiece piece) {
  switch (piece) {
    case v1::PROMOTION_PIECE_QUEEN: return engine::kQueen;
    case v1::PROMOTION_PIECE_ROOK: return engine::kRook;
    case v1::PROMOTION_PIECE_BISHOP: return engine::kBishop;
    case v1::PROMOTION_PIECE_KNIGHT: return engine::kKnight;
    default: return engine::kNoPieceType;
  }
}

const char* claim_word(v1::ClaimKind kind) {
  switch (kind) {
    case v1::CLAIM_KIND_ILLEGAL_MOVE: return "illegal-move";
    case v1::CLAIM_KIND_THREEFOLD: return "threefold";
    case v1::CLAIM_KIND_FIFTY: return "fifty";
    case v1::CLAIM_KIND_FLAG: return "flag";
    case v1::CLAIM_KIND_QPF: return "qpf";
    case v1::CLAIM_KIND_SETUP: return "setup";
    case v1::CLAIM_KIND_ORIENTATION: return "orientation";
    case v1::CLAIM_KIND_CLOCK_SETTING: return "clock-setting";
    default: return nullptr;
  }
}

}  // namespace

Result<engine::TrackerConfig> make_tracker_config(const GameSetup& setup) {
  auto rules = engine::rule_set_by_name(setup.rules.empty() ? "fide-standard" : setup.rules);
  if (!rules) return Error{"rules: " + rules.error()};
  engine::TrackerConfig config;
  config.rules = rules.value();
  for (const auto& [name, value] : setup.params) {
    if (auto error = engine::apply_param(config.rules, name, value)) {
      return Error{"param " + name + ": " + error->message};
    }
  }
  auto control = engine::parse_time_control(setup.clock.empty() ? config.rules.default_clock
                                                                 : setup.clock);
  if (!control) return Error{"time control: " + control.error()};
  config.time_control = control.value();
  auto start = engine::parse_fen(setup.start_fen.empty() ? engine::kStartFen : setup.start_fen);
  if (!start) return Error{"start fen: " + start.error()};
  config.start = start.value();
  config.tags = setup.tags;
  config.params = setup.params;
  return config;
}

BoardSession::BoardSession(std::string board_id, GameSetup setup, drivers::WhiteSetting white,
                           Publish publish)
    : board_id_(std::move(board_id)),
      setup_(std::move(setup)),
      sides_(white),
      publish_(std::move(publish)) {
  auto config = make_tracker_config(setup_);
  // The configuration was validated at start-up; a failure here is a programming error.
  if (config) {
    rules_name_ = config->rules.name;
    new_tracker(std::move(config).value());
  }
}

// Each game gets a fresh arbiter (rules.md D1-D14: ladders, windows and proposals belong to
// one game); the old tracker, which points at the old arbiter, goes first.
void BoardSession::new_tracker(engine::TrackerConfig config) {
  tracker_.reset();
  proposals_.clear();
  arbiter_.emplace();
  tracker_.emplace(std::move(config), &*arbiter_);
}

std::optional<Error> BoardSession::resume(const BoardState& journal_state) {
  const v1::Snapshot& s = journal_state.snapshot();
  game_id_ = s.game_id();
  if (!journal_state.game_in_progress()) return std::nullopt;
  GameSetup setup;
  setup.rules = s.rules();
  setup.clock = s.time_control();
  for (const auto& p : s.params()) setup.params.emplace_back(p.name(), p.value());
  for (const auto& t : s.tags()) setup.tags.emplace_back(t.name(), t.value());
  // The game is played again from its start so its counts survive (recovery.h
  // replay_game); if that fails, it resumes from the last position alone.
  setup.start_fen = s.start_fen();
  auto config = make_tracker_config(setup);
  if (!config) return Error{"board " + board_id_ + ": cannot resume the journal's game: " + config.error()};
  rules_name_ = config->rules.name;
  new_tracker(std::move(config).value());
  ply_offset_ = 0;
  if (const auto failed = replay_game(*tracker_, journal_state.game_history(), s)) {
    resume_warning_ = "board " + board_id_ + ": the journal's game (up to seq " +
                      std::to_string(s.last_seq()) + ") could not be played again (" + *failed +
                      "); resuming from the last position alone: each side's move and "
                      "illegal-move counts and the positions played before it start afresh";
    setup.start_fen = s.fen();  // the position after the last completed move
    new_tracker(make_tracker_config(setup).value());
    ply_offset_ = s.moves_size();
  }
  suppress_started_ = !tracker_->started();
  resumed_ = true;
  awaiting_dump_ = true;
  restore_clocks(s);
  return std::nullopt;
}

// The fresh tracker's clock model would start from the time control (crediting a
// start_and_press increment again); the game's clocks continue from the journal's last
// times instead (the snapshot folds every clock and moveCompleted event). The model is
// started now, at the start of this session's time line, with the side to move running,
// and given those times as a reading; what that produces (the suppressed start, the start
// increment, the mismatch against the fresh model) is bookkeeping, not news, and is not
// published. A hardware clock's first report then corrects the time spent while down.
void BoardSession::restore_clocks(const v1::Snapshot& s) {
  if (s.white_ms() <= 0 && s.black_ms() <= 0) return;  // no clock time journalled yet
  engine::ClockReading times;
  times.white = Millis(s.white_ms());
  times.black = Millis(s.black_ms());
  engine::GameEvents dropped;
  tracker_->clock_reading(Millis{0}, times, dropped);
  if (s.paused()) tracker_->pause_clock(Millis{0}, true, dropped);
  suppress_started_ = false;  // its gameStarted was among the dropped events
}

std::uint32_t BoardSession::publish_event(v1::Event event) {
  const std::uint32_t seq = publish_(std::move(event));
  if (first_seq_ == 0) first_seq_ = seq;
  return seq;
}

void BoardSession::emit(engine::GameEvents& events) {
  for (const engine::GameEvent& e : events) {
    if (e.kind == engine::GameEventKind::kGameStarted) {
      if (suppress_started_) {
        suppress_started_ = false;
        continue;
      }
      ++game_id_;
      ply_offset_ = 0;  // a new game after an annulled one (GameTracker::annul) counts from 1
    }
    if (recovering_ && (e.kind == engine::GameEventKind::kMoveTentative ||
                        e.kind == engine::GameEventKind::kMoveWithdrawn)) {
      continue;
    }
    v1::Event event = to_proto(e, EventEnvelope{board_id_, 0, game_id_, rules_name_});
    if (event.has_move_completed()) {
      v1::MoveCompleted* m = event.mutable_move_completed();
      m->set_ply(m->ply() + static_cast<std::uint32_t>(ply_offset_));
      if (recovering_) {
        m->set_completion(v1::COMPLETION_RECOVERED);
        m->set_recovered(true);
      }
    }
    const std::uint32_t seq = publish_event(std::move(event));
    // A ruling names a proposal by this seq (`Ruling.seq`): the arbiter learns it here.
    if (e.proposal != 0) tracker_->published(e, seq);
    note_proposal(e, seq);
  }
  events.clear();
}

void BoardSession::note_proposal(const engine::GameEvent& e, std::uint32_t seq) {
  // The arbiter's proposals start afresh with each game (its handles restart at 1).
  if (e.kind == engine::GameEventKind::kGameStarted) proposals_.clear();
  if (e.proposal != 0) {
    OpenProposal& p = proposals_[e.proposal];
    p.seqs.push_back(seq);
    if (e.kind == engine::GameEventKind::kGameEnded) p.game_end = true;
  }
  if (e.proposal_seq == 0) return;
  for (auto& [handle, p] : proposals_) {
    if (std::find(p.seqs.begin(), p.seqs.end(), e.proposal_seq) != p.seqs.end()) p.settled = true;
  }
}

// The proposal a ruling is for (`Ruling.seq`, or without one the newest open proposal, as
// the arbiter chooses), or the error ack when there is none to rule on.
std::optional<v1::Ack> BoardSession::check_ruling(const engine::OperatorAction& a,
                                                  OpenProposal*& target) {
  target = nullptr;
  for (auto it = proposals_.rbegin(); it != proposals_.rend() && !target; ++it) {
    const auto& seqs = it->second.seqs;
    const bool named = a.seq && std::find(seqs.begin(), seqs.end(), *a.seq) != seqs.end();
    if (named || (!a.seq && !it->second.settled)) target = &it->second;
  }
  if (!a.seq && !target) {
    return ack(v1::ACK_ERROR_REJECTED, "ruling: board " + board_id_ + " has no open proposal to rule on");
  }
  const std::string named = a.seq ? "ruling.seq: " + std::to_string(*a.seq) : std::string("ruling");
  if (!target) {
    return ack(v1::ACK_ERROR_REJECTED, named + " names no proposal of board " + board_id_ +
                                           "'s game (a proposal is an event with `proposed` or an "
                                           "unapplied penalty, published in this daemon's run)");
  }
  if (target->settled) {
    return ack(v1::ACK_ERROR_REJECTED, named + ": that proposal of board " + board_id_ +
                                           " is already settled");
  }
  return std::nullopt;
}

void BoardSession::device_status(v1::DeviceRole role, v1::DeviceState state,
                                 const std::string& detail, Millis now) {
  v1::Event event;
  event.set_at_ms(static_cast<std::int32_t>(now.count()));
  event.set_visibility(v1::VISIBILITY_PUBLIC);
  event.set_game_id(game_id_);
  event.set_rules(rules_name_);
  v1::DeviceStatus* status = event.mutable_device_status();
  status->set_role(role);
  status->set_state(state);
  status->set_detail(detail);
  publish_event(std::move(event));
}

void BoardSession::on_sensor(const drivers::SensorEvent& sensor, Millis now) {
  if (!tracker_) return;
  engine::GameEvents out;
  if (const auto* seen = std::get_if<drivers::PlacementSeen>(&sensor)) {
    placement_seen(seen->placement, now);
  } else if (const auto* change = std::get_if<drivers::SquareChanged>(&sensor)) {
    placement_[change->square] = code_of(change->piece);
    placement_known_ = true;
    if (pending_dump_) {
      (*pending_dump_)[change->square] = code_of(change->piece);
      if (clock_known_) judge_dump(now, false);
    } else {
      tracker_->square(now, engine::Square(change->square), code_of(change->piece), out);
    }
  } else if (const auto* reading = std::get_if<drivers::ClockReading>(&sensor)) {
    clock_reading(*reading, now);
  } else if (const auto* lever = std::get_if<drivers::LeverPressed>(&sensor)) {
    const Color presser = sides_.is_white(lever->side) ? engine::kWhite : engine::kBlack;
    if (pending_dump_) {
      // The press says whose clock runs now; while the board is being judged the press
      // itself is not a move of its own (a move it completed is found by the judgement).
      clock_running_ = Color(1 - presser);
      clock_known_ = true;
      judge_dump(now, false);
    } else {
      tracker_->lever(now, presser, out);
    }
  } else if (const auto* flag = std::get_if<drivers::FlagShown>(&sensor)) {
    tracker_->flag(now, sides_.is_white(flag->side) ? engine::kWhite : engine::kBlack, out);
  } else if (std::holds_alternative<drivers::ClockAbsent>(sensor)) {
    clock_known_ = true;
    clock_running_.reset();
    device_status(v1::DEVICE_ROLE_CLOCK, v1::DEVICE_STATE_ABSENT, "the board reports no clock", now);
    if (pending_dump_) judge_dump(now, false);
  }
  emit(out);
}

void BoardSession::placement_seen(const drivers::Placement& placement, Millis now) {
  for (int s = 0; s < engine::kSquareCount; ++s) placement_[s] = code_of(placement[s]);
  placement_known_ = true;
  const bool game_running = resumed_ || (tracker_->started() && !tracker_->ended());
  if (awaiting_dump_ && game_running) {
    awaiting_dump_ = false;
    pending_dump_ = placement_;
    pending_dump_at_ = now;
    clock_known_ = false;  // wait for a report made after this dump
    return;
  }
  awaiting_dump_ = false;
  if (pending_dump_) {
    pending_dump_ = placement_;
    return;
  }
  engine::GameEvents out;
  tracker_->placement(now, placement_, out);
  emit(out);
}

void BoardSession::clock_reading(const drivers::ClockReading& reading, Millis now) {
  sides_.observe(reading);
  const bool white_left = sides_.white_side() == drivers::ClockSide::kLeft;
  engine::ClockReading r;
  r.white = white_left ? reading.left : reading.right;
  r.black = white_left ? reading.right : reading.left;
  r.running_known = true;
  if (reading.running && reading.turn) {
    r.running = sides_.is_white(*reading.turn) ? engine::kWhite : engine::kBlack;
  }
  clock_running_ = r.running;
  clock_known_ = true;
  if (pending_dump_ && !judge_dump(now, false)) return;
  engine::GameEvents out;
  tracker_->clock_reading(now, r, out);
  emit(out);
}

bool BoardSession::judge_dump(Millis now, bool final) {
  const Codes board = *pending_dump_;
  const MissedMoves missed = find_missed_moves(tracker_->committed(), board,
                                               clock_known_ ? clock_running_ : std::nullopt);
  if (missed.verdict == MissedMoves::Verdict::kUnexplained && !final) return false;
  pending_dump_.reset();
  pending_dump_at_.reset();
  resumed_ = false;
  engine::GameEvents out;
  if (missed.verdict == MissedMoves::Verdict::kMoves) {
    engine::Position pos = tracker_->committed();
    recovering_ = true;
    for (const engine::Move m : missed.moves) {
      const Color mover = pos.side_to_move();
      pos.make(m);
      tracker_->placement(now, codes_of(pos), out);
      tracker_->lever(now, mover, out);
      emit(out);
    }
    recovering_ = false;
  } else if (missed.verdict == MissedMoves::Verdict::kUnexplained) {
    v1::Event event;
    event.set_at_ms(static_cast<std::int32_t>(now.count()));
    event.set_visibility(v1::VISIBILITY_PUBLIC);
    event.set_game_id(game_id_);
    event.set_rules(rules_name_);
    const engine::Position& committed = tracker_->committed();
    event.mutable_restore_requested()->set_fen(engine::to_fen(committed));
    for (int s = 0; s < engine::kSquareCount; ++s) {
      if (engine::SquareCode(committed.piece_on(engine::Square(s))) != board[s]) {
        event.mutable_restore_requested()->add_squares(engine::square_name(engine::Square(s)));
      }
    }
    publish_event(std::move(event));
  }
  tracker_->placement(now, board, out);
  emit(out);
  return true;
}

void BoardSession::advance(Millis now) {
  if (!tracker_) return;
  if (pending_dump_ && pending_dump_at_ && now - *pending_dump_at_ >= kDumpJudgeWait) {
    judge_dump(now, true);
  }
  engine::GameEvents out;
  tracker_->advance(now, out);
  emit(out);
}

std::optional<Millis> BoardSession::next_deadline() const {
  std::optional<Millis> deadline = tracker_ ? tracker_->next_deadline() : std::nullopt;
  if (pending_dump_at_) {
    const Millis judge = *pending_dump_at_ + kDumpJudgeWait;
    if (!deadline || judge < *deadline) deadline = judge;
  }
  return deadline;
}

std::optional<Error> BoardSession::start_game(const GameSetup& setup, Millis now) {
  auto config = make_tracker_config(setup);
  if (!config) return Error{config.error()};
  rules_name_ = config->rules.name;
  new_tracker(std::move(config).value());
  sides_.reset();
  ply_offset_ = 0;
  suppress_started_ = false;
  resumed_ = false;
  pending_dump_.reset();
  pending_dump_at_.reset();
  if (placement_known_) {
    engine::GameEvents out;
    tracker_->placement(now, placement_, out);
    emit(out);
  }
  return std::nullopt;
}

v1::Ack BoardSession::command(const v1::Command& command, Millis now) {
  first_seq_ = 0;
  v1::Ack result = run_action(command, now);
  result.set_seq(result.ok() ? first_seq_ : 0);
  return result;
}

v1::Ack BoardSession::run_action(const v1::Command& c, Millis now) {
  using K = engine::OperatorAction::Kind;
  if (c.action_case() == v1::Command::kNewGame) {
    const v1::NewGame& n = c.new_game();
    GameSetup setup = setup_;
    if (!n.rules().empty()) setup.rules = n.rules();
    if (!n.time_control().empty()) setup.clock = n.time_control();
    for (const auto& p : n.params()) setup.params.emplace_back(p.name(), p.value());
    if (n.tags_size() > 0) setup.tags.clear();
    for (const auto& t : n.tags()) setup.tags.emplace_back(t.name(), t.value());
    setup.start_fen = n.start_fen();
    if (auto error = start_game(setup, now)) {
      return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "new_game: " + error->message);
    }
    return ack(v1::ACK_ERROR_UNSPECIFIED, "");
  }
  if (c.action_case() == v1::Command::ACTION_NOT_SET) {
    return ack(v1::ACK_ERROR_UNSUPPORTED, "command has no action");
  }
  if (!tracker_ || !(tracker_->started() || resumed_)) {
    return ack(v1::ACK_ERROR_REJECTED, "board " + board_id_ + " has no game in progress");
  }
  engine::GameEvents out;
  engine::OperatorAction a;
  const auto need_side = [&](v1::Side side, const char* field) -> std::optional<v1::Ack> {
    const auto color = color_of(side);
    if (!color) {
      return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                 std::string(field) + ": must be SIDE_WHITE or SIDE_BLACK");
    }
    a.side = *color;
    return std::nullopt;
  };
  switch (c.action_case()) {
    case v1::Command::kAddTime:
      if (auto bad = need_side(c.add_time().side(), "add_time.side")) return *bad;
      a.kind = K::kAddTime;
      a.amount = Millis(c.add_time().delta_ms());
      break;
    case v1::Command::kPause: a.kind = K::kPause; break;
    case v1::Command::kResume: a.kind = K::kResume; break;
    case v1::Command::kResign:
      if (auto bad = need_side(c.resign().side(), "resign.side")) return *bad;
      a.kind = K::kResign;
      break;
    case v1::Command::kDrawAgreed: a.kind = K::kDrawAgreed; break;
    case v1::Command::kTwoHands:
      if (auto bad = need_side(c.two_hands().side(), "two_hands.side")) return *bad;
      a.kind = K::kTwoHands;
      break;
    case v1::Command::kInfraction:
      if (auto bad = need_side(c.infraction().side(), "infraction.side")) return *bad;
      a.kind = K::kInfraction;
      break;
    case v1::Command::kClaim: {
      if (auto bad = need_side(c.claim().side(), "claim.side")) return *bad;
      const char* word = claim_word(c.claim().kind());
      if (!word) return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "claim.kind: not a claim a player can make");
      a.kind = K::kClaim;
      a.claim = word;
      a.uci = c.claim().intended_uci();
      break;
    }
    case v1::Command::kRuling:
      if (c.ruling().decision() == v1::RULING_DECISION_UNSPECIFIED) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "ruling.decision: must be ACCEPT or REJECT");
      }
      a.kind = K::kRuling;
      a.accept = c.ruling().decision() == v1::RULING_DECISION_ACCEPT;
      if (c.ruling().seq() != 0) a.seq = c.ruling().seq();
      break;
    case v1::Command::kSetResult: {
      const std::string& r = c.set_result().result();
      if (r != "1-0" && r != "0-1" && r != "1/2-1/2" && r != "*") {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                   "set_result.result: '" + r + "' is not 1-0, 0-1, 1/2-1/2 or *");
      }
      const int t = c.set_result().termination();
      const auto kind = t == 0 ? engine::TerminationKind::kArbiter : engine::TerminationKind(t - 1);
      tracker_->end_game(now, r, kind, false, c.set_result().description(), out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    case v1::Command::kRestorePosition: {
      if (c.restore_position().fen().empty()) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "restore_position.fen: empty");
      }
      auto pos = engine::parse_fen(c.restore_position().fen());
      if (!pos) return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "restore_position.fen: " + pos.error());
      tracker_->replace_committed(now, pos.value(), "restored by the arbiter", out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    case v1::Command::kPromotionChoice: {
      // protocols.md §10: only an occupancy-only board needs to be told the piece.
      const engine::PieceType piece = promotion_piece_of(c.promotion_choice().piece());
      if (piece == engine::kNoPieceType) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                   "promotion_choice.piece: must be QUEEN, ROOK, BISHOP or KNIGHT");
      }
      if (tracker_->recognizer().keys() != engine::MatchKeys::kOccupancy) {
        return ack(v1::ACK_ERROR_REJECTED, "promotion_choice: board " + board_id_ +
                                               " senses the pieces; the board shows the promoted piece");
      }
      tracker_->promotion_choice(now, piece, out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    case v1::Command::kSetClock: {
      const auto& s = c.set_clock();
      if (s.white_ms() < 0 || s.black_ms() < 0) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "set_clock: times must not be negative");
      }
      tracker_->adjust_clock(now, engine::kWhite,
                             Millis(s.white_ms()) - tracker_->clock().remaining(engine::kWhite, now), out);
      tracker_->adjust_clock(now, engine::kBlack,
                             Millis(s.black_ms()) - tracker_->clock().remaining(engine::kBlack, now), out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    default:
      return ack(v1::ACK_ERROR_UNSUPPORTED, "unknown command action");
  }
  OpenProposal* target = nullptr;
  if (a.kind == K::kRuling) {
    if (auto refused = check_ruling(a, target)) return *refused;
  }
  tracker_->operator_action(now, a, out);
  const bool settled = std::any_of(out.begin(), out.end(), [](const auto& e) { return e.proposal_seq != 0; });
  emit(out);
  if (target && !settled) {
    target->settled = true;
    // Rejecting a proposed result is the one ruling that rightly emits nothing; any other
    // ruling that settled nothing found its proposal lapsed in the arbiter.
    if (!(target->game_end && !a.accept)) {
      return ack(v1::ACK_ERROR_REJECTED, "ruling: that proposal of board " + board_id_ +
                                             " is no longer open (it lapsed); nothing was changed");
    }
  }
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

}  // namespace eboard::daemon
