// The check every family's decoder must pass: a run of board states, each encoded as the
// device sends it, fed in random splits - clean, or with garbage and damaged messages
// between - must give every square change and nothing else. The picture built from the
// decoder's events may only ever be a state the board really was in (up to the last
// message fed), and ends at the last state.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

#include "drivers/decoder.h"

namespace eboard::drivers::testing {

using Bytes = std::vector<std::uint8_t>;

// States that differ from the previous one in one square each: pieces lifted and put
// down at random (any piece, anywhere), from the start position. Seeded.
inline std::vector<Placement> random_states(std::size_t count, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<Placement> states = {start_placement()};
  std::vector<Piece> hand;
  while (states.size() < count) {
    Placement next = states.back();
    const int sq = static_cast<int>(random() % 64);
    if (next[sq] != Piece::kEmpty && (hand.size() < 3 || random() % 2)) {
      hand.push_back(next[sq]);
      next[sq] = Piece::kEmpty;
    } else if (next[sq] == Piece::kEmpty && !hand.empty()) {
      next[sq] = hand.back();
      hand.pop_back();
    } else {
      continue;
    }
    states.push_back(next);
  }
  return states;
}

struct StreamResult {
  std::vector<SquareChanged> changes;
  int placements = 0;
  int resyncs = 0;
  bool invented = false;  // the picture was once a state the board never showed
  Placement picture{};
};

// `stream`: the bytes; `ends[i]`: the offset just past message i, `state_of[i]` the state
// it shows. Fed in chunks of 1 to max_chunk bytes to a decoder that already reported
// states[0] (after its handshake).
inline StreamResult feed_stream(Decoder& decoder, const std::vector<Placement>& states,
                                const Bytes& stream, const std::vector<std::size_t>& ends,
                                const std::vector<std::size_t>& state_of, std::uint32_t seed,
                                std::size_t max_chunk, TimePoint& now) {
  std::mt19937 random(seed);
  StreamResult result;
  result.picture = states[0];
  bool known = true;
  std::size_t at = 0;
  std::size_t message = 0;
  while (at < stream.size()) {
    const std::size_t n = std::min<std::size_t>(1 + random() % max_chunk, stream.size() - at);
    DecoderOutput out;
    now += std::chrono::milliseconds(1);
    decoder.on_bytes(std::span(stream.data() + at, n), now, out);
    at += n;
    while (message < ends.size() && ends[message] <= at) ++message;
    for (const auto& e : out.events) {
      if (const auto* seen = std::get_if<PlacementSeen>(&e)) {
        result.picture = seen->placement;
        known = true;
        ++result.placements;
      } else if (const auto* change = std::get_if<SquareChanged>(&e)) {
        EXPECT_TRUE(known) << "a change before any full picture";
        result.picture[change->square] = change->piece;
        result.changes.push_back(*change);
      } else if (const auto* status = std::get_if<LinkStatus>(&e)) {
        result.resyncs += status->state == LinkState::kResync;
      }
    }
    if (!known) continue;
    const std::size_t latest = message == 0 ? 0 : state_of[message - 1];
    bool real = false;
    for (std::size_t s = 0; s <= latest && !real; ++s) real = result.picture == states[s];
    result.invented = result.invented || !real;
  }
  return result;
}

// The changes between successive states, in square order within each step.
inline std::vector<SquareChanged> true_changes(const std::vector<Placement>& states) {
  std::vector<SquareChanged> changes;
  for (std::size_t i = 1; i < states.size(); ++i) {
    for (int sq = 0; sq < 64; ++sq) {
      if (states[i][sq] != states[i - 1][sq]) changes.push_back({sq, states[i][sq]});
    }
  }
  return changes;
}

inline bool same(const std::vector<SquareChanged>& a, const std::vector<SquareChanged>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].square != b[i].square || a[i].piece != b[i].piece) return false;
  }
  return true;
}

}  // namespace eboard::drivers::testing
