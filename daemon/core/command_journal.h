// A command's record in the board's journal (CommandApplied, command.proto): what was
// asked, by whom, what the answer was and which events it caused. The daemon publishes it
// right after the command's own events, so it is journalled, folded and streamed like any
// event; recovery plays the applied ones again and the arbiter's console lists them as
// the audit trail.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eboard/v1/event.pb.h"
#include "eboard/v1/frame.pb.h"

namespace eboard::daemon {

// `last_seq`: the board's last seq after the command ran (its effects are ack.seq()
// to last_seq when ack.seq() is not 0); `state`: the board's state then, for the
// envelope; `at_ms`: the command's time on the board's time line; `ruled`: the seqs of
// the proposals an accepted ruling settled (BoardSession::ruled_seqs()), which the journal
// keeps so that a restart does not open them again.
eboard::v1::Event command_applied(const eboard::v1::Command& command, const std::string& client,
                                  const eboard::v1::Ack& ack, std::uint32_t last_seq,
                                  const eboard::v1::Snapshot& state, std::int32_t at_ms,
                                  const std::vector<std::uint32_t>& ruled = {});

}  // namespace eboard::daemon
