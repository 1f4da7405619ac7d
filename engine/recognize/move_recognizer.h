// MoveRecognizer: from square changes to tentative, withdrawn and illegal moves (docs/rules.md
// D2; docs/design.md "Incremental recognition").
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
// or nothing. Pending moves form a chain: when nothing matches and legal moves stood on
// the board since the last completion, the successors of that chain are looked up too
// (each level built lazily, once, and kept across completions): the opponent already
// moved on the board before the first player pressed (6.2.1.2, 6.2.2, docs/rules.md scenario
// 25). A third ply on top, the first player's next move, completes the first ply without
// a press (6.2.1.2); the chain is then two plies again, so it never grows beyond three.
// A press by a player whose move stands on the opponent's pending one (6.2.2 after
// 6.2.1.2) is remembered and completes that move as soon as the one under it completes.
// A placement that matches nothing is in
// transit; only when it has stood for `debounce` with no piece in the air is it analysed
// (IllegalAnalysis) into a pending illegal move or "board disarranged", and after
// `unexplained_timeout` a disarranged board gets a restore request. No timer decides a
// completion: the press does (judge_press), against the committed position; the one
// exception is checkmate or stalemate on the board (at any ply of the chain), which
// completes after `game_end_stable` (6.2.1.1) so that a piece sliding over a mating
// square ends nothing; the pending plies under it complete with it.
//
// On a board without a clock (set_clockless) there is no press: ClocklessCompletion
// completes the standing move once it has stood for a while and the opponent begins their
// next move (a lift, or their move put down on it), or once it has settled; an illegal
// placement one move explains is completed the same way and reported as kIllegalCompleted
// (docs/clockless.md). A disarranged board is never completed by time.
//
// Also here: the board's orientation (a start set-up read turned round is mapped before
// the first move, docs/protocols.md §1.6), occupancy-only boards (docs/protocols.md §10: the same
// matching with occupancy keys; captures by one piece onto different squares are told
// apart by which square was lifted, and a promotion is a queen unless the operator says
// otherwise), result gestures (docs/rules.md D8, reported when stable), and provenance: when a
// move was first seen and what happened on the way.
//
// A press is judged on the placement at that instant (D3): a press while the mover still
// holds the piece, with nothing put down, finds no move made (4.7) and is a press without
// a move (7.5.3), whatever the player then does; a move released after the press is a
// pending move like any other.
//
// Not handled: a board turned round after the first move is not re-mapped (it is a
// disarranged board).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.h"
#include "engine/recognize/clockless_completion.h"
#include "engine/recognize/illegal_analysis.h"
#include "engine/recognize/result_gesture.h"
#include "engine/recognize/sensed_board.h"
#include "engine/recognize/successor_table.h"

