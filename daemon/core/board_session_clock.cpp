// BoardSession: a time forfeit only from a clock the model agrees with (docs/rules.md §5
// "A forfeit the model contradicts"). The hardware clock's indications are conclusive
// (6.10.1), and the clock model adopts every reading, so one reading that shows a side at
// zero ends the game through the model's own flag. A reading can be wrong, though: a
// damaged clock message that got past the driver's gate (drivers/dgt/clock_gate.h), or a
// clock set wrongly after a restart. So a reading that says a side's time is up - its
// flag came with it, or it is the side that runs and it shows zero - while the model
// gives that side more than kForfeitTolerance is not given to the tracker: the session
// proposes the loss on time once, and the arbiter decides. Readings the model agrees
// with pass as before; a flag shown while the clock still shows time is a next period's
// (docs/protocols.md §1.8 bit 6) and passes too, but in the last period, where no period
// follows, it is proposed like a zero.
#include <cstdio>

#include "daemon/core/board_session.h"

namespace eboard::daemon {
namespace {

using engine::Color;

// The clock's whole seconds (1 s) and the up to 1 s its data lags its display
// (docs/protocols.md §1.8): the DGT driver's gate uses the same 2 s.
constexpr Millis kForfeitTolerance{2000};

Millis shown(const engine::ClockReading& r, Color side) {
  return side == engine::kWhite ? r.white : r.black;
}

}  // namespace

void BoardSession::flag_shown(std::optional<Color> side) {
  for (const Color c : {engine::kWhite, engine::kBlack}) {
    if (!side || *side == c) flags_seen_[c] = true;
  }
}

std::optional<Color> BoardSession::contradicted_forfeit(const engine::ClockReading& r,
                                                        Millis at) const {
  if (tracker_->ended()) return std::nullopt;
  const engine::ClockModel& model = tracker_->clock();
  const int periods = static_cast<int>(model.time_control().periods.size());
  for (const Color side : {engine::kWhite, engine::kBlack}) {
    if (model.remaining(side, at) <= kForfeitTolerance) continue;
    const bool at_zero = shown(r, side) <= Millis{0};
    if (at_zero && (flags_seen_[side] || model.running() == std::optional<Color>(side)))
      return side;
    // A flag with time on the clock is a next period's; in the last period there is none.
    if (flags_seen_[side] && model.period(side) >= periods) return side;
  }
  return std::nullopt;
}

void BoardSession::give_reading(Millis at, const engine::ClockReading& r, engine::GameEvents& out) {
  if (const auto side = contradicted_forfeit(r, at)) {
    flags_seen_ = {};
    if (!forfeit_proposed_) propose_forfeit(*side, at, out);
    forfeit_proposed_ = true;
    return;
  }
  forfeit_proposed_ = false;
  const auto flags = std::exchange(flags_seen_, {});
  if (flags[engine::kWhite] && flags[engine::kBlack]) {
    tracker_->both_flags(at, out);
  } else if (flags[engine::kWhite] || flags[engine::kBlack]) {
    tracker_->flag(at, flags[engine::kWhite] ? engine::kWhite : engine::kBlack, out);
  }
  tracker_->clock_reading(at, r, out);
}

// The proposal is the result accepting it would give (6.9): a loss on time, or a draw when
// the opponent cannot checkmate by any series of legal moves (the set's mating test, as
// for a flag the model agrees with: RulesArbiter::flag_result).
void BoardSession::propose_forfeit(Color side, Millis at, engine::GameEvents& out) {
  const long long left = tracker_->clock().remaining(side, at).count() / 1000;
  const engine::UnwinnabilityNote opponent =
      arbiter_->can_mate(*tracker_, tracker_->committed(), ~side, tracker_->rules().mating_test);
  const bool draw = opponent == engine::UnwinnabilityNote::kUnwinnable;
  char text[240];
  std::snprintf(text, sizeof text,
                "the clock shows %s's time up, the model %lld s left: a damaged clock message "
                "or a wrongly set clock; the arbiter decides (6.9, 6.10.1)%s",
                side == engine::kWhite ? "White" : "Black", left,
                draw ? "; the opponent cannot checkmate, so a forfeit would be a draw" : "");
  tracker_->propose_result(at, draw ? engine::GameResult::kDraw : engine::win_for(~side),
                           draw ? engine::TerminationKind::kTimeoutVsInsufficient
                                : engine::TerminationKind::kTimeForfeit,
                           text, out);
}

}  // namespace eboard::daemon
