// BoardSession's recovery (resume()): the journal's game played again into a fresh
// tracker (recovery.h replay_game) with the arbiter's commands and proposals at their
// places among its moves, so that a restarted daemon goes on with the same clocks, the
// same open proposals under the same seqs and the same players; nothing of it is
// published again.
#include <algorithm>

#include "daemon/core/board_session.h"
#include "daemon/core/recovery.h"
#include "daemon/event_mapping.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

engine::TerminationKind termination_of(v1::Termination t) {
  return t == v1::TERMINATION_UNSPECIFIED ? engine::TerminationKind::kArbiter
                                          : engine::TerminationKind(int(t) - 1);
}

// The journal events that open or settle proposals (BoardState::game_history): they are
// effects; every other event of the history is a driver input or a command, a cause.
bool proposal_kind(const v1::Event& e) {
  return e.has_game_ended() || e.has_penalty() || e.has_claim_received() || e.has_claim_decided() ||
         e.has_dead_position_suspected();
}

// Whether the journal's penalty opened a decision for the arbiter: it says so (`proposed`).
// A journal written before penalties said it holds no `proposed`: there an unapplied
// penalty that settles no earlier one was a proposal, except a warning, which may be a
// record only (an infraction the rule set has no step for) and cannot be told apart.
bool proposing_penalty(const v1::Penalty& p) {
  if (p.proposed()) return true;
  return !p.applied() && p.proposal_seq() == 0 && p.kind() != v1::PENALTY_WARNING;
}

// Whether the journal's event says it opened a decision for the arbiter.
bool proposing(const v1::Event& e) {
  return (e.has_game_ended() && e.game_ended().proposed()) ||
         (e.has_penalty() && proposing_penalty(e.penalty())) ||
         (e.has_claim_decided() && e.claim_decided().proposed()) || e.has_dead_position_suspected();
}

// The last seq a driver input's batch can hold: up to the journal's next cause (an input,
// a command's first event), which began another batch.
std::uint32_t batch_end(const std::vector<v1::Event>& history, std::uint32_t seq,
                        const std::vector<std::uint32_t>& caused) {
  std::uint32_t end = UINT32_MAX;
  for (const v1::Event& e : history) {
    if (e.seq() <= seq || proposal_kind(e)) continue;
    end = e.seq() - 1;
    break;
  }
  for (const std::uint32_t c : caused)
    if (c > seq && c - 1 < end) end = c - 1;
  return end;
}

// The same fact: equal kinds and payloads (the envelope aside).
bool same_payload(v1::Event a, v1::Event b) {
  for (v1::Event* e : {&a, &b}) {
    e->clear_board_id();
    e->clear_seq();
    e->clear_at_ms();
    e->clear_visibility();
    e->clear_game_id();
    e->clear_articles();
    e->clear_rules();
  }
  return a.SerializeAsString() == b.SerializeAsString();
}

}  // namespace

std::optional<Error> BoardSession::resume(const BoardState& journal_state) {
  const v1::Snapshot& s = journal_state.snapshot();
  game_id_ = s.game_id();
  // A new game was answered ok but had not started: that game is set up, waiting for the
  // board, and the one before it is not continued (the arbiter replaced it). Its time line
  // began on the board's when it was set up, so it goes on from the journal's last atMs:
  // its gameStarted and every event after it come later than what the journal has.
  if (journal_state.new_game_pending()) {
    resume_at_ = Millis(std::max(0, s.at_ms()));
    if (auto error = new_game(*journal_state.new_game(), resume_at_))
      return Error{"board " + board_id_ +
                   ": cannot set up the journal's new game: " + error->message};
    keep_learned_side(journal_state);
    return std::nullopt;
  }
  if (journal_state.new_game()) keep_white_side(*journal_state.new_game());
  keep_learned_side(journal_state);
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
  if (!config)
    return Error{"board " + board_id_ + ": cannot resume the journal's game: " + config.error()};
  rules_name_ = config->rules.name;
  resume_at_ = Millis(std::max(0, s.at_ms()));
  // The journal's game is played again with presses (recovery.h), whatever the board's
  // clock; the game then goes on as the board's clock says.
  const engine::ClockPresence presence = presence_;
  presence_ = engine::ClockPresence::kConnected;
  new_tracker(std::move(config).value());
  resumed_ = true;  // the arbiter's commands are played before the tracker has started
  const std::vector<v1::Event>& history = journal_state.game_history();
  replay_ = Replay{&history, std::vector<bool>(history.size()), command_caused_seqs(history), 0, 0};
  ReplayHooks hooks;
  hooks.other = [this](const v1::Event& journal, Millis now) { replay_other(journal, now); };
  hooks.emitted = [this](const v1::Event& journal, engine::GameEvents& out) {
    replay_->from_seq = journal.seq();
    replay_->to_seq = batch_end(*replay_->history, journal.seq(), replay_->caused);
    emit(out);
  };
  const auto failed = replay_game(*tracker_, history, s, resume_at_, hooks);
  std::string lost;  // the journal's proposals not opened again
  for (std::size_t i = 0; i < history.size(); ++i)
    if (proposing(history[i]) && !replay_->matched[i])
      lost += (lost.empty() ? "" : ", ") + std::to_string(history[i].seq());
  replay_.reset();
  if (!failed && !lost.empty()) {
    resume_warning_ = "board " + board_id_ + ": the journal's proposals of seq " + lost +
                      " did not open again when its game was played again; a ruling cannot "
                      "name them";
  }
  if (failed) {
    resume_warning_ = "board " + board_id_ + ": the journal's game (up to seq " +
                      std::to_string(s.last_seq()) + ") could not be played again (" + *failed +
                      "); resuming from the last position alone: each side's move and "
                      "illegal-move counts, the positions played before it and the open "
                      "proposals start afresh";
    setup.start_fen = s.fen();  // the position after the last completed move
    engine::TrackerConfig from_last = make_tracker_config(setup).value();
    from_last.plies_before = s.moves_size();
    new_tracker(std::move(from_last));
  }
  suppress_started_ = !tracker_->started();
  begin_sync(SyncCause::kLinkUp);
  restore_clocks(s, resume_at_);
  presence_ = presence;
  engine::GameEvents dropped;  // bookkeeping, as restore_clocks' events
  tracker_->set_clock_presence(resume_at_, presence_, dropped);
  return std::nullopt;
}