namespace eboard::engine {

using Millis = std::chrono::milliseconds;

struct RecognizerTiming {
  Millis debounce{300};              // docs/rules.md D2 debounce_ms
  Millis unexplained_timeout{3000};  // D2 unexplained_timeout_ms
  Millis game_end_stable{1000};      // D2 game_end_stable_ms
  // Pieces missing (nothing else changed) for this long are no longer a piece in a hand:
  // the board is disarranged (knocked off, taken away). Longer than a player holds a piece.
  Millis disarranged_after{10000};  // disarranged_after_ms
  ClocklessTiming clockless;        // used only on a board without a clock
};

enum class SensingMode : std::uint8_t { kAuto, kPieces, kOccupancy };

// How a move came to stand on the board (docs/interfaces.md §4 provenance fields).
struct Provenance {
  Millis first_seen{0};        // when this move was first matched since the last completion
  bool slid_through = false;   // another legal move stood on the board before this one
  bool taken_back = false;     // the board went back to the committed position on the way
  bool piece_missing = false;  // an uninvolved piece vanished for a while, or this move
                               // left the board and came back
  // Touch-move breaches the sensors suggest (docs/rules.md D2, D4; the arbiter's business):
  bool rook_first = false;             // castling with the rook lifted first (4.4.2)
  Move released_other = Move::none();  // another legal move stood >= debounce first (4.7)
};

enum class GameEndKind : std::uint8_t { kNone, kCheckmate, kStalemate };

// Pending plies followed at most: a move, the opponent's reply on top of it, and the
// first player's next move, which completes the first (6.2.1.2).
inline constexpr int kMaxPendingPlies = 3;

// Why a kCompleted move is complete without a press of its own now.
enum class UnpressedCompletion : std::uint8_t {
  kNextMove,      // its player made the next move on the board (6.2.1.2)
  kGameEnd,       // a move on top of it ended the game (6.2.1.1): everything on the board counts
  kEarlierPress,  // its player pressed while the opponent's move under it was pending (6.2.2)
  // A board without a clock (ClocklessCompletion):
  kOpponentBegan,  // it stood, then the opponent lifted a piece or moved on top of it
  kSettled,        // it stood unchanged for the settle time
};

struct RecognizerEvent {
  enum class Kind : std::uint8_t {
    kTentative,         // `move` stands on the board (ply 0: from the committed position,
                        // ply n: after the n pending moves in `path`)
    kWithdrawn,         // `move` is no longer on the board
    kIllegalPending,    // `illegal` stands, stable
    kIllegalCorrected,  // the pending illegal placement is gone
    kRestoreRequested,  // `illegal.differing` must be set back to the committed position
    kResultGesture,     // `gesture` stands, stable
    kGameEndStable,     // `move` (ply 0 once the plies under it completed) ends the game
                        // and has stood for game_end_stable
    kOrientation,       // the board was found turned round (`rotated`)
    kCompleted,         // `move` (ply 0) is completed without a press now (`completion`)
    kIllegalCompleted,  // board without a clock: the pending `illegal` placement is
                        // completed now (`completion`: kOpponentBegan or kSettled)
  };
  Kind kind = Kind::kTentative;
  Millis at{0};
  Move move = Move::none();
  int ply = 0;
  std::array<Move, kMaxPendingPlies - 1> path{};  // ply n: the pending moves under `move`
  Color side = kWhite;
  Provenance provenance;
  GameEndKind game_end = GameEndKind::kNone;
  UnpressedCompletion completion = UnpressedCompletion::kNextMove;
  IllegalAnalysis illegal;
  GestureResult gesture = GestureResult::kNone;
  bool rotated = false;
};
using RecognizerEvents = std::vector<RecognizerEvent>;

// What a clock press by the side on move completes, judged at the press (docs/rules.md D3).
struct PressVerdict {
  enum class Kind : std::uint8_t { kNothing, kLegal, kIllegal };
  Kind kind = Kind::kNothing;
  Move move = Move::none();  // kLegal: the move completed (the first pending ply)
  Provenance provenance;
  GameEndKind game_end = GameEndKind::kNone;
  IllegalAnalysis illegal;       // kIllegal
  bool pressed_earlier = false;  // the clock was pressed for it before (kEarlierPress)
  bool piece_in_hand = false;    // kNothing: pieces are off the board, none was put down
};

class MoveRecognizer {
 public:
  MoveRecognizer(const Position& start, RecognizerTiming timing,
                 SensingMode mode = SensingMode::kAuto);

  // Sensor input, in the board's own square numbering. Appends what changed to `out`.
  void sense_square(Square board_square, SquareCode code, Millis now, RecognizerEvents& out);
  void sense_placement(const std::array<SquareCode, kSquareCount>& board_codes, Millis now,
                       RecognizerEvents& out);
  // Timers (debounce, restore, game end, gestures); call at next_deadline().
  void advance(Millis now, RecognizerEvents& out);
  std::optional<Millis> next_deadline() const;

