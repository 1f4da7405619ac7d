// What eboard-ctl prints (docs/interfaces.md §6.1): in text, one readable block per board for
// `status`, one line per open proposal for `proposals` (`BOARD SEQ KIND SIDE
// DESCRIPTION`), one line per answered command; with --format json the same data as JSON
// lines of the Protobuf JSON mapping (a StatusReply, one Proposal a line, one Ack a line).
#pragma once

#include <ostream>
#include <string>

#include "daemon/programs/eboard_ctl/ctl_args.h"
#include "eboard/v1/frame.pb.h"

namespace eboard::daemon::ctl {

void print_status(const eboard::v1::StatusReply& reply, Format format, std::ostream& out);
void print_proposals(const eboard::v1::StatusReply& reply, Format format, std::ostream& out);
// A command's answer: `BOARD: ok (seq N)` / the Ack as JSON. Refusals also go to `err`.
void print_ack(const eboard::v1::Command& command, const eboard::v1::Ack& ack, Format format,
               std::ostream& out, std::ostream& err);

// The words of the text view: "white", "black", "-"; "penalty", "result", "claim".
std::string side_word(eboard::v1::Side side);
std::string proposal_line(const eboard::v1::Proposal& p);

}  // namespace eboard::daemon::ctl
