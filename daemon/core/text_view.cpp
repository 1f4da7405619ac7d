#include "daemon/core/text_view.h"

#include <cstdio>
#include <sstream>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

std::string clock_text(std::int64_t ms) {
  if (ms < 0) ms = 0;
  char text[32];
  const long long tenths = ms / 100;
  const long long seconds = tenths / 10;
  if (seconds >= 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60,
                  seconds % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld.%lld", seconds / 60, seconds % 60, tenths % 10);
  }
  return text;
}

const char* unicode_piece(char c) {
  switch (c) {
    case 'K': return "\u2654";
    case 'Q': return "\u2655";
    case 'R': return "\u2656";
    case 'B': return "\u2657";
    case 'N': return "\u2658";
    case 'P': return "\u2659";
    case 'k': return "\u265A";
    case 'q': return "\u265B";
    case 'r': return "\u265C";
    case 'b': return "\u265D";
    case 'n': return "\u265E";
    case 'p': return "\u265F";
    default: return "\u00B7";
  }
}

std::string move_number(std::uint32_t ply, v1::Side side) {
  const std::uint32_t number = (ply + 1) / 2;
  return std::to_string(number) + (side == v1::SIDE_BLACK ? "..." : ".");
}

std::string side_name(v1::Side side) {
  return side == v1::SIDE_WHITE ? "white" : side == v1::SIDE_BLACK ? "black" : "none";
}

// How a game ended, in words an arbiter reads at a glance (the enum names are for
// programs): "1-0: White wins by resignation (...); proposed, ...".
std::string game_end_text(const v1::GameEnded& g) {
  const std::string& r = g.result();
  std::string text = r + ": ";
  text += r == "1-0"       ? "White wins"
          : r == "0-1"     ? "Black wins"
          : r == "1/2-1/2" ? "draw"
                           : "no result";
  switch (g.termination()) {
    case v1::TERMINATION_CHECKMATE: text += " by checkmate"; break;
    case v1::TERMINATION_STALEMATE: text += " by stalemate"; break;
    case v1::TERMINATION_TIME_FORFEIT: text += " on time"; break;
    case v1::TERMINATION_TIMEOUT_VS_INSUFFICIENT: text += ": flag fell, no mating material"; break;
    case v1::TERMINATION_BOTH_FLAGS: text += ": both flags fell"; break;
    case v1::TERMINATION_ILLEGAL_MOVE: text += " by a second illegal move"; break;
    case v1::TERMINATION_FIVEFOLD_REPETITION: text += " by fivefold repetition"; break;
    case v1::TERMINATION_SEVENTY_FIVE_MOVES: text += " by the 75-move rule"; break;
    case v1::TERMINATION_DEAD_POSITION: text += ": dead position"; break;
    case v1::TERMINATION_AGREEMENT: text += " by agreement"; break;
    case v1::TERMINATION_RESIGNATION: text += " by resignation"; break;
    case v1::TERMINATION_ARBITER: text += " by the arbiter's decision"; break;
    case v1::TERMINATION_THREEFOLD_CLAIM: text += " on a threefold repetition claim"; break;
    case v1::TERMINATION_FIFTY_MOVE_CLAIM: text += " on a fifty-move claim"; break;
    case v1::TERMINATION_ILLEGAL_MOVE_CLAIM: text += " on an illegal-move claim"; break;
    case v1::TERMINATION_ILLEGAL_POSITION: text += ": illegal position"; break;
    case v1::TERMINATION_PENALTY_LADDER: text += " by the penalty ladder"; break;
    default: break;
  }
  if (!g.description().empty()) text += " (" + g.description() + ")";
  if (g.proposed()) text += "; proposed: the game ends when the arbiter confirms it";
  return text;
}