  // What a press now by the side on move would complete. Does not change anything.
  PressVerdict judge_press(Millis now) const;
  // A press by the side NOT on move in the committed position whose own move stands on
  // the opponent's pending one (6.2.1.2 completed its earlier move, then it pressed,
  // 6.2.2): remembered; that move completes (kCompleted, kEarlierPress) once the one under
  // it does. False when no such move stands: a press without a move.
  bool press_over_pending(Color side);
  // The move is completed (by a press or the game end): the committed position advances.
  void commit(Move m, Millis now, RecognizerEvents& out);
  // A board without a clock (on) or with one (off): see the header comment. Switching on
  // with a move standing counts its times from when it came to stand; a move and the
  // opponent's on top of it complete the first at once.
  void set_clockless(bool on, Millis now, RecognizerEvents& out);
  bool clockless() const { return clockless_on_; }
  // The committed position is replaced (arbiter reinstatement, an illegal move that
  // stood, a restart); the sensed board is judged against it afresh.
  void replace_committed(const Position& pos, Millis now, RecognizerEvents& out);
  // An occupancy-only board cannot show which piece a pawn became (docs/protocols.md §10):
  // the operator says it (docs/interfaces.md §3 `promote`). Scope: the promotion standing on
  // the board as the top of the pending chain is re-matched at once (a kTentative for the
  // chosen piece, same provenance); otherwise the choice waits for the next promotion.
  // It returns to a queen when a promotion is committed. Where pieces are sensed the
  // board shows the piece and the choice changes nothing.
  void set_promotion_choice(PieceType type, Millis now, RecognizerEvents& out);
  PieceType promotion_choice() const { return promotion_choice_; }

  const Position& committed() const { return committed_; }
  const SensedBoard& sensed() const { return sensed_; }
  MatchKeys keys() const { return keys_; }
  bool rotated() const { return rotated_; }
  // The result gesture standing on the board now (stable or not).
  GestureResult gesture() const { return gesture_; }
  // The move standing on the board (the top of the pending chain), or none.
  Move tentative() const { return match_ == Match::kChain ? chain_[chain_len_ - 1] : Move::none(); }
  // The pending legal moves last seen on the board, from the committed position.
  int pending_count() const { return chain_len_; }
  Move pending(int ply) const { return chain_[ply]; }
  // The inferred first touched pieces since the last completion (docs/rules.md D2, 4.3).
  Square first_lifted_own() const { return first_own_; }
  Square first_lifted_opponent() const { return first_opp_; }
  // The position after `m` from the committed position (for SAN/FEN of later plies).
  Position after(Move m) const;

 private:
  enum class Match : std::uint8_t { kCommitted, kChain, kNone };
  struct Seen {
    Move move;
    Millis at;
  };
  // The successors of the committed position after `depth` pending plies (`path`).
  struct Level {
    SuccessorTable table;
    std::array<Move, kMaxPendingPlies - 1> path{};
    int depth = -1;  // -1: not built
  };

  Key sensed_key() const {
    return keys_ == MatchKeys::kPlacement ? sensed_.placement_key() : sensed_.occupancy_key();
  }
  void on_change(Square s, SquareCode old_code, SquareCode code, Millis now);
  void evaluate(Millis now, RecognizerEvents& out);
  void to_committed(Millis now, RecognizerEvents& out);
  void to_chain(int depth, Move m, Millis now, RecognizerEvents& out);
  void note_first_ply(Move m, Millis now);
  void to_none(Millis now, RecognizerEvents& out);
  void leave_top(Millis now);
  void correct_illegal(Millis now, RecognizerEvents& out);
  void report_illegal(Millis at, RecognizerEvents& out);
  Millis held_limit() const { return std::max(timing_.debounce, timing_.disarranged_after); }
  bool rotated_placement_matches() const;
  bool try_orientation(Millis now, RecognizerEvents& out);
  void use_occupancy_keys();
  const SuccessorTable& level(int depth);
  void shift_levels(Move completed);
  void invalidate_levels();
  void reset_since_commit();
  void keep_emptied_since(std::uint32_t count);
  Move pick(const SuccessorTable& table, int first, int depth) const;
  Provenance provenance_for(Move m, Millis now) const;
  void record_seen(Move m, Millis now);
  // The position after the first `plies` pending moves (make/unmake on committed_).
  void make_path(int plies) const;
  void unmake_path(int plies) const;
  Position after_path(int plies) const;
  GameEndKind game_end_after(int plies, Move m) const;
  Bitboard vacated_by(Move m) const;
  Square lifted_victim() const;
  RecognizerEvent completion_event(UnpressedCompletion why, Millis at) const;
  // Board without a clock (move_recognizer_clockless.cpp).
  void clockless_stand_top(Millis since);
  bool occupancy_phantom(int depth, Move m) const;
  void clockless_stand_illegal();
  void clockless_after_commit(Millis now, RecognizerEvents& out);
  void clockless_opponent_moved(Millis now, RecognizerEvents& out);
  void clockless_advance(Millis now, RecognizerEvents& out);

