#include "daemon/programs/eboard_relay/event_games.h"

#include <algorithm>
#include <climits>
#include <tuple>

#include "daemon/sinks/broadcast_boards.h"
#include "engine/game/pgn.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

int leading_number(const std::string& text) {
  int n = 0;
  std::size_t i = 0;
  for (; i < text.size() && i < 6 && text[i] >= '0' && text[i] <= '9'; ++i)
    n = n * 10 + (text[i] - '0');
  return i == 0 ? 0 : n;
}

}  // namespace

EventGames::Board::Board(const BoardKey& key)
    : pgn(key.board, BroadcastDefaults{key.node + "-" + key.board, 0, ""}), state(key.board) {}

EventGames::EventGames(std::string round) : round_(std::move(round)) {}

bool EventGames::apply(const BoardKey& key, const v1::Event& event) {
  auto it = boards_.try_emplace(key, key).first;
  Board& board = it->second;
  board.state.apply(event);
  const bool changed = board.pgn.apply(event);
  if (changed || event.has_game_started()) ++version_;
  return changed;
}

void EventGames::state(const BoardKey& key, const v1::Snapshot& snapshot) {
  auto [it, fresh] = boards_.try_emplace(key, key);
  // Only a board's first sight: afterwards its events keep the state.
  if (!fresh) return;
  it->second.state = BoardState(snapshot);
  seed(it->second.pgn, snapshot);
  ++version_;
}

// The game so far from a board's snapshot, as the events that made it: gameStarted, each
// completed move with the mover's clock, the clocks now, the result. (What the snapshot
// does not keep - a record split at an illegal move that stood - is not rebuilt.)
void EventGames::seed(LivePgn& pgn, const v1::Snapshot& s) {
  if (s.game_state() == v1::GAME_STATE_NOT_STARTED || s.start_fen().empty()) return;
  v1::Event e;
  e.set_visibility(v1::VISIBILITY_PUBLIC);
  e.set_game_id(s.game_id());
  auto* g = e.mutable_game_started();
  g->set_fen(s.start_fen());
  g->set_rules(s.rules());
  g->set_time_control(s.time_control());
  *g->mutable_tags() = s.tags();
  pgn.apply(e);
  for (const auto& m : s.moves()) {
    v1::Event move;
    move.set_visibility(v1::VISIBILITY_PUBLIC);
    auto* c = move.mutable_move_completed();
    c->set_ply(m.ply());
    c->set_uci(m.uci());
    c->set_san(m.san());
    const bool black = m.ply() % 2 == 0;
    c->set_side(black ? v1::SIDE_BLACK : v1::SIDE_WHITE);
    if (black) {
      c->set_black_ms(m.clock_ms());
    } else {
      c->set_white_ms(m.clock_ms());
    }
    pgn.apply(move);
  }
  v1::Event clock;
  clock.set_visibility(v1::VISIBILITY_PUBLIC);
  clock.mutable_clock()->set_white_ms(s.white_ms());
  clock.mutable_clock()->set_black_ms(s.black_ms());
  pgn.apply(clock);
  if (!s.result().empty() && !s.result_proposed()) {
    v1::Event end;
    end.set_visibility(v1::VISIBILITY_PUBLIC);
    end.mutable_game_ended()->set_result(s.result());
    pgn.apply(end);
  }
}

void EventGames::status(const std::string& node, const std::string& status) {
  nodes_[node] = status;
}

int EventGames::board_number(const Board& board) const {
  if (int n = leading_number(board.pgn.tag("Board")); n > 0) return n;
  const std::string round = board.pgn.tag("Round");
  const auto dot = round.find('.');
  if (dot != std::string::npos) {
    if (int n = leading_number(round.substr(dot + 1)); n > 0) return n;
  }
  return INT_MAX;
}

bool EventGames::listed(const Board& board) const {
  if (round_.empty() || !board.pgn.started()) return true;
  const std::string round = board.pgn.tag("Round");
  return round == round_ || round.starts_with(round_ + ".");
}

// A board whose game has not started: its tags so far and no moves (live_pgn.h's names).
std::string EventGames::placeholder(const BoardKey& key, const Board& board) const {
  engine::PgnGame game;
  bool white = false;
  bool black = false;
  for (const auto& t : board.state.snapshot().tags()) {
    game.tags.emplace_back(t.name(), t.value());
    white |= t.name() == "White" && !t.value().empty() && t.value() != "?";
    black |= t.name() == "Black" && !t.value().empty() && t.value() != "?";
  }
  if (!white) game.tags.emplace_back("White", "White (" + key.board + ")");
  if (!black) game.tags.emplace_back("Black", "Black (" + key.board + ")");
  if (!round_.empty()) game.tags.emplace_back("Round", round_);
  auto text = engine::write_pgn(game);
  return text.ok() ? text.value() : "";
}

std::vector<EventGames::Game> EventGames::games() const {
  std::vector<std::tuple<int, BoardKey, const Board*>> order;
  for (const auto& [key, board] : boards_) {
    if (listed(board)) order.emplace_back(board_number(board), key, &board);
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  std::vector<Game> out;
  for (const auto& [number, key, board] : order) {
    out.push_back(Game{key, &board->pgn, &board->state,
                       board->pgn.started() ? board->pgn.text() : placeholder(key, *board)});
  }
  return out;
}

const std::string& EventGames::round_pgn() const {
  if (built_ != version_) {
    text_.clear();
    for (const Game& game : games()) text_ += game.text;
    etag_ = entity_tag(text_);
    built_ = version_;
  }
  return text_;
}

const std::string& EventGames::round_etag() const {
  round_pgn();
  return etag_;
}

const LivePgn* EventGames::board(const BoardKey& key) const {
  const auto it = boards_.find(key);
  return it == boards_.end() ? nullptr : &it->second.pgn;
}

}  // namespace eboard::daemon
