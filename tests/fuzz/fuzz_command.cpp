// Control commands from the outside: arbitrary bytes read as length-delimited Frames (as
// a client sends them) and every Command found handed to a board session with a game in
// progress. Each must be answered with an Ack (ok, or an error with a message), never a
// crash; the session must keep working afterwards.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "daemon/core/board_session.h"
#include "eboard/v1/framing.h"
#include "engine/board/fen.h"

namespace {

namespace v1 = eboard::v1;

eboard::drivers::Placement start_placement() {
  const auto pos = eboard::engine::parse_fen(eboard::engine::kStartFen).value();
  eboard::drivers::Placement p{};
  for (int s = 0; s < 64; ++s) {
    const auto piece = pos.piece_on(eboard::engine::Square(s));
    p[s] = piece == eboard::engine::kNoPiece
               ? eboard::drivers::Piece::kEmpty
               : *eboard::drivers::piece_from_letter(eboard::engine::piece_to_char(piece));
  }
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using std::chrono::milliseconds;
  eboard::daemon::GameSetup setup;
  setup.rules = "fide-blitz";
  setup.clock = "180+2";
  std::uint32_t seq = 0;
  eboard::daemon::BoardSession session("b1", setup, eboard::drivers::WhiteSetting::kLeft,
                                       [&seq](v1::Event) { return ++seq; });
  session.on_sensor(eboard::drivers::PlacementSeen{start_placement()}, milliseconds(0));
  session.on_sensor(eboard::drivers::SquareChanged{12, eboard::drivers::Piece::kEmpty},
                    milliseconds(500));
  session.on_sensor(eboard::drivers::SquareChanged{28, eboard::drivers::Piece::kWhitePawn},
                    milliseconds(900));
  session.on_sensor(eboard::drivers::LeverPressed{eboard::drivers::ClockSide::kLeft},
                    milliseconds(1500));

  eboard::proto::FrameReader reader;
  reader.feed(std::string_view(reinterpret_cast<const char*>(data), size));
  v1::Frame frame;
  std::int64_t now = 2000;
  for (int i = 0; i < 64; ++i) {
    auto status = reader.next(frame);
    if (!status.ok() || status.value() == eboard::proto::ReadStatus::kNeedMore) break;
    if (!frame.has_command()) continue;
    const v1::Ack ack = session.command(frame.command(), milliseconds(now += 100));
    if (ack.ok() != ack.error().empty()) __builtin_trap();  // an error always says why
    if (const auto deadline = session.next_deadline()) session.advance(*deadline);
  }
  session.advance(milliseconds(now + 600000));
  return 0;
}