  // Mutable for look-ahead in const queries: make/unmake of one move leaves it as it was.
  mutable Position committed_;
  RecognizerTiming timing_;
  SensingMode mode_;
  MatchKeys keys_ = MatchKeys::kPlacement;
  std::array<Level, kMaxPendingPlies> levels_;
  int level0_ = 0;  // levels_[(level0_ + d) % kMaxPendingPlies] holds depth d
  SensedBoard sensed_;
  bool rotated_ = false;
  bool orientation_fixed_ = false;
  PieceType promotion_choice_ = kQueen;

  Match match_ = Match::kCommitted;
  // The pending legal moves last seen on the board: chain_[0] by the side on move, then
  // alternating. Kept while the board shows nothing (pieces in the air).
  std::array<Move, kMaxPendingPlies> chain_{};
  int chain_len_ = 0;
  Move reported_ = Move::none();  // the tentative move last reported
  int reported_ply_ = 0;
  Millis top_since_{0};
  GameEndKind top_end_ = GameEndKind::kNone;  // for the chain's top move
  Move top_end_for_ = Move::none();
  int top_end_depth_ = 0;
  bool end_reported_ = false;
  bool next_move_reported_ = false;  // the 6.2.1.2 completion of chain_[0] is out
  bool second_pressed_ = false;      // press_over_pending() for chain_[1]
  std::optional<Millis> earlier_press_due_;
  Millis last_change_{0};
  bool last_change_lift_ = false;  // the last change emptied a square
  bool analysed_ = true;
  bool illegal_outstanding_ = false;
  bool restore_due_ = false;
  bool held_due_ = false;  // pieces in the air: disarranged if still so at disarranged_after
  Millis illegal_at_{0};   // when the outstanding illegal placement was reported
  GestureResult gesture_ = GestureResult::kNone;
  Millis gesture_since_{0};
  bool gesture_reported_ = false;

  // Since the last completion.
  std::array<Seen, 16> seen_{};
  int seen_count_ = 0;
  bool taken_back_ = false;
  bool left_and_returned_ = false;
  Bitboard emptied_ = 0;
  // When each square last emptied, as a count of emptyings; counts up to emptied_base_
  // are from before the last completion (no clearing of the array per move).
  std::array<std::uint32_t, kSquareCount> emptied_when_{};
  std::uint32_t emptied_count_ = 0;
  std::uint32_t emptied_base_ = 0;
  // emptied_count_ when the first pending ply last came to stand: on a board without a
  // clock later emptyings belong to the next ply (the opponent's capture begun, victim
  // first, before the completion) and are kept when it completes: pick() needs that
  // victim's lift on an occupancy-only board.
  std::uint32_t first_ply_stood_at_ = 0;
  Square first_own_ = kNoSquare;
  Square first_opp_ = kNoSquare;
  Move released_ = Move::none();

  // Board without a clock.
  ClocklessCompletion clockless_;
  bool clockless_on_ = false;
  Move clockless_move_ = Move::none();    // the legal candidate handed to clockless_
  std::uint32_t clockless_stood_at_ = 0;  // emptied_count_ when it came to stand
  IllegalAnalysis last_illegal_;          // the outstanding illegal placement's analysis
  bool illegal_completed_ = false;        // ... completed: not again until the board is legal
  bool opponent_move_reported_ = false;   // the completion of chain_[0] under it is out
};

}  // namespace eboard::engine