// A command's record (commandApplied): "add_time by unix:uid=1000,pid=42: ok".
std::string command_text(const v1::CommandApplied& c) {
  const auto* action = v1::Command::descriptor()->FindFieldByNumber(c.command().action_case());
  std::string text = std::string(action ? action->name() : "no action") + " by " +
                     (c.client().empty() ? "?" : c.client()) + ": ";
  return text + (c.outcome().ok() ? "ok" : "refused: " + c.outcome().error());
}

// "GM Carlsen, Magnus 2830": the name with the round file's title and rating tags.
std::string player_text(const v1::Snapshot& s, const std::string& colour) {
  std::string name = colour;
  std::string title;
  std::string elo;
  for (const auto& tag : s.tags()) {
    if (tag.name() == colour) name = tag.value();
    if (tag.name() == colour + "Title") title = tag.value() + " ";
    if (tag.name() == colour + "Elo") elo = " " + tag.value();
  }
  return title + name + elo;
}

std::string kind_name(const v1::Event& event) {
  const auto* field = v1::Event::descriptor()->FindFieldByNumber(event.kind_case());
  return field ? field->camelcase_name() : "unknown";
}

}  // namespace

std::string event_line(const v1::Event& e) {
  std::ostringstream line;
  line << e.board_id() << " #" << e.seq() << " " << clock_text(e.at_ms()) << " " << kind_name(e);
  switch (e.kind_case()) {
    case v1::Event::kGameStarted:
      line << " " << e.game_started().rules() << " " << e.game_started().time_control() << " "
           << e.game_started().fen();
      break;
    case v1::Event::kMoveTentative: line << " " << e.move_tentative().san(); break;
    case v1::Event::kMoveWithdrawn: line << " " << e.move_withdrawn().uci(); break;
    case v1::Event::kMoveCompleted: {
      const auto& m = e.move_completed();
      line << " " << move_number(m.ply(), m.side()) << m.san() << "  white "
           << clock_text(m.white_ms()) << "  black " << clock_text(m.black_ms())
           << (m.recovered() ? "  (recovered)" : "");
      break;
    }
    case v1::Event::kIllegalMovePending:
      line << " " << e.illegal_move_pending().description();
      break;
    case v1::Event::kIllegalMoveCompleted:
      line << " " << side_name(e.illegal_move_completed().side()) << ": "
           << e.illegal_move_completed().description() << " (count "
           << e.illegal_move_completed().count() << ")";
      break;
    case v1::Event::kClock:
      line << " white " << clock_text(e.clock().white_ms()) << "  black "
           << clock_text(e.clock().black_ms()) << "  running " << side_name(e.clock().running());
      break;
    case v1::Event::kFlagFell: line << " " << side_name(e.flag_fell().side()); break;
    case v1::Event::kRestoreRequested: line << " " << e.restore_requested().fen(); break;
    case v1::Event::kGameEnded: line << " " << game_end_text(e.game_ended()); break;
    case v1::Event::kCommandApplied: line << " " << command_text(e.command_applied()); break;
    case v1::Event::kClockMismatch: {
      // Times as clock times, counts and the running side as numbers (clock_events.h).
      const auto& m = e.clock_mismatch();
      const bool times =
          m.field() == v1::CLOCK_FIELD_WHITE_MS || m.field() == v1::CLOCK_FIELD_BLACK_MS;
      line << " " << v1::ClockField_Name(m.field()) << ": clock "
           << (times ? clock_text(m.clock_value()) : std::to_string(m.clock_value())) << ", model "
           << (times ? clock_text(m.model_value()) : std::to_string(m.model_value()));
      break;
    }
    case v1::Event::kSeqsLost:
      // The gap a power cut, a full disk or a damaged journal left (seq_reservation.h).
      line << " seqs " << e.seqs_lost().first_seq() << ".." << e.seqs_lost().last_seq()
           << " may have been published and are lost (" << e.seqs_lost().reason() << ")";
      break;
    case v1::Event::kStorageStatus: {
      // The journal's disk (journal.h "A full disk").
      const auto& st = e.storage_status();
      line << " journal " << st.path() << ": "
           << (st.state() == v1::STORAGE_STATE_FAILING
                   ? "cannot write (" + st.detail() + "), " + std::to_string(st.waiting_records()) +
                         " record(s) waiting from seq " + std::to_string(st.first_waiting_seq())
                   : "written again, " + std::to_string(st.waiting_records()) +
                         " record(s) late from seq " + std::to_string(st.first_waiting_seq()));
      break;
    }
    case v1::Event::kDeviceStatus:
      line << " " << v1::DeviceState_Name(e.device_status().state()) << " "
           << e.device_status().detail();
      break;
    default: break;
  }
  if (e.visibility() == v1::VISIBILITY_ARBITER) line << "  [arbiter]";
  return line.str();
}

