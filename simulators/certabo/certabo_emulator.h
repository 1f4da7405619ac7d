// A Certabo RFID board as a state machine (docs/protocols.md §7), the counterpart of
// drivers/certabo. Each piece carries its own RFID tag: a lifted piece keeps its tag in
// the hand (the most recently lifted piece of a kind is the one put down next), a piece
// put down that was never on the board comes from the box of spares (one spare queen,
// rook, bishop and knight per colour are made at the start, as a calibrated board's
// spare pieces are). Empty squares read all zero, or now and then a stray tag (the RFID
// noise PicoChess's captures show), and every line gets an LF every 64 characters, as the
// USB chunking there does. The board streams: `advance` gives a reading every kPeriod of
// script time; each sensor change gives three readings at once (the driver's majority of
// three then sees it), and so does anything the host writes (its LED bytes: 8 a frame),
// which is how the emulator knows a host has opened the port.
// The occupancy-only variant (Tabutronic Sentio) sends 8 numbers a line instead.
#pragma once

#include <array>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "drivers/certabo/certabo_calibration.h"
#include "drivers/certabo/certabo_frames.h"
#include "simulators/emulator/board_emulator.h"

namespace eboard::sim {

struct CertaboOptions {
  bool occupancy_only = false;
  bool noise = true;
  std::uint32_t seed = 1;
};

class CertaboEmulator final : public BoardEmulator {
 public:
  static constexpr script::Millis kPeriod{300};

  explicit CertaboEmulator(CertaboOptions options);

  Messages on_host_bytes(std::span<const std::uint8_t> bytes) override;
  Messages apply(const script::Statement& statement) override;
  Messages advance(script::Millis at) override;
  void power_cycle() override;
  void set_placement(const script::Placement& placement) override;
  bool host_active() const override { return host_active_; }
  bool host_has_board() const override { return host_active_; }

  // Every tag of the set (on the board, in the box) as a calibration's text: what a board
  // calibrated with its spares knows.
  std::string calibration_text() const;
  std::uint64_t lit_squares() const { return lit_; }
  // Swaps the pieces on two squares (tests: the queens set up on each other's squares).
  void swap_squares(int a, int b) {
    std::swap(tags_[a], tags_[b]);
    std::swap(pieces_[a], pieces_[b]);
  }

 private:
  using Tag = drivers::certabo::Tag;
  // Where a piece put down comes from: in play, the pieces off the board and then the
  // box of spares; a set-up places the set's own pieces and leaves the spares in the box
  // (a calibrated board knows them, and a promotion takes one).
  enum class From : std::uint8_t { kPlay, kSetUp };
  Tag new_tag(drivers::Piece piece);
  Tag take(drivers::Piece piece, From from);
  void lift(int square);
  void put(int square, drivers::Piece piece, From from = From::kPlay);
  Message reading();
  Messages readings(int count);

  CertaboOptions options_;
  std::mt19937 random_;
  std::array<Tag, 64> tags_{};  // by engine square
  std::array<drivers::Piece, 64> pieces_{};
  std::array<std::vector<Tag>, 13> off_;     // lifted off the board, by piece kind
  std::array<std::vector<Tag>, 13> spares_;  // the box of spares, by piece kind
  std::map<Tag, drivers::Piece> known_;      // every tag made
  std::string pending_;
  bool host_active_ = false;
  std::uint64_t lit_ = 0;
  std::uint32_t next_tag_ = 0;
  script::Millis last_reading_{0};
};

}  // namespace eboard::sim
