// eboard-ctl round FILE (docs/interfaces.md §6.2): the round, already read and checked, is put
// on the daemon's boards (round_sheet.h plan_round), each board's game checked, then one
// NewGame command per board with the game's tags.
#include <algorithm>

#include "daemon/programs/eboard_ctl/ctl_print.h"
#include "daemon/programs/eboard_ctl/ctl_run.h"

namespace eboard::daemon::ctl {
namespace {

namespace v1 = eboard::v1;

std::string ranges(const std::vector<int>& boards) {
  std::string text;
  for (std::size_t i = 0; i < boards.size();) {
    std::size_t j = i;
    while (j + 1 < boards.size() && boards[j + 1] == boards[j] + 1) ++j;
    text += (text.empty() ? "" : ", ") + std::to_string(boards[i]) +
            (j > i ? "-" + std::to_string(boards[j]) : "");
    i = j + 1;
  }
  return text;
}

std::string tag_of(const round::Tags& tags, const std::string& name) {
  for (const auto& [n, v] : tags) {
    if (n == name) return v;
  }
  return "";
}

// Boards whose game has moves and no result: loading a round there would lose it.
std::vector<std::string> games_in_progress(const v1::StatusReply& reply) {
  std::vector<std::string> busy;
  for (const auto& b : reply.boards()) {
    const v1::Snapshot& s = b.snapshot();
    if (s.game_state() == v1::GAME_STATE_IN_PROGRESS && s.moves_size() > 0) {
      busy.push_back(s.board_id() + " (move " + std::to_string(s.moves_size() / 2 + 1) + ")");
    }
  }
  return busy;
}

v1::Command new_game(const CtlRequest& request, const round::BoardGame& game) {
  v1::Command c;
  c.set_board_id(game.board_id);
  v1::NewGame* g = c.mutable_new_game();
  g->set_rules(request.round.rules);
  g->set_time_control(request.round.clock);
  for (const auto& [name, value] : game.tags) {
    v1::Tag* tag = g->add_tags();
    tag->set_name(name);
    tag->set_value(value);
  }
  return c;
}

}  // namespace

int run_round(const CtlRequest& request, const round::RoundSheet& sheet, Session& session,
              std::ostream& out, std::ostream& err) {
  const auto& ids = session.connection().hello().board_ids();
  auto plan = round::plan_round(sheet, std::vector<std::string>(ids.begin(), ids.end()));
  if (!plan) {
    err << "eboard-ctl: " << plan.error() << "\n";
    return kExitBadArguments;
  }
  if (plan->games.empty()) {
    err << "eboard-ctl: round " << sheet.round << " of " << sheet.path
        << " has no game for the boards of this daemon\n";
    return kExitBadArguments;
  }
  std::vector<std::string> boards;
  for (const auto& g : plan->games) boards.push_back(g.board_id);
  bool unreachable = false;
  auto status = session.status(boards, unreachable);
  if (!status) {
    err << "eboard-ctl: " << status.error() << "\n";
    return unreachable ? kExitUnreachable : kExitRefused;
  }
  if (const auto busy = games_in_progress(status.value()); !busy.empty() && !request.round.force) {
    std::string list;
    for (const auto& b : busy) list += (list.empty() ? "" : ", ") + b;
    err << "eboard-ctl: round: a game is in progress on " << list
        << "; set its result first (eboard-ctl result BOARD RESULT) or use --force\n";
    return kExitRefused;
  }
  int exit = kExitOk;
  for (const round::BoardGame& game : plan->games) {
    const v1::Command command = new_game(request, game);
    auto ack = session.command(command);
    if (!ack) {
      err << "eboard-ctl: " << ack.error() << "\n";
      return kExitUnreachable;
    }
    if (request.global.format == Format::kJson) {
      print_ack(command, ack.value(), Format::kJson, out, err);
    } else if (ack->ok()) {
      out << game.board_id << ": round " << sheet.round << " board " << game.board << ": "
          << tag_of(game.tags, "White") << " - " << tag_of(game.tags, "Black")
          << (ack->seq() ? " (seq " + std::to_string(ack->seq()) + ")" : "") << "\n";
    } else {
      print_ack(command, ack.value(), Format::kText, out, err);
    }
    if (!ack->ok()) exit = kExitRefused;
  }
  if (!plan->forfeits.empty()) {
    err << "eboard-ctl: round " << sheet.round << ": board(s) " << ranges(plan->forfeits)
        << " already scored as forfeits in " << sheet.path << "; no game started\n";
  }
  if (!plan->without_board.empty()) {
    err << "eboard-ctl: round " << sheet.round << ": board(s) " << ranges(plan->without_board)
        << " have no board on this daemon (it has " << ids.size() << "); not started\n";
  }
  return exit;
}

}  // namespace eboard::daemon::ctl
