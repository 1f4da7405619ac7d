#include "daemon/programs/eboard_ctl/ctl_print.h"

#include <cstdio>

#include "eboard/v1/json.h"

namespace eboard::daemon::ctl {
namespace {

namespace v1 = eboard::v1;

// An enum value's name without its prefix, in lower case: DEVICE_STATE_CONNECTED ->
// "connected".
template <class Name>
std::string word(const std::string& full, const Name& prefix) {
  std::string w = full.substr(std::string(prefix).size());
  for (char& c : w)
    c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w;
}

std::string clock_text(int ms) {
  const bool negative = ms < 0;
  const int s = (negative ? -ms : ms) / 1000;
  char text[32];
  std::snprintf(text, sizeof text, "%s%d:%02d:%02d", negative ? "-" : "", s / 3600, s / 60 % 60,
                s % 60);
  return text;
}

std::string tag(const v1::Snapshot& s, const std::string& name) {
  for (const auto& t : s.tags()) {
    if (t.name() == name) return t.value();
  }
  return "";
}

// "GM Carlsen, Magnus 2830"
std::string player(const v1::Snapshot& s, const std::string& colour) {
  std::string text = tag(s, colour);
  if (text.empty()) text = "?";
  const std::string title = tag(s, colour + "Title");
  const std::string elo = tag(s, colour + "Elo");
  if (!title.empty()) text = title + " " + text;
  if (!elo.empty()) text += " " + elo;
  return text;
}

std::string game_line(const v1::Snapshot& s) {
  if (s.game_state() == v1::GAME_STATE_NOT_STARTED) return "no game yet";
  const int plies = s.moves_size();
  const auto space = s.fen().find(' ');
  const bool black = space != std::string::npos && s.fen().compare(space + 1, 1, "b") == 0;
  std::string text = s.game_state() == v1::GAME_STATE_ENDED ? "ended" : "in progress";
  text +=
      ", move " + std::to_string(plies / 2 + 1) + " (" + (black ? "black" : "white") + " to move)";
  if (!s.result().empty()) {
    text += ", result " + s.result() + (s.result_proposed() ? " proposed" : "") + " (" +
            word(v1::Termination_Name(s.termination()), "TERMINATION_") + ")";
  }
  return text;
}

std::string clocks_line(const v1::Snapshot& s) {
  std::string text = "white " + clock_text(s.white_ms()) + ", black " + clock_text(s.black_ms());
  if (s.paused()) return text + ", paused";
  if (s.running() == v1::SIDE_WHITE) return text + ", white's clock runs";
  if (s.running() == v1::SIDE_BLACK) return text + ", black's clock runs";
  return text + ", stopped";
}

std::string kind_word(v1::ProposalKind kind) {
  switch (kind) {
    case v1::PROPOSAL_KIND_RESULT: return "result";
    case v1::PROPOSAL_KIND_PENALTY: return "penalty";
    case v1::PROPOSAL_KIND_CLAIM: return "claim";
    default: return "other";
  }
}

}  // namespace

std::string side_word(v1::Side side) {
  if (side == v1::SIDE_WHITE) return "white";
  if (side == v1::SIDE_BLACK) return "black";
  return "-";
}

std::string proposal_line(const v1::Proposal& p) {
  std::string description = p.description();
  if (p.kind() == v1::PROPOSAL_KIND_RESULT) {
    const std::string why = word(v1::Termination_Name(p.termination()), "TERMINATION_");
    description = p.result() + " (" + why + ")" + (description.empty() ? "" : ": " + description);
  }
  return p.board_id() + " " + std::to_string(p.seq()) + " " + kind_word(p.kind()) + " " +
         side_word(p.side()) + " " + description;
}

void print_status(const v1::StatusReply& reply, Format format, std::ostream& out) {
  if (format == Format::kJson) {
    out << proto::to_json_line(reply) << "\n";
    return;
  }
  for (const v1::BoardStatus& b : reply.boards()) {
    const v1::Snapshot& s = b.snapshot();
    out << s.board_id() << ": " << player(s, "White") << " - " << player(s, "Black");
    if (const std::string r = tag(s, "Round"); !r.empty()) out << "  (round " << r << ")";
    out << "\n  devices: board " << word(v1::DeviceState_Name(s.board_state()), "DEVICE_STATE_")
        << ", clock " << word(v1::DeviceState_Name(s.clock_state()), "DEVICE_STATE_") << "\n"
        << "  game: " << game_line(s) << "\n";
    if (s.game_state() != v1::GAME_STATE_NOT_STARTED) out << "  clocks: " << clocks_line(s) << "\n";
    for (const v1::Proposal& p : b.open_proposals())
      out << "  open proposal: " << proposal_line(p) << "\n";
  }
}

void print_proposals(const v1::StatusReply& reply, Format format, std::ostream& out) {
  for (const v1::BoardStatus& b : reply.boards()) {
    for (const v1::Proposal& p : b.open_proposals()) {
      out << (format == Format::kJson ? proto::to_json_line(p) : proposal_line(p)) << "\n";
    }
  }
}

void print_ack(const v1::Command& command, const v1::Ack& ack, Format format, std::ostream& out,
               std::ostream& err) {
  if (format == Format::kJson) out << proto::to_json_line(ack) << "\n";
  if (!ack.ok()) {
    err << "eboard-ctl: " << command.board_id() << ": refused: " << ack.error() << "\n";
    return;
  }
  if (format == Format::kText) {
    out << command.board_id() << ": ok";
    if (ack.seq() != 0) out << " (seq " << ack.seq() << ")";
    out << "\n";
  }
}

}  // namespace eboard::daemon::ctl
