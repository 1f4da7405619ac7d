#include "daemon/programs/eboard_replay/replay_session.h"

#include <algorithm>
#include <variant>

#include "engine/board/fen.h"
#include "engine/rules/rule_params.h"

namespace eboard::daemon {
namespace {

using engine::Color;

Color color_of_side(script::Side s) {
  return s == script::Side::kWhite ? engine::kWhite : engine::kBlack;
}

// The script's claim kinds are the engine's player claims, in the engine's order
// (engine/game/claim_kind.h); the script library depends on nothing of ours.
static_assert(int(script::ClaimKind::kClockSetting) == int(engine::ClaimKind::kClockSetting));
engine::ClaimKind claim_kind_of(script::ClaimKind kind) { return engine::ClaimKind(int(kind)); }

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

engine::OperatorAction action_of(const script::Body& body) {
  using K = engine::OperatorAction::Kind;
  engine::OperatorAction a;
  std::visit(Overload{
                 [&](const script::Claim& c) {
                   a.kind = K::kClaim;
                   a.side = color_of_side(c.side);
                   a.claim = claim_kind_of(c.kind);
                   a.uci = c.uci;
                 },
                 [&](const script::Resign& r) {
                   a.kind = K::kResign;
                   a.side = color_of_side(r.side);
                 },
                 [&](const script::DrawAgreed&) { a.kind = K::kDrawAgreed; },
                 [&](const script::Pause&) { a.kind = K::kPause; },
                 [&](const script::Resume&) { a.kind = K::kResume; },
                 [&](const script::AddTime& t) {
                   a.kind = K::kAddTime;
                   a.side = color_of_side(t.side);
                   a.amount = t.amount;
                 },
                 [&](const script::TwoHands& t) {
                   a.kind = K::kTwoHands;
                   a.side = color_of_side(t.side);
                 },
                 [&](const script::Ruling& r) {
                   a.kind = K::kRuling;
                   a.accept = r.kind == script::RulingKind::kAccept;
                   a.seq = r.seq;
                 },
                 [&](const script::Infraction& i) {
                   a.kind = K::kInfraction;
                   a.side = color_of_side(i.side);
                 },
                 [](const auto&) {},
             },
             body);
  return a;
}

}  // namespace

std::optional<std::string> ReplaySession::header(const script::Body& body) {
  header_.add(body);
  return std::nullopt;
}

std::optional<std::string> ReplaySession::build() {
  const std::string rules_name = options_.rules.value_or(
      header_.rules.empty() ? std::string(engine::kDefaultRuleSetName) : header_.rules);
  auto rules = engine::rule_set_by_name(rules_name);
  if (!rules) return rules.error();
  engine::TrackerConfig config;
  config.rules = rules.value();
  for (const auto& [name, value] : header_.params)
    if (auto error = engine::apply_param(config.rules, name, value)) return error->message;
  const std::string clock =
      options_.clock.value_or(header_.clock.empty() ? config.rules.default_clock : header_.clock);
  auto control = engine::parse_time_control(clock);
  if (!control) return control.error();
  config.time_control = control.value();
  auto start = engine::parse_fen(header_.start == "startpos" ? engine::kStartFen : header_.start);
  if (!start) return "start: " + start.error();
  config.start = start.value();
  config.tags = header_.tags;
  config.params = header_.params;
  config.report_square_changes = options_.raw;
  config.clock = options_.clock_presence;
  tracker_.emplace(std::move(config), &arbiter_);
  return std::nullopt;
}

std::optional<std::string> ReplaySession::feed(const script::Statement& statement,
                                               engine::GameEvents& out) {
  if (!statement.at) return header(statement.body);
  if (!tracker_)
    if (auto error = build()) return error;
  last_ = *statement.at;
  const std::size_t first = out.size();
  timed(statement.body, *statement.at, out);
  number(out, first);
  return std::nullopt;
}

// One batch: its events numbered in order, then the proposals it withdrew (eboardd's
// BoardSession::emit and publish_withdrawals).
void ReplaySession::number(const engine::GameEvents& out, std::size_t first) {
  for (std::size_t i = first; i < out.size(); ++i) {
    ++last_seq_;
    if (out[i].proposal() != 0) tracker_->published(out[i], last_seq_);
  }
  for (engine::Withdrawal& w : arbiter_.proposals().take_withdrawals()) {
    if (w.seq == 0) continue;  // never published: nobody was told of it
    withdrawals_.push_back({++last_seq_, std::move(w)});
  }
}

void ReplaySession::timed(const script::Body& body, engine::Millis at, engine::GameEvents& out) {
  engine::GameTracker& t = *tracker_;
  // No clock reaches a board without one, as the daemon drops a clock=none board's.
  const bool clock_line = std::holds_alternative<script::Lever>(body) ||
                          std::holds_alternative<script::ClockTime>(body) ||
                          std::holds_alternative<script::Flag>(body);
  if (clock_line && options_.clock_presence == engine::ClockPresence::kNone) return;
  if (const auto* p = std::get_if<script::Placement>(&body)) {
    std::array<engine::SquareCode, engine::kSquareCount> codes{};
    for (int s = 0; s < engine::kSquareCount; ++s) {
      const engine::SquareCode c = engine::square_code_from_char(p->squares[s]);
      codes[s] = c == engine::kNoCode ? engine::kEmptyCode : c;
    }
    t.placement(at, codes, out);
  } else if (const auto* l = std::get_if<script::Lift>(&body)) {
    t.square(at, engine::Square(l->square), engine::kEmptyCode, out);
  } else if (const auto* u = std::get_if<script::Put>(&body)) {
    const engine::SquareCode c = engine::square_code_from_char(u->piece);
    t.square(at, engine::Square(u->square), c == engine::kNoCode ? engine::kOccupiedCode : c, out);
  } else if (const auto* v = std::get_if<script::Lever>(&body)) {
    t.lever(at, color_of_side(v->side), out);
  } else if (const auto* c = std::get_if<script::ClockTime>(&body)) {
    engine::ClockReading r;
    r.white = c->white;
    r.black = c->black;
    r.white_moves = c->white_moves;
    r.black_moves = c->black_moves;
    t.clock_reading(at, r, out);
  } else if (const auto* f = std::get_if<script::Flag>(&body)) {
    if (f->side == script::FlagSide::kBoth)
      t.both_flags(at, out);  // order unknown (D10)
    else
      t.flag(at, f->side == script::FlagSide::kWhite ? engine::kWhite : engine::kBlack, out);
  } else if (const auto* pr = std::get_if<script::Promote>(&body)) {
    t.promotion_choice(at, engine::type_of(engine::piece_from_char(pr->piece)), out);
  } else {
    t.operator_action(at, action_of(body), out);
  }
}

// After the last line what stands on the board still settles: a mate found stable, a
// pending placement analysed, a move completed by an earlier press, a board disarranged.
// The clock is not run out: a script that ends is the end of a recording, not a clock
// left running until a flag falls (the rules goldens rely on "the game goes on"); a flag
// due before a board deadline still falls on the way. Bounded by a number of deadlines.
void ReplaySession::finish(engine::GameEvents& out) {
  if (!tracker_) return;
  std::size_t first = out.size();
  tracker_->advance(last_, out);
  number(out, first);
  constexpr int kMaxDeadlines = 1000;
  for (int i = 0; i < kMaxDeadlines && !tracker_->ended(); ++i) {
    const std::optional<engine::Millis> next = tracker_->next_board_deadline();
    if (!next) break;
    first = out.size();
    tracker_->advance(std::max(*next, last_), out);
    number(out, first);
  }
}

}  // namespace eboard::daemon