// What a `white=auto` board learned of its clock before the restart holds: the first
// running clock after it is the side to move's, which is not White's when Black is to move.
void BoardSession::keep_learned_side(const BoardState& journal_state) {
  const auto side = journal_state.learned_white_side();
  if (side == v1::CLOCK_SIDE_LEFT) sides_.learned(drivers::ClockSide::kLeft);
  if (side == v1::CLOCK_SIDE_RIGHT) sides_.learned(drivers::ClockSide::kRight);
}

// A journal event replay_game does not play itself: an applied command is run again (a
// new game's is what started this one, from the snapshot's set-up), and a result proposed
// by what no move or command causes again (the result pieces, a flag) is proposed again.
void BoardSession::replay_other(const v1::Event& journal, Millis now) {
  if (journal.has_command_applied()) {
    const v1::CommandApplied& applied = journal.command_applied();
    if (!applied.outcome().ok() || applied.command().has_new_game()) return;
    replay_->from_seq = applied.outcome().seq();
    replay_->to_seq = applied.last_seq();
    run_action(applied.command(), now);
    return;
  }
  if (!journal.has_game_ended() || !journal.game_ended().proposed()) return;
  const auto& history = *replay_->history;
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (history[i].seq() == journal.seq() && replay_->matched[i]) return;  // emitted again
  }
  replay_->from_seq = replay_->to_seq = journal.seq();
  engine::GameEvents out;
  const v1::GameEnded& ended = journal.game_ended();
  const std::optional<engine::GameResult> result = engine::parse_result(ended.result());
  if (!result) return;  // not a result: nothing to propose again
  tracker_->propose_result(now, *result, termination_of(ended.termination()), ended.description(),
                           out);
  emit(out);
}

// What the tracker emits while the journal is played again: each proposal it opens gets
// the seq its event was published under, so a ruling names it as before. That event is
// among the seqs the journal recorded for the cause being played again (Replay::from_seq
// to to_seq): the one saying the same, or else the first unmatched one of its kind there;
// never an event another cause published.
void BoardSession::replayed(engine::GameEvents& events) {
  std::optional<Millis> ended_at;
  for (const engine::GameEvent& e : events) {
    ended_at = game_over_at(e, ended_at);
    if (e.proposal() == 0) continue;
    const auto index = journal_index(e);
    if (!index) continue;  // not in the journal: nothing can name it
    const v1::Event& journal = (*replay_->history)[*index];
    tracker_->published(e, journal.seq());
    // Opened when it was first published, not at the replay's time.
    engine::Proposal* p = arbiter_->proposals().get(e.proposal());
    if (p && p->seqs.size() == 1) p->at = Millis(journal.at_ms());
  }
  events.clear();
  if (ended_at) arbiter_->game_over(*ended_at);
  arbiter_->proposals().take_withdrawals();  // the journal has them
}

std::optional<std::size_t> BoardSession::journal_index(const engine::GameEvent& e) {
  const v1::Event again = to_proto(e, EventEnvelope{board_id_, 0, game_id_, rules_name_});
  const auto& history = *replay_->history;
  std::optional<std::size_t> same_kind;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const std::uint32_t seq = history[i].seq();
    if (replay_->matched[i] || seq < replay_->from_seq || seq > replay_->to_seq) continue;
    if (history[i].kind_case() != again.kind_case()) continue;
    if (same_payload(history[i], again)) {
      same_kind = i;
      break;
    }
    if (!same_kind) same_kind = i;
  }
  if (same_kind) replay_->matched[*same_kind] = true;
  return same_kind;
}

// The fresh tracker's clock model would start from the time control (crediting a
// start_and_press increment again); the game's clocks continue from the journal's last
// times instead (the snapshot folds every clock and moveCompleted event, and so the time
// the arbiter added or set). The model is given those times as a reading at `now`, where
// the board's time line goes on, with the side to move running; what that produces (the
// suppressed start, the start increment, the mismatch against the fresh model) is
// bookkeeping, not news, and is not published. A hardware clock's first report then
// corrects the time spent while down.
void BoardSession::restore_clocks(const v1::Snapshot& s, Millis now) {
  if (s.white_ms() <= 0 && s.black_ms() <= 0) return;  // no clock time journalled yet
  engine::ClockReading times;
  times.white = Millis(s.white_ms());
  times.black = Millis(s.black_ms());
  engine::GameEvents dropped;
  tracker_->clock_reading(now, times, dropped);
  if (s.paused()) tracker_->pause_clock(now, engine::ClockHold::kPause, dropped);
  suppress_started_ = false;  // its gameStarted was among the dropped events
}

}  // namespace eboard::daemon