std::string board_panel(const v1::Snapshot& s) {
  std::ostringstream out;
  out << "== " << s.board_id() << "  " << player_text(s, "White") << " - "
      << player_text(s, "Black");
  for (const auto& tag : s.tags()) {
    if (tag.name() == "Round") out << "  round " << tag.value();
  }
  if (!s.result().empty()) out << "  " << s.result() << (s.result_proposed() ? " (proposed)" : "");
  out << "\n";
  // The placement field, rank 8 first.
  std::vector<std::string> ranks(8);
  int rank = 0;
  const std::string placement = s.placement().empty() ? "8/8/8/8/8/8/8/8" : s.placement();
  for (const char c : placement) {
    if (c == '/') {
      if (++rank >= 8) break;
    } else if (c >= '1' && c <= '8') {
      ranks[rank].append(static_cast<std::size_t>(c - '0'), '.');
    } else {
      ranks[rank].push_back(c);
    }
  }
  const bool black_runs = s.running() == v1::SIDE_BLACK;
  const bool white_runs = s.running() == v1::SIDE_WHITE;
  for (int r = 0; r < 8; ++r) {
    out << "  " << 8 - r << " ";
    for (const char c : ranks[r]) out << unicode_piece(c) << ' ';
    if (r == 0) out << "   " << (black_runs ? "> " : "  ") << "black " << clock_text(s.black_ms());
    if (r == 7) out << "   " << (white_runs ? "> " : "  ") << "white " << clock_text(s.white_ms());
    out << "\n";
  }
  out << "    a b c d e f g h\n  ";
  const int first = std::max(0, s.moves_size() - 8);
  for (int i = first; i < s.moves_size(); ++i) {
    const auto& m = s.moves(i);
    if (m.ply() % 2 == 1 || i == first) {
      out << (m.ply() + 1) / 2 << (m.ply() % 2 == 1 ? "." : "...");
    }
    out << m.san() << " ";
  }
  out << "\n  board " << v1::DeviceState_Name(s.board_state()) << "\n";
  return out.str();
}

void TextView::snapshot(const v1::Snapshot& snapshot) {
  boards_.insert_or_assign(snapshot.board_id(), BoardState(snapshot));
  if (mode_ == Mode::kScreen) redraw();
}

void TextView::event(const v1::Event& event) {
  auto it = boards_.find(event.board_id());
  if (it == boards_.end())
    it = boards_.emplace(event.board_id(), BoardState(event.board_id())).first;
  it->second.apply(event);
  const std::string line = event_line(event);
  if (mode_ == Mode::kScreen) {
    recent_.push_back(line);
    while (recent_.size() > 12) recent_.pop_front();
    redraw();
    return;
  }
  out_ << line << "\n";
  if (event.has_move_completed() || event.has_game_started() || event.has_game_ended() ||
      event.has_position_changed()) {
    out_ << board_panel(it->second.snapshot());
  }
  out_.flush();
}

void TextView::redraw() {
  out_ << "\x1b[H\x1b[2J";
  for (const auto& [id, state] : boards_) out_ << board_panel(state.snapshot()) << "\n";
  for (const auto& line : recent_) out_ << line << "\n";
  out_.flush();
}

}  // namespace eboard::daemon
