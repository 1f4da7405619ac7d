#include "daemon/sinks/console_feed.h"

#include "eboard/v1/json.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

SharedBytes message(const v1::Frame& frame, bool binary) {
  return std::make_shared<const std::string>(binary ? frame.SerializeAsString()
                                                    : proto::to_json_line(frame));
}

}  // namespace

bool is_console_item(const v1::Event& e) {
  switch (e.kind_case()) {
    case v1::Event::kIllegalMovePending:
    case v1::Event::kIllegalMoveCompleted:
    case v1::Event::kClockPressWithoutMove:
    case v1::Event::kPenalty:
    case v1::Event::kClaimAvailable:
    case v1::Event::kClaimReceived:
    case v1::Event::kClaimDecided:
    case v1::Event::kRestoreRequested:
    case v1::Event::kFlagFell:
    case v1::Event::kGameEnded:
    case v1::Event::kTouchMoveViolation:
    case v1::Event::kIllegalMoveStood:
    case v1::Event::kTimeControlMissed:
    case v1::Event::kSetupIrregular:
    case v1::Event::kIllegalPosition:
    case v1::Event::kDeadPositionSuspected:
    case v1::Event::kClockMismatch:
    case v1::Event::kDrawClaimable:
    // What settles a pending item: the page needs these to close it.
    case v1::Event::kGameStarted:
    case v1::Event::kIllegalMoveCorrected: return true;
    default: return false;
  }
}

bool console_sees(ConsoleView view, const v1::Event& event) {
  return view == ConsoleView::kArbiter ||
         (view == ConsoleView::kPublic && event.visibility() == v1::VISIBILITY_PUBLIC);
}

ConsoleFeed::ConsoleFeed(const EventSource& hub) : hub_(hub), game_start_(hub.board_count()) {}

void ConsoleFeed::note(std::size_t board, const v1::Event& event) {
  if (event.has_game_started() && game_start_[board]) game_start_[board] = event.seq();
}

std::uint32_t ConsoleFeed::game_start(std::size_t board) {
  if (!game_start_[board]) {
    std::uint32_t start = 1;
    v1::Event event;
    for (const std::string& bytes : hub_.replay(board, 1)) {
      if (event.ParseFromString(bytes) && event.has_game_started()) start = event.seq();
    }
    game_start_[board] = start;
  }
  return *game_start_[board];
}

std::vector<SharedBytes> ConsoleFeed::opening(ConsoleView view, bool binary) {
  std::vector<SharedBytes> out;
  v1::Frame hello;
  for (std::size_t b = 0; b < hub_.board_count(); ++b) {
    hello.mutable_hello()->add_board_ids(hub_.board_id(b));
  }
  hello.mutable_hello()->set_protocol_version(1);
  out.push_back(message(hello, binary));
  for (std::size_t b = 0; b < hub_.board_count(); ++b) {
    v1::Frame frame;
    *frame.mutable_snapshot() = hub_.state(b).snapshot();
    if (view != ConsoleView::kArbiter) {
      frame.mutable_snapshot()->clear_white_illegal_count();
      frame.mutable_snapshot()->clear_black_illegal_count();
    }
    out.push_back(message(frame, binary));
  }
  for (std::size_t b = 0; b < hub_.board_count(); ++b) {
    v1::Frame frame;
    for (const std::string& bytes : hub_.replay(b, game_start(b))) {
      v1::Event* event = frame.mutable_event();
      if (!event->ParseFromString(bytes) || !is_console_item(*event)) continue;
      if (console_sees(view, *event)) out.push_back(message(frame, binary));
    }
  }
  return out;
}

}  // namespace eboard::daemon
