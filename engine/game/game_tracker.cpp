#include "engine/game/game_tracker.h"

#include "engine/board/fen.h"

namespace eboard::engine {
namespace {

RecognizerTiming timing_of(const RuleSet& rules) {
  return {rules.debounce,
          rules.unexplained_timeout,
          rules.game_end_stable,
          rules.disarranged_after,
          {rules.clockless_stable, rules.clockless_settle, rules.clockless_lift_hold}};
}

std::int64_t whole_seconds(Millis t) { return t.count() / 1000; }

}  // namespace

GameTracker::GameTracker(TrackerConfig config, Arbiter* arbiter)
    : config_(std::move(config)),
      arbiter_(arbiter ? arbiter : &default_arbiter_),
      recognizer_(config_.start, timing_of(config_.rules), config_.sensing),
      clock_(config_.time_control, clock_options(config_.rules)),
      presence_(config_.clock) {
  for (int s = 0; s < kSquareCount; ++s) raw_[s] = config_.start.piece_on(Square(s));
  RecognizerEvents before_start;  // nothing stands on the board yet: not news
  if (presence_ == ClockPresence::kNone) recognizer_.set_clockless(true, Millis{0}, before_start);
}

EventVisibility GameTracker::irregularity_visibility() const {
  return config_.rules.irregularity_visibility == IrregularityVisibility::kArbiterOnly
             ? EventVisibility::kArbiter
             : EventVisibility::kPublic;
}

// 6.6: the game starts at the first timed input, with White's clock (or the side to
// move's, from a set-up position) running; after an annulled game (AnnulGame) the new game
// starts at the first input that follows.
void GameTracker::ensure_started(Millis now, GameEvents& out) {
  if (ended_ && next_start_) begin_new_game();
  if (started_) return;
  started_ = true;
  const Color first = config_.start.side_to_move();
  std::vector<ClockEvent> ce = clock_.start(now, first);
  events::GameStarted e;
  e.position = snapshot_of(config_.start);
  e.rules = config_.rules.name;
  e.time_control = config_.time_control;
  e.tags = config_.tags;
  e.params = config_.params;
  e.white_remaining = clock_.remaining(kWhite, now);
  e.black_remaining = clock_.remaining(kBlack, now);
  out.emplace_back(now, std::move(e));
  clock_events(ce, out);
  if (presence_ == ClockPresence::kNone) clock_events(clock_.pause(now), out);
}

void GameTracker::set_clock_presence(Millis now, ClockPresence presence, GameEvents& out) {
  if (presence == presence_) return;
  presence_ = presence;
  const bool none = presence == ClockPresence::kNone;
  RecognizerEvents seen;
  recognizer_.set_clockless(none, now, seen);
  if (started_ && !ended_ && !arbiter_paused_) {
    clock_events(none ? clock_.pause(now) : clock_.resume(now), out);
    // The model ran for nobody while paused: the side to move is the one the clock runs
    // for (its first reading sets the times; the switch itself is bookkeeping).
    const std::optional<Color> running = clock_.running();
    const Color to_move = committed().side_to_move();
    if (!none && running && *running != to_move)
      (void)clock_.press(*running, now, moves_completed_[*running]);
    clock_update(now, out);
  }
  translate(seen, out);
}

void GameTracker::placement(Millis now, const std::array<SquareCode, kSquareCount>& codes,
                            GameEvents& out) {
  const std::size_t first = out.size();
  ensure_started(now, out);
  advance(now, out);
  if (config_.report_square_changes) {
    for (int s = 0; s < kSquareCount; ++s) {
      if (raw_[s] == codes[s]) continue;
      out.emplace_back(now, events::SquareChanged{Square(s), codes[s]});
    }
  }
  raw_ = codes;
  if (ended_) return;
  RecognizerEvents seen;
  recognizer_.sense_placement(codes, now, seen);
  translate(seen, out);
  if (!ended_) board_changed(now, first, out);
}

void GameTracker::square(Millis now, Square s, SquareCode code, GameEvents& out) {
  const std::size_t first = out.size();
  ensure_started(now, out);
  advance(now, out);
  if (config_.report_square_changes && raw_[s] != code)
    out.emplace_back(now, events::SquareChanged{s, code});
  raw_[s] = code;
  if (ended_) return;
  RecognizerEvents seen;
  recognizer_.sense_square(s, code, now, seen);
  translate(seen, out);
  if (!ended_) board_changed(now, first, out);
}

void GameTracker::clock_reading(Millis now, const ClockReading& reading, GameEvents& out) {
  ensure_started(now, out);
  advance(now, out);
  if (ended_) return;
  clock_events(clock_.observe(reading, now), out);
  // docs/interfaces.md §4 `clock`: displays get the hardware clock's times, once per change of
  // a whole second on either side (a DGT 3000 reports several times a second).
  if (whole_seconds(clock_.remaining(kWhite, now)) != shown_seconds_[kWhite] ||
      whole_seconds(clock_.remaining(kBlack, now)) != shown_seconds_[kBlack])
    clock_update(now, out);
}

void GameTracker::flag(Millis now, Color side, GameEvents& out) {
  ensure_started(now, out);
  advance(now, out);
  if (ended_ || flag_down(side)) return;
  flag_period_[side] = clock_.period(side);
  events::FlagFell e = flag_fell(side);
  e.first = !flag_down(~side);
  out.emplace_back(now, std::move(e), irregularity_visibility(), std::vector<std::string>{"6.8"});
  apply(now, arbiter_->on_flag(*this, side, now), out);
}

events::FlagFell GameTracker::flag_fell(Color side) const {
  events::FlagFell e;
  e.side = side;
  e.period = clock_.period(side);
  e.moves_completed = moves_completed_[side];
  return e;
}

void GameTracker::published(const GameEvent& event, std::uint64_t seq) {
  if (const std::uint32_t proposal = event.proposal()) arbiter_->on_published(proposal, seq);
}

void GameTracker::both_flags(Millis now, GameEvents& out) {
  ensure_started(now, out);
  advance(now, out);
  if (ended_) return;
  for (Color side : {kWhite, kBlack}) {
    if (flag_down(side)) continue;
    flag_period_[side] = clock_.period(side);
    events::FlagFell e = flag_fell(side);
    e.first = false;  // the order is not known
    e.description = "both flags down, which fell first is unknown";
    out.emplace_back(now, std::move(e), irregularity_visibility(),
                     std::vector<std::string>{"6.8", "III.3.1"});
  }
  apply(now, arbiter_->on_both_flags(*this, now), out);
}

void GameTracker::operator_action(Millis now, const OperatorAction& action, GameEvents& out) {
  ensure_started(now, out);
  advance(now, out);
  if (ended_) return;
  apply(now, arbiter_->on_operator(*this, action, now), out);
}

void GameTracker::propose_result(Millis now, GameResult result, TerminationKind termination,
                                 const std::string& description, GameEvents& out) {
  ensure_started(now, out);
  if (ended_) return;
  apply(now, arbiter_->propose_result(*this, result, termination, description, now), out);
}

void GameTracker::promotion_choice(Millis now, PieceType piece, GameEvents& out) {
  const std::size_t first = out.size();
  ensure_started(now, out);
  advance(now, out);
  if (ended_) return;
  RecognizerEvents seen;
  recognizer_.set_promotion_choice(piece, now, seen);
  translate(seen, out);
  if (!ended_) board_changed(now, first, out);
}

void GameTracker::board_changed(Millis now, std::size_t first, GameEvents& out) {
  const std::span<const GameEvent> caused(out.begin() + std::ptrdiff_t(first), out.end());
  apply(now, arbiter_->on_board_change(*this, caused, now), out);
}

void GameTracker::advance(Millis now, GameEvents& out) {
  if (!started_ || ended_) return;
  // Deadlines in time order: the recognizer's, the arbiter's and the clock's interleave;
  // at the same instant what stands on the board goes before a flag.
  const auto due = [now](std::optional<Millis> t) { return t && *t <= now; };
  for (;;) {
    const std::optional<Millis> r = recognizer_.next_deadline();
    const std::optional<Millis> a = arbiter_->next_deadline();
    const std::optional<Millis> c = clock_.next_deadline();
    if (!due(r) && !due(a) && !due(c)) break;
    if (due(r) && (!a || *r <= *a) && (!c || *r <= *c)) {
      RecognizerEvents seen;
      recognizer_.advance(*r, seen);
      translate(seen, out);
    } else if (due(a) && (!c || *a <= *c)) {
      apply(*a, arbiter_->on_deadline(*this, *a), out);
    } else {
      clock_events(clock_.advance(*c), out);
    }
    if (ended_) return;
  }
}

namespace {
std::optional<Millis> earliest(std::optional<Millis> a, std::optional<Millis> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}
}  // namespace

std::optional<Millis> GameTracker::next_deadline() const {
  if (!started_ || ended_) return std::nullopt;
  return earliest(next_board_deadline(), clock_.next_deadline());
}

std::optional<Millis> GameTracker::next_board_deadline() const {
  if (!started_ || ended_) return std::nullopt;
  return earliest(recognizer_.next_deadline(), arbiter_->next_deadline());
}

// Everything of the annulled game goes; the configuration stays but for the start.
void GameTracker::begin_new_game() {
  config_.start = *next_start_;
  config_.plies_before = 0;
  next_start_.reset();
  recognizer_ = MoveRecognizer(config_.start, timing_of(config_.rules), config_.sensing);
  RecognizerEvents before_start;
  if (presence_ == ClockPresence::kNone) recognizer_.set_clockless(true, Millis{0}, before_start);
  clock_ = ClockModel(config_.time_control, clock_options(config_.rules));
  arbiter_paused_ = false;
  moves_.clear();
  illegal_counts_ = {};
  moves_completed_ = {};
  flag_period_ = {};
  shown_seconds_ = {-1, -1};
  started_ = false;
  ended_ = false;
  result_ = GameResult::kUnfinished;
  arbiter_->on_new_game();
}

void GameTracker::clock_update(Millis now, GameEvents& out) {
  events::ClockShown e;
  e.white_remaining = clock_.remaining(kWhite, now);
  e.black_remaining = clock_.remaining(kBlack, now);
  e.running = presence_ == ClockPresence::kNone ? std::nullopt : clock_.running();
  e.paused = clock_.paused();
  e.white_period = clock_.period(kWhite);
  e.black_period = clock_.period(kBlack);
  shown_seconds_ = {whole_seconds(e.white_remaining), whole_seconds(e.black_remaining)};
  out.emplace_back(now, std::move(e));
}

}  // namespace eboard::engine
