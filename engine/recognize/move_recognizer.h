// MoveRecognizer: from square changes to tentative, withdrawn and illegal moves (rules.md
// D2; design.md "Incremental recognition").
//
// The problem. Players lift, slide, hover, capture in either order, castle rook first,
// promote in two steps, take moves back, knock pieces over, and sensors flicker. The
// recognizer must never publish a move that was not made nor miss one that was, and it
// must add no latency to a clean move: a clean lift-put shows the tentative move on the
// put, and the press that follows completes it at once.
//
// How. The sensed board keeps its key up to date in O(1) per change (SensedBoard). The
// committed position's legal successors and their keys sit in a SuccessorTable built
// once per completed move. Each change is one lookup: the committed key (nothing moved,
// a tentative move is withdrawn), a successor (a tentative legal move, reported at once),
// or nothing. When nothing matches and a legal move of the side to move stood on the
// board since the last completion, the successors of that move are looked up too (built
// lazily, once): the opponent already moved on the board before the first player
// pressed (6.2.1.2, 6.2.2, rules.md scenario 25). A placement that matches nothing is in
// transit; only when it has stood for `debounce` with no piece in the air is it analysed
// (IllegalAnalysis) into a pending illegal move or "board disarranged", and after
// `unexplained_timeout` a disarranged board gets a restore request. No timer decides a
// completion: the press does (judge_press), against the committed position; the one
// exception is checkmate or stalemate on the board, which completes after
// `game_end_stable` (6.2.1.1) so that a piece sliding over a mating square ends nothing.
//
// Also here: the board's orientation (a start set-up read turned round is mapped before
// the first move, protocols.md §1.6), occupancy-only boards (protocols.md §10: the same
// matching with occupancy keys; captures by one piece onto different squares are told
// apart by which square was lifted, and a promotion is a queen unless the operator says
// otherwise), result gestures (rules.md D8, reported when stable), and provenance: when a
// move was first seen and what happened on the way.
//
// Not handled: more than two plies without a press (the second player also not
// pressing), a press while the mover still holds the piece (the placement at that
// instant decides, as D3 says), a board turned round after the first move.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.h"
#include "engine/recognize/illegal_analysis.h"
#include "engine/recognize/result_gesture.h"
#include "engine/recognize/sensed_board.h"
#include "engine/recognize/successor_table.h"

namespace eboard::engine {

using Millis = std::chrono::milliseconds;

struct RecognizerTiming {
  Millis debounce{300};               // rules.md D2 debounce_ms
  Millis unexplained_timeout{3000};   // D2 unexplained_timeout_ms
  Millis game_end_stable{1000};       // D2 game_end_stable_ms
};

enum class SensingMode : std::uint8_t { kAuto, kPieces, kOccupancy };

// How a move came to stand on the board (interfaces.md §4 provenance fields).
struct Provenance {
  Millis first_seen{0};        // when this move was first matched since the last completion
  bool slid_through = false;   // another legal move stood on the board before this one
  bool taken_back = false;     // the board went back to the committed position on the way
  bool piece_missing = false;  // an uninvolved piece vanished for a while, or this move
                               // left the board and came back
  // Touch-move breaches the sensors suggest (rules.md D2, D4; the arbiter's business):
  bool rook_first = false;           // castling with the rook lifted first (4.4.2)
  Move released_other = Move::none();  // another legal move stood >= debounce first (4.7)
};

enum class GameEndKind : std::uint8_t { kNone, kCheckmate, kStalemate };

struct RecognizerEvent {
  enum class Kind : std::uint8_t {
    kTentative,         // `move` stands on the board (ply 0: from the committed position,
                        // ply 1: after the pending first move)
    kWithdrawn,         // `move` is no longer on the board
    kIllegalPending,    // `illegal` stands, stable
    kIllegalCorrected,  // the pending illegal placement is gone
    kRestoreRequested,  // `illegal.differing` must be set back to the committed position
    kResultGesture,     // `gesture` stands, stable
    kGameEndStable,     // `move` (ply 0) ends the game and has stood for game_end_stable
    kOrientation,       // the board was found turned round (`rotated`)
  };
  Kind kind = Kind::kTentative;
  Millis at{0};
  Move move = Move::none();
  int ply = 0;
  Move base = Move::none();  // ply 1: the pending first move it follows
  Color side = kWhite;
  Provenance provenance;
  GameEndKind game_end = GameEndKind::kNone;
  IllegalAnalysis illegal;
  GestureResult gesture = GestureResult::kNone;
  bool rotated = false;
};
using RecognizerEvents = std::vector<RecognizerEvent>;

// What a clock press by the side on move completes, judged at the press (rules.md D3).
struct PressVerdict {
  enum class Kind : std::uint8_t { kNothing, kLegal, kIllegal };
  Kind kind = Kind::kNothing;
  Move move = Move::none();  // kLegal: the move completed (the first of two plies)
  Provenance provenance;
  GameEndKind game_end = GameEndKind::kNone;
  IllegalAnalysis illegal;  // kIllegal
};

class MoveRecognizer {
 public:
  MoveRecognizer(const Position& start, RecognizerTiming timing, SensingMode mode = SensingMode::kAuto);

