#include "daemon/sinks/live_pgn.h"

#include <cstdio>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

engine::Color color_of(v1::Side side) {
  return side == v1::SIDE_BLACK ? engine::kBlack : engine::kWhite;
}

const std::string* find(const std::vector<engine::PgnTag>& tags, const std::string& name) {
  for (const auto& [n, v] : tags) {
    if (n == name) return &v;
  }
  return nullptr;
}

bool known(const std::string* value) {
  return value != nullptr && !value->empty() && *value != "?";
}

void put(std::vector<engine::PgnTag>& tags, const std::string& name, const std::string& value) {
  for (auto& [n, v] : tags) {
    if (n == name) {
      v = value;
      return;
    }
  }
  tags.emplace_back(name, value);
}

// A clock update changes only the WhiteClock/BlackClock tag lines, and a clock event
// comes every second a clock runs: with one record those two lines are rewritten in
// `text`, which is what writing the whole game again (every move replayed for its SAN)
// gives. Tag lines are unambiguous in the header: a tag value never holds a line break.
// True when the text changed.
bool retag_clocks(std::string& text, const engine::PgnRecorder& recorder, const std::string& white,
                  const std::string& black) {
  const std::size_t header_end = text.find("\n\n");
  bool changed = false;
  for (const auto& [name, value] :
       {std::pair{"WhiteClock", &white}, std::pair{"BlackClock", &black}}) {
    const std::string start = std::string("[") + name + " \"";
    std::size_t at = text.starts_with(start) ? 0 : text.find("\n" + start);
    if (recorder.records() != 1 || header_end == std::string::npos || at == std::string::npos ||
        at > header_end) {
      std::string whole = recorder.text();  // several records: each has its header
      if (whole == text) return changed;
      text = std::move(whole);
      return true;
    }
    if (at != 0) ++at;
    const std::size_t end = text.find('\n', at);
    const std::string line = start + *value + "\"]";
    if (text.compare(at, end - at, line) == 0) continue;
    text.replace(at, end - at, line);
    changed = true;
  }
  return changed;
}

}  // namespace

std::string clock_tag_value(int ms) {
  const int s = ms < 0 ? 0 : ms / 1000;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  return buffer;
}

LivePgn::LivePgn(std::string board_id, BroadcastDefaults defaults)
    : board_id_(std::move(board_id)), defaults_(std::move(defaults)) {
  if (defaults_.game_id_prefix.empty()) defaults_.game_id_prefix = board_id_;
}

std::string LivePgn::tag(const std::string& name) const {
  const std::string* value = find(tags_, name);
  return value ? *value : "";
}

// The game's tags completed with what a broadcast needs (live_pgn.h).
void LivePgn::start(const v1::Event& event) {
  const auto& started = event.game_started();
  tags_.clear();
  for (const auto& t : started.tags()) tags_.emplace_back(t.name(), t.value());
  paired_ = known(find(tags_, "White")) && known(find(tags_, "Black"));
  if (!known(find(tags_, "White"))) put(tags_, "White", "White (" + board_id_ + ")");
  if (!known(find(tags_, "Black"))) put(tags_, "Black", "Black (" + board_id_ + ")");
  std::string round = known(find(tags_, "Round")) ? *find(tags_, "Round") : defaults_.round;
  std::string board = known(find(tags_, "Board")) ? *find(tags_, "Board") : "";
  const auto dot = round.find('.');
  if (board.empty() && dot != std::string::npos) board = round.substr(dot + 1);
  if (board.empty() && defaults_.board_number > 0) board = std::to_string(defaults_.board_number);
  if (!round.empty() && dot == std::string::npos && !board.empty()) round += "." + board;
  if (!round.empty()) put(tags_, "Round", round);
  if (!board.empty()) put(tags_, "Board", board);
  game_id_ = known(find(tags_, "GameId"))
                 ? *find(tags_, "GameId")
                 : defaults_.game_id_prefix + "-" + std::to_string(event.game_id());
  put(tags_, "GameId", game_id_);
  put(tags_, "WhiteClock", clock_tag_value(started.white_ms()));
  put(tags_, "BlackClock", clock_tag_value(started.black_ms()));
  recorder_.start(tags_, started.time_control(), started.fen());
  ended_ = false;
  moves_ = 0;
  result_ = "*";
}

void LivePgn::set_clocks(int white_ms, int black_ms) {
  if (ended_) return;  // the clocks stop at the result
  put(tags_, "WhiteClock", clock_tag_value(white_ms));
  put(tags_, "BlackClock", clock_tag_value(black_ms));
  recorder_.set_tag("WhiteClock", clock_tag_value(white_ms));
  recorder_.set_tag("BlackClock", clock_tag_value(black_ms));
}

// Each record after the first is a record of its own for lila: its own GameId.
void LivePgn::name_records() {
  const std::size_t records = recorder_.records();
  recorder_.set_tag("GameId", game_id_);
  for (std::size_t i = 1; i < records; ++i)
    recorder_.set_record_tag(i, "GameId", game_id_ + "-" + std::to_string(i + 1));
}

bool LivePgn::apply(const v1::Event& event) {
  if (event.visibility() != v1::VISIBILITY_PUBLIC) return false;
  switch (event.kind_case()) {
    case v1::Event::kGameStarted: start(event); break;
    case v1::Event::kMoveCompleted: {
      const auto& completed = event.move_completed();
      const int mover_ms =
          completed.side() == v1::SIDE_BLACK ? completed.black_ms() : completed.white_ms();
      if (ended_ ||
          !recorder_.move(completed.uci(), completed.fen(), std::chrono::milliseconds(mover_ms)))
        return false;
      ++moves_;
      set_clocks(completed.white_ms(), completed.black_ms());
      break;
    }
    case v1::Event::kClock:
      if (!recorder_.started() || ended_) return false;
      set_clocks(event.clock().white_ms(), event.clock().black_ms());
      return retag_clocks(text_, recorder_, tag("WhiteClock"), tag("BlackClock"));
    case v1::Event::kIllegalMoveCompleted:
      recorder_.illegal_completed(color_of(event.illegal_move_completed().side()),
                                  event.illegal_move_completed().uci());
      return false;
    case v1::Event::kIllegalMoveStood:
      if (!recorder_.illegal_stood(color_of(event.illegal_move_stood().side()),
                                   event.illegal_move_stood().fen()))
        return false;
      break;
    case v1::Event::kPositionChanged:
      if (!recorder_.position_changed(event.position_changed().fen(),
                                      event.position_changed().description()))
        return false;
      break;
    case v1::Event::kGameEnded:
      if (event.game_ended().proposed() || !recorder_.result(event.game_ended().result()))
        return false;
      result_ = event.game_ended().result();
      ended_ = result_ != "*";
      break;
    default: return false;
  }
  name_records();
  text_ = recorder_.text();
  return true;
}

}  // namespace eboard::daemon
