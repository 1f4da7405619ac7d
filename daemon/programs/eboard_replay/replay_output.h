// What one ReplaySession::feed() or finish() call published, as eboard-replay prints it:
// the tracker's events and, where their seqs fall, the proposals withdrawn after each batch
// (proposalWithdrawn), each numbered and mapped to the wire as eboardd publishes them
// (daemon/event_mapping.h). eboard-replay and the golden tests print through it.
#pragma once

#include <cstddef>
#include <functional>

#include "daemon/event_mapping.h"
#include "daemon/programs/eboard_replay/replay_session.h"
#include "eboard/v1/event.pb.h"

namespace eboard::daemon {

// `each` gets every event in seq order, with the tracker's event it came from (nullptr for a
// withdrawal); `events` is cleared.
inline void publish_replayed(
    ReplaySession& session, engine::GameEvents& events, EventNumbering& numbering,
    const std::function<void(const eboard::v1::Event&, const engine::GameEvent*)>& each) {
  const std::vector<ReplaySession::NumberedWithdrawal> withdrawals = session.take_withdrawals();
  const std::string rules = session.tracker() ? session.tracker()->rules().name : "";
  std::size_t next = 0;
  const auto withdrawals_due = [&] {
    for (; next < withdrawals.size() && withdrawals[next].seq == numbering.seq() + 1; ++next)
      each(to_proto(withdrawals[next].withdrawal, numbering.next(session.board_id(), rules)),
           nullptr);
  };
  for (const engine::GameEvent& e : events) {
    withdrawals_due();
    each(to_proto(e, numbering.next(e, session.board_id(), rules)), &e);
  }
  withdrawals_due();
  events.clear();
}

}  // namespace eboard::daemon
