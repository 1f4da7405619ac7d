// What players and the arbiter do that the board cannot see (docs/interfaces.md §3 operator
// lines; docs/rules.md §0.1 `operator`): the engine's form of a script's claim, resign,
// draw-agreed, pause, resume and arbiter lines. The game tracker passes them to its
// Arbiter (arbiter_seam.h); only pause, resume and add-time have a default effect.
// The script's `promote` line (the piece of a promotion an occupancy-only board cannot
// sense) is not one of these: it is board input for the recognizer, not a matter for the
// rules, and goes to GameTracker::promotion_choice.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/board/types.h"
#include "engine/game/claim_kind.h"

namespace eboard::engine {

struct OperatorAction {
  enum class Kind : std::uint8_t {
    kClaim,
    kResign,
    kDrawAgreed,
    kPause,
    kResume,
    kAddTime,
    kTwoHands,
    kRuling,
    kInfraction,
  };
  Kind kind = Kind::kPause;
  Color side = kWhite;
  // kClaim: what is claimed (a player's kind, never kAgreement) and, for threefold and
  // fifty, the intended move as UCI text (checked against the position: docs/rules.md D8).
  ClaimKind claim = ClaimKind::kIllegalMove;
  std::string uci;
  std::chrono::milliseconds amount{0};  // kAddTime, negative takes time off
  bool accept = true;                   // kRuling
  std::optional<std::uint64_t> seq;     // kRuling: the proposal or claim ruled on
};

}  // namespace eboard::engine
