// The decisions a game has put to the arbiter (docs/rules.md §0, the authority rule), owned
// by the RulesArbiter that proposes them: the one record of which are open, which were
// settled and which were withdrawn, and the query the daemon answers `eboard-ctl proposals`
// and the console from.
//
// One voice per decision: two open proposals on the same matter would contradict each
// other (a proposed 1-0 beside a proposed 0-1, a penalty's loss beside a proposed result),
// so opening one withdraws the open ones on its matter (superseded), and one that says the
// same as an open one is not opened again. A proposal also leaves the book without a
// ruling: it lapses (the claim window of an illegal move closed) or the game ended. Each
// withdrawal is kept until the publisher takes it (take_withdrawals) to announce it, so
// every client learns that the decision is no longer open.
//
// Handles are index + 1 in the game's book (0 means none); seqs are the publisher's,
// reported back through published().
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/game/game_event.h"

namespace eboard::engine {

using Millis = std::chrono::milliseconds;

// What a proposal decides, for supersession: every proposal on the game's result is one
// matter; a penalty or a claim that does not decide the result is a matter of its own.
enum class Matter : std::uint8_t { kResult, kOwn };

enum class ProposalState : std::uint8_t { kOpen, kAccepted, kRejected, kWithdrawn };
// What the arbiter's ruling says of a proposal (eboard.v1.RulingDecision).
enum class RulingDecision : std::uint8_t { kAccept, kReject };
// A time penalty for a completed illegal move under a claim window (D5): once applied, the
// illegal move stands, or the position before it is reinstated (7.5.1).
enum class PenaltyPosition : std::uint8_t { kStands, kReinstated };
enum class WithdrawReason : std::uint8_t { kLapsed, kSuperseded, kGameEnded };

struct Proposal {
  enum class Kind : std::uint8_t { kTimePenalty, kGameEnd, kClaim };
  Kind kind = Kind::kTimePenalty;
  Color offender = kWhite;                             // kTimePenalty: who is penalised
  PenaltyKind penalty_kind = PenaltyKind::kTimeAdded;  // kTimePenalty: warning or time
  Millis amount{0};  // kTimePenalty: time to the offender's opponent
  PenaltyPosition position = PenaltyPosition::kStands;  // kTimePenalty
  GameResult result = GameResult::kUnfinished;          // kGameEnd
  TerminationKind termination = TerminationKind::kArbiter;
  std::string description;
  GameEvent decided;  // kClaim: the claimDecided to confirm (its body an events::ClaimDecided)

  // Set by the book.
  Millis at{0};                                            // when it was opened
  EventVisibility visibility = EventVisibility::kArbiter;  // of the event that opened it
  ProposalState state = ProposalState::kOpen;
  WithdrawReason withdrawn = WithdrawReason::kLapsed;
  std::string withdrawn_why;  // for people: why it is no longer open
  Millis withdrawn_at{0};
  std::uint32_t superseded_by = 0;  // kSuperseded: the handle that replaced it
  // The seqs the publisher gave the events that opened it (a claim: its claimReceived and
  // claimDecided; a penalty ladder's loss: its penalty and the proposed gameEnded); a
  // ruling names any of them.
  std::vector<std::uint64_t> seqs;

  bool open() const { return state == ProposalState::kOpen; }
  // The seq it is listed and announced under: a proposed result's gameEnded (the last of its
  // events: a penalty ladder's loss comes first), otherwise the first event.
  std::uint64_t seq() const;
  Matter matter() const;
  // Whether `other` would decide the same, so that opening it again adds nothing.
  bool same_as(const Proposal& other) const;
};

// A proposal withdrawn without a ruling, as its announcement needs it.
struct Withdrawal {
  std::uint32_t handle = 0;
  std::uint64_t seq = 0;            // Proposal::seq() (0: never published)
  std::vector<std::uint64_t> seqs;  // all the seqs that named it
  std::uint64_t superseded_by = 0;  // the first seq of the proposal that replaced it
  WithdrawReason reason = WithdrawReason::kLapsed;
  std::string description;
  Millis at{0};
  EventVisibility visibility = EventVisibility::kArbiter;
};

class ProposalBook {
 public:
  struct Opened {
    std::uint32_t handle = 0;
    bool is_new = false;  // false: an open proposal already said the same; it is its handle
  };
  // Opens `p` at `now`, seen first in an event of `visibility`, and withdraws the open
  // proposals on its matter.
  Opened open(Proposal p, EventVisibility visibility, Millis now);
  Proposal* get(std::uint32_t handle);
  const Proposal* get(std::uint32_t handle) const;
  // The proposal one of whose events was published as `seq`, whatever its state.
  const Proposal* named(std::uint64_t seq) const;
  // What a ruling settles: the handle of the open proposal named by `seq`, without one of
  // the latest open (0: none).
  std::uint32_t for_ruling(std::optional<std::uint64_t> seq) const;
  void settle(std::uint32_t handle, RulingDecision decision);
  void withdraw(std::uint32_t handle, WithdrawReason reason, std::string why, Millis now);
  // The game ended: nothing is left to decide.
  void withdraw_all(WithdrawReason reason, const std::string& why, Millis now);
  void published(std::uint32_t handle, std::uint64_t seq);
  // The open proposals, oldest first, with their handles.
  std::vector<std::pair<std::uint32_t, const Proposal*>> open_proposals() const;
  // The withdrawals since the last call, in order (the seqs as published by now).
  std::vector<Withdrawal> take_withdrawals();
  void clear();

 private:
  std::vector<Proposal> proposals_;
  std::vector<std::uint32_t> withdrawn_;  // handles not yet taken
};

// Why a proposal is no longer open, for a refusal: "accepted", "withdrawn: superseded by
// seq 15", "withdrawn: the claim window closed".
std::string closed_reason(const ProposalBook& book, const Proposal& p);

}  // namespace eboard::engine
