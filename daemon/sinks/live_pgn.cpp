#include "daemon/sinks/live_pgn.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

engine::Color color_of(v1::Side side) {
  return side == v1::SIDE_BLACK ? engine::kBlack : engine::kWhite;
}

}  // namespace

LivePgn::LivePgn(std::string board_id) : board_id_(std::move(board_id)) {}

bool LivePgn::apply(const v1::Event& event) {
  if (event.visibility() != v1::VISIBILITY_PUBLIC) return false;
  switch (event.kind_case()) {
    case v1::Event::kGameStarted: {
      const auto& started = event.game_started();
      std::vector<engine::PgnTag> tags;
      for (const auto& tag : started.tags()) tags.emplace_back(tag.name(), tag.value());
      recorder_.start(std::move(tags), started.time_control(), started.fen());
      break;
    }
    case v1::Event::kMoveCompleted: {
      const auto& completed = event.move_completed();
      const int mover_ms =
          completed.side() == v1::SIDE_BLACK ? completed.black_ms() : completed.white_ms();
      if (!recorder_.move(completed.uci(), completed.fen(), std::chrono::milliseconds(mover_ms)))
        return false;
      break;
    }
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
      break;
    default: return false;
  }
  text_ = recorder_.text();
  return true;
}

}  // namespace eboard::daemon