  // Sensor input, in the board's own square numbering. Appends what changed to `out`.
  void sense_square(Square board_square, SquareCode code, Millis now, RecognizerEvents& out);
  void sense_placement(const std::array<SquareCode, kSquareCount>& board_codes, Millis now,
                       RecognizerEvents& out);
  // Timers (debounce, restore, game end, gestures); call at next_deadline().
  void advance(Millis now, RecognizerEvents& out);
  std::optional<Millis> next_deadline() const;

  // What a press now would complete. Does not change anything.
  PressVerdict judge_press(Millis now) const;
  // The move is completed (by a press or the game end): the committed position advances.
  void commit(Move m, Millis now, RecognizerEvents& out);
  // The committed position is replaced (arbiter reinstatement, an illegal move that
  // stood, a restart); the sensed board is judged against it afresh.
  void replace_committed(const Position& pos, Millis now, RecognizerEvents& out);
  // An occupancy-only board cannot show which piece a pawn became (protocols.md §10).
  void set_promotion_choice(PieceType type) { promotion_choice_ = type; }

  const Position& committed() const { return committed_; }
  const SensedBoard& sensed() const { return sensed_; }
  MatchKeys keys() const { return keys_; }
  bool rotated() const { return rotated_; }
  // The result gesture standing on the board now (stable or not).
  GestureResult gesture() const { return gesture_; }
  // The move standing on the board (the second ply when two are), or none.
  Move tentative() const { return match_ == Match::kTwo ? two_ : match_ == Match::kOne ? one_ : Move::none(); }
  // The inferred first touched pieces since the last completion (rules.md D2, 4.3).
  Square first_lifted_own() const { return first_own_; }
  Square first_lifted_opponent() const { return first_opp_; }
  // The position after `m` from the committed position (for SAN/FEN of ply 1 moves).
  Position after(Move m) const;

 private:
  enum class Match : std::uint8_t { kCommitted, kOne, kTwo, kNone };
  struct Seen {
    Move move;
    Millis at;
  };

  Key sensed_key() const {
    return keys_ == MatchKeys::kPlacement ? sensed_.placement_key() : sensed_.occupancy_key();
  }
  void on_change(Square s, SquareCode old_code, SquareCode code, Millis now);
  void evaluate(Millis now, RecognizerEvents& out);
  void to_committed(Millis now, RecognizerEvents& out);
  void to_one(Move m, Millis now, RecognizerEvents& out);
  void to_two(Move m, Millis now, RecognizerEvents& out);
  void to_none(Millis now, RecognizerEvents& out);
  void leave_one(Millis now);
  void correct_illegal(Millis now, RecognizerEvents& out);
  bool try_orientation(Millis now, RecognizerEvents& out);
  void use_occupancy_keys();
  void rebuild();
  void reset_since_commit();
  Move pick(const SuccessorTable& table, int first) const;
  Provenance provenance_for(Move m, Millis now) const;
  void record_seen(Move m, Millis now);
  GameEndKind game_end_after(Move m) const;
  Bitboard vacated_by(Move m) const;

  // Mutable for look-ahead in const queries: make/unmake of one move leaves it as it was.
  mutable Position committed_;
  RecognizerTiming timing_;
  SensingMode mode_;
  MatchKeys keys_ = MatchKeys::kPlacement;
  SuccessorTable table_;
  SuccessorTable second_;
  Move second_for_ = Move::none();
  SensedBoard sensed_;
  bool rotated_ = false;
  bool orientation_fixed_ = false;
  PieceType promotion_choice_ = kQueen;

  Match match_ = Match::kCommitted;
  Move one_ = Move::none();  // the last legal move of the side to move on the board
  Move two_ = Move::none();
  Move reported_ = Move::none();
  Millis one_since_{0};
  GameEndKind one_end_ = GameEndKind::kNone;
  Millis last_change_{0};
  bool analysed_ = true;
  bool illegal_outstanding_ = false;
  bool restore_due_ = false;
  GestureResult gesture_ = GestureResult::kNone;
  Millis gesture_since_{0};
  bool gesture_reported_ = false;

  // Since the last completion.
  std::array<Seen, 16> seen_{};
  int seen_count_ = 0;
  bool taken_back_ = false;
  bool left_and_returned_ = false;
  Bitboard emptied_ = 0;
  Square first_own_ = kNoSquare;
  Square first_opp_ = kNoSquare;
  Move released_ = Move::none();
};

}  // namespace eboard::engine
