#include "daemon/sinks/live_pgn.h"

#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

// Placement and side to move: what must agree for a move list to continue (counters
// and castling rights may legitimately be reported differently after a set-up).
std::string position_part(const std::string& fen) {
  const auto first = fen.find(' ');
  if (first == std::string::npos) return fen;
  return fen.substr(0, fen.find(' ', first + 1));
}

const char* side_name(v1::Side side) { return side == v1::SIDE_BLACK ? "Black" : "White"; }

}  // namespace

LivePgn::LivePgn(std::string board_id) : board_id_(std::move(board_id)) {}

bool LivePgn::apply(const v1::Event& event) {
  if (event.visibility() != v1::VISIBILITY_PUBLIC) return false;
  switch (event.kind_case()) {
    case v1::Event::kGameStarted:
      start(event.game_started());
      break;
    case v1::Event::kMoveCompleted:
      if (records_.empty() || !move(event.move_completed())) return false;
      break;
    case v1::Event::kIllegalMoveCompleted: {
      const auto& illegal = event.illegal_move_completed();
      last_illegal_ = std::string(side_name(illegal.side())) + "'s illegal move" +
                      (illegal.uci().empty() ? "" : " " + illegal.uci());
      return false;
    }
    case v1::Event::kIllegalMoveStood: {
      if (records_.empty()) return false;
      const auto& stood = event.illegal_move_stood();
      const std::string what = last_illegal_.empty()
                                   ? std::string(side_name(stood.side())) + "'s illegal move"
                                   : last_illegal_;
      if (!jump(stood.fen(), what + " stood (rules.md D5); the game continues from the "
                                    "position after it")) {
        return false;
      }
      break;
    }
    case v1::Event::kPositionChanged: {
      if (records_.empty()) return false;
      const auto& changed = event.position_changed();
      if (!jump(changed.fen(), changed.description().empty() ? "The arbiter set up a new position"
                                                               : changed.description())) {
        return false;
      }
      break;
    }
    case v1::Event::kGameEnded:
      if (records_.empty() || event.game_ended().proposed()) return false;
      result_ = event.game_ended().result();
      break;
    default:
      return false;
  }
  render();
  return true;
}

void LivePgn::start(const v1::GameStarted& started) {
  tags_.clear();
  for (const auto& tag : started.tags()) tags_.emplace_back(tag.name(), tag.value());
  bool has_time_control = false;
  for (const auto& [name, value] : tags_) has_time_control |= name == "TimeControl";
  if (!has_time_control && !started.time_control().empty()) {
    tags_.emplace_back("TimeControl", started.time_control());
  }
  records_.clear();
  result_ = "*";
  last_illegal_.clear();
  if (!open_record(started.fen())) open_record(std::string(engine::kStartFen));
}

bool LivePgn::open_record(const std::string& fen) {
  auto position = engine::parse_fen(fen, engine::FenMode::kAllowIrregular);
  if (!position) return false;
  Record record;
  record.game.tags = tags_;
  record.game.start = position.value();
  record.position = position.value();
  records_.push_back(std::move(record));
  return true;
}

bool LivePgn::move(const v1::MoveCompleted& completed) {
  Record* record = &records_.back();
  auto parsed = engine::parse_uci(record->position, completed.uci());
  if (!parsed) {
    // Something we were not shown changed the position: go on from after this move.
    return jump(completed.fen(), "The game continues from a changed position");
  }
  record->position.make(parsed.value());
  record->game.moves.push_back(parsed.value());
  record->game.comments.emplace_back();
  const int mover_ms = completed.side() == v1::SIDE_BLACK ? completed.black_ms() : completed.white_ms();
  record->clocks.emplace_back(std::chrono::milliseconds(mover_ms));
  if (position_part(engine::to_fen(record->position)) != position_part(completed.fen())) {
    return jump(completed.fen(), "The game continues from a changed position");
  }
  return true;
}

bool LivePgn::jump(const std::string& fen, const std::string& comment) {
  if (position_part(engine::to_fen(records_.back().position)) == position_part(fen)) return false;
  auto position = engine::parse_fen(fen, engine::FenMode::kAllowIrregular);
  if (!position) return false;
  close_current(comment);
  return open_record(fen);
}

void LivePgn::close_current(const std::string& comment) {
  Record& record = records_.back();
  if (record.game.comments.empty()) {
    record.game.leading_comment = comment;
  } else {
    std::string& last = record.game.comments.back();
    last = last.empty() ? comment : last + " " + comment;
  }
  last_illegal_.clear();
}

void LivePgn::render() {
  text_.clear();
  for (std::size_t i = 0; i < records_.size(); ++i) {
    Record& record = records_[i];
    // Only the last record carries the result: earlier ones stopped at a position change.
    record.game.result = i + 1 == records_.size() ? result_ : "*";
    for (auto& [name, value] : record.game.tags) {
      if (name == "Result") value = record.game.result;
    }
    auto written = engine::write_pgn(record.game, record.clocks);
    if (written) text_ += written.value();
  }
}

}  // namespace eboard::daemon
