// A family's emulator and its decoder wired together in one process, bytes both ways
// (emulator -> decoder in random splits, or one whole message per call for USB reports),
// with script time as the only clock: the decoders' timers fire at their deadlines in
// order as time moves to each statement. What the decoder reports comes back as sensor
// statements (`placement`, `lift`, `put`), as eboard-dump prints them, so a script can be
// replayed the way the board reported it and compared with the script itself.
#pragma once

#include <random>
#include <vector>

#include "drivers/decoder.h"
#include "simulators/emulator/board_emulator.h"
#include "simulators/script/statement.h"

namespace eboard::sim::testing {

class BoardLoop {
 public:
  enum class Delivery { kRandomSplits, kWholeMessages };
  BoardLoop(BoardEmulator& board, drivers::Decoder& decoder, Delivery delivery, std::uint32_t seed)
      : board_(board), decoder_(decoder), delivery_(delivery), random_(seed) {}

  void connect() {
    drivers::DecoderOutput out;
    decoder_.on_connected(now_, out);
    handle(out);
  }
  // Plays one sensor statement at its time; returns the board's reports since the last.
  std::vector<script::Statement> play(const script::Statement& s) {
    run_until(*s.at);
    deliver(board_.apply(s));
    return take();
  }
  // Lets `span` of script time pass (the decoders' timers, a streaming board).
  std::vector<script::Statement> idle(script::Millis until) {
    run_until(until);
    return take();
  }
  std::uint64_t resyncs() const { return resyncs_; }
  // The decoder reported that no clock is on the link (ClockAbsent).
  bool clock_absent() const { return clock_absent_; }

 private:
  drivers::TimePoint at(script::Millis t) const { return drivers::TimePoint{} + t; }
  void run_until(script::Millis target) {
    for (;;) {
      const auto deadline = decoder_.next_deadline();
      if (!deadline || *deadline > at(target)) break;
      now_ = std::max(now_, *deadline);
      script_now_ = std::chrono::duration_cast<script::Millis>(now_ - drivers::TimePoint{});
      deliver(board_.advance(script_now_));  // a streaming board's reading comes first
      drivers::DecoderOutput out;
      decoder_.on_timer(now_, out);
      handle(out);
    }
    now_ = std::max(now_, at(target));
    script_now_ = target;
    deliver(board_.advance(script_now_));
  }
  void deliver(const Messages& messages) {
    if (messages.empty()) return;
    if (delivery_ == Delivery::kWholeMessages) {
      for (const auto& m : messages) feed(m);
      return;
    }
    Message all;
    for (const auto& m : messages) all.insert(all.end(), m.begin(), m.end());
    for (std::size_t i = 0; i < all.size();) {
      const std::size_t n = std::min<std::size_t>(1 + random_() % 40, all.size() - i);
      feed(Message(all.begin() + static_cast<long>(i), all.begin() + static_cast<long>(i + n)));
      i += n;
    }
  }
  void feed(const Message& bytes) {
    drivers::DecoderOutput out;
    decoder_.on_bytes(bytes, now_, out);
    handle(out);
  }
  void handle(drivers::DecoderOutput& out) {
    for (const auto& e : out.events) {
      script::Statement s{0, script_now_, {}};
      if (const auto* seen = std::get_if<drivers::PlacementSeen>(&e)) {
        script::Placement p;
        for (int sq = 0; sq < 64; ++sq) p.squares[sq] = drivers::piece_letter(seen->placement[sq]);
        s.body = p;
      } else if (const auto* change = std::get_if<drivers::SquareChanged>(&e)) {
        if (change->piece == drivers::Piece::kEmpty) {
          s.body = script::Lift{change->square};
        } else {
          s.body = script::Put{change->square, drivers::piece_letter(change->piece)};
        }
      } else {
        if (const auto* status = std::get_if<drivers::LinkStatus>(&e)) {
          resyncs_ += status->state == drivers::LinkState::kResync;
        }
        clock_absent_ = clock_absent_ || std::holds_alternative<drivers::ClockAbsent>(e);
        continue;
      }
      reports_.push_back(s);
    }
    const auto to_send = out.to_send;
    out = {};
    if (!to_send.empty()) deliver(board_.on_host_bytes(to_send));
  }
  std::vector<script::Statement> take() {
    std::vector<script::Statement> taken;
    taken.swap(reports_);
    return taken;
  }

  BoardEmulator& board_;
  drivers::Decoder& decoder_;
  Delivery delivery_;
  std::mt19937 random_;
  drivers::TimePoint now_{};
  script::Millis script_now_{0};
  std::vector<script::Statement> reports_;
  std::uint64_t resyncs_ = 0;
  bool clock_absent_ = false;
};

}  // namespace eboard::sim::testing
