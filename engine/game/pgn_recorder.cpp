#include "engine/game/pgn_recorder.h"

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "util/overloaded.h"

namespace eboard::engine {
namespace {

// Placement and side to move: what must agree for a move list to continue (counters
// and castling rights may legitimately be reported differently after a set-up).
bool same_placement_and_side(const Position& a, const Position& b) {
  if (a.side_to_move() != b.side_to_move()) return false;
  for (int s = 0; s < kSquareCount; ++s)
    if (a.piece_on(Square(s)) != b.piece_on(Square(s))) return false;
  return true;
}

// The wire's FEN text as a position; nullopt when it is none (the caller then has none).
std::optional<Position> position_from(const std::string& fen) {
  auto position = parse_fen(fen, FenMode::kAllowIrregular);
  if (!position) return std::nullopt;
  return position.value();
}

const Position* or_null(const std::optional<Position>& p) { return p ? &*p : nullptr; }

const char* side_name(Color side) { return side == kBlack ? "Black" : "White"; }

}  // namespace

void PgnRecorder::start(std::vector<PgnTag> tags, const std::string& time_control,
                        const std::string& fen) {
  begin(std::move(tags), time_control, or_null(position_from(fen)));
}

void PgnRecorder::begin(std::vector<PgnTag> tags, const std::string& time_control,
                        const Position* start) {
  tags_ = std::move(tags);
  bool has_time_control = false;
  for (const auto& [name, value] : tags_) has_time_control |= name == "TimeControl";
  if (!has_time_control && !time_control.empty()) tags_.emplace_back("TimeControl", time_control);
  records_.clear();
  result_ = "*";
  last_illegal_.clear();
  open_record(start ? *start : Position());
}

void PgnRecorder::open_record(const Position& start) {
  Record record;
  record.game.tags = tags_;
  record.game.start = start;
  record.position = start;
  records_.push_back(std::move(record));
}

bool PgnRecorder::move(const std::string& uci, const std::string& fen_after,
                       std::optional<std::chrono::milliseconds> mover_remaining) {
  if (records_.empty()) return false;
  auto parsed = parse_uci(records_.back().position, uci);
  const std::optional<Position> after = fen_after.empty() ? std::nullopt : position_from(fen_after);
  return play(parsed ? parsed.value() : Move::none(), or_null(after), mover_remaining);
}

bool PgnRecorder::play(Move m, const Position* after,
                       std::optional<std::chrono::milliseconds> mover_remaining) {
  if (records_.empty()) return false;
  Record* record = &records_.back();
  // Something we were not shown changed the position: go on from after this move.
  if (!record->position.is_legal(m))
    return jump(after, "The game continues from a changed position");
  record->position.make(m);
  record->game.moves.push_back(m);
  record->game.comments.emplace_back();
  record->clocks.push_back(mover_remaining);
  last_illegal_.clear();  // a move was made after it: a later change is not that move
  if (after && !same_placement_and_side(record->position, *after))
    jump(after, "The game continues from a changed position");
  return true;
}

void PgnRecorder::illegal_completed(Color side, const std::string& uci) {
  last_illegal_ = std::string(side_name(side)) + "'s illegal move" + (uci.empty() ? "" : " " + uci);
}

void PgnRecorder::illegal_completed(Color side, Square from, Square to) {
  illegal_completed(side, from == kNoSquare ? "" : square_name(from) + square_name(to));
}

bool PgnRecorder::illegal_stood(Color side, const std::string& fen) {
  return stood(side, or_null(position_from(fen)));
}

bool PgnRecorder::stood(Color side, const Position* after) {
  if (records_.empty()) return false;
  const std::string what =
      last_illegal_.empty() ? std::string(side_name(side)) + "'s illegal move" : last_illegal_;
  return jump(after,
              what + " stood (docs/rules.md D5); the game continues from the position after it");
}

bool PgnRecorder::position_changed(const std::string& fen, const std::string& description) {
  return changed(or_null(position_from(fen)), description);
}

// After a completed illegal move the change is that move standing (D5: the claim window's
// position, or A.5.2's) and the comment names it.
bool PgnRecorder::changed(const Position* to, const std::string& description) {
  if (records_.empty()) return false;
  std::string comment = description.empty() ? "The arbiter set up a new position" : description;
  if (!last_illegal_.empty()) comment = last_illegal_ + " stands on the board: " + comment;
  return jump(to, comment);
}

bool PgnRecorder::result(const std::string& result) {
  if (records_.empty()) return false;
  result_ = result;
  return true;
}

bool PgnRecorder::jump(const Position* to, const std::string& comment) {
  if (!to || same_placement_and_side(records_.back().position, *to)) return false;
  close_current(comment);
  open_record(*to);
  return true;
}

void PgnRecorder::close_current(const std::string& comment) {
  Record& record = records_.back();
  if (record.game.comments.empty()) {
    record.game.leading_comment = comment;
  } else {
    std::string& last = record.game.comments.back();
    last = last.empty() ? comment : last + " " + comment;
  }
  last_illegal_.clear();
}

namespace {

bool set_in(std::vector<PgnTag>& tags, const std::string& name, const std::string& value) {
  for (auto& [n, v] : tags) {
    if (n != name) continue;
    if (v == value) return false;
    v = value;
    return true;
  }
  tags.emplace_back(name, value);
  return true;
}

}  // namespace

bool PgnRecorder::set_tag(const std::string& name, const std::string& value) {
  if (!set_in(tags_, name, value)) return false;
  for (Record& record : records_) set_in(record.game.tags, name, value);
  return true;
}

bool PgnRecorder::set_record_tag(std::size_t record, const std::string& name,
                                 const std::string& value) {
  return record < records_.size() && set_in(records_[record].game.tags, name, value);
}

bool PgnRecorder::apply(const GameEvent& event) {
  if (event.visibility != EventVisibility::kPublic) return false;
  return std::visit(Overloaded{
                        [&](const events::GameStarted& e) {
                          const Position start = position_of(e.position);
                          begin(e.tags, format_time_control(e.time_control), &start);
                          return true;
                        },
                        [&](const events::MoveCompleted& e) {
                          const Position after = position_of(e.position);
                          return play(e.move, &after,
                                      e.side == kBlack ? e.black_remaining : e.white_remaining);
                        },
                        [&](const events::IllegalMoveCompleted& e) {
                          illegal_completed(e.side, e.from, e.to);
                          return false;
                        },
                        [&](const events::IllegalMoveStood& e) {
                          const Position after = position_of(e.position);
                          return stood(e.side, &after);
                        },
                        [&](const events::PositionChanged& e) {
                          const Position to = position_of(e.position);
                          return changed(&to, e.description);
                        },
                        [&](const events::GameEnded& e) {
                          return e.finality == Finality::kFinal && result(e.result);
                        },
                        [](const auto&) { return false; },
                    },
                    event.body);
}

std::string PgnRecorder::text() const {
  std::string out;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    PgnGame game = records_[i].game;
    // Only the last record carries the result: earlier ones stopped at a position change.
    game.result = i + 1 == records_.size() ? result_ : "*";
    for (auto& [name, value] : game.tags)
      if (name == "Result") value = game.result;
    if (auto written = write_pgn(game, records_[i].clocks)) out += written.value();
  }
  return out;
}

}  // namespace eboard::engine
