#include "daemon/core/command_journal.h"

namespace eboard::daemon {

namespace v1 = eboard::v1;

v1::Event command_applied(const v1::Command& command, const std::string& client, const v1::Ack& ack,
                          std::uint32_t last_seq, const v1::Snapshot& state, std::int32_t at_ms,
                          const std::vector<std::uint32_t>& ruled) {
  v1::Event event;
  event.set_at_ms(at_ms);
  // The audit trail is the arbiter's: who ran which command is nobody else's business.
  event.set_visibility(v1::VISIBILITY_ARBITER);
  event.set_game_id(state.game_id());
  event.set_rules(state.rules());
  v1::CommandApplied* applied = event.mutable_command_applied();
  *applied->mutable_command() = command;
  applied->mutable_command()->clear_token();  // a token never reaches the journal
  applied->set_client(client);
  *applied->mutable_outcome() = ack;
  applied->set_last_seq(ack.seq() != 0 ? last_seq : 0);
  if (ack.ok() && command.has_ruling()) {
    for (const std::uint32_t seq : ruled) applied->add_ruled_seqs(seq);
  }
  return event;
}

}  // namespace eboard::daemon
