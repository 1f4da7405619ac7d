// What a player claims (docs/rules.md D1, D5, D8, D10, D12): the engine's one vocabulary
// of claim kinds, used by operator actions, the arbiter's events and the proposals an
// arbiter is shown. The wire's eboard.v1.ClaimKind lists the same kinds in the same
// order from 1 (daemon/event_mapping.cpp relies on it); the sensor-script format has its
// own words for them (simulators/script/statement.h), since that library depends on
// nothing of ours.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace eboard::engine {

enum class ClaimKind : std::uint8_t {
  kIllegalMove,
  kThreefold,
  kFifty,
  kFlag,
  kQpf,
  kSetup,
  kOrientation,
  kClockSetting,
  kAgreement,  // not a player's claim: the kind of a claimDecided that records an agreement
};
inline constexpr int kClaimKindCount = int(ClaimKind::kAgreement) + 1;

// The word for a kind ("threefold", "clock-setting"): as eboard-ctl takes it and an
// arbiter's proposal names it; the sensor-script format spells the claims the same way.
constexpr std::string_view claim_kind_word(ClaimKind kind) {
  constexpr std::string_view kWords[kClaimKindCount] = {
      "illegal-move", "threefold",   "fifty",         "flag",     "qpf",
      "setup",        "orientation", "clock-setting", "agreement"};
  return kWords[int(kind)];
}

// The kind a player can claim with that word; nullopt for any other word ("agreement"
// included: an agreement is not claimed).
constexpr std::optional<ClaimKind> player_claim_of(std::string_view word) {
  for (int k = 0; k < int(ClaimKind::kAgreement); ++k)
    if (claim_kind_word(ClaimKind(k)) == word) return ClaimKind(k);
  return std::nullopt;
}

}  // namespace eboard::engine
