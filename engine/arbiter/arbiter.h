// RulesArbiter: the Laws of Chess as an arbiter applies them (docs/rules.md D1, D4-D8,
// D10-D14), plugged into a GameTracker through the seam of engine/game/arbiter_seam.h: it
// reads the game and returns its decisions (engine/game/arbiter_decision.h), which the
// tracker applies.
//
// The tracker recognises and completes moves, runs the clock and counts completed
// illegal moves; this class decides what they mean under the rule set's parameters (it
// never tests the set's name):
//   arbiter_illegal.cpp  completed illegal moves and presses without a move (D5, D6), the
//                        claim window and the illegal move that stands, touch-move
//                        obligations (D4), illegal positions left on the board (D11);
//   arbiter_claims.cpp   threefold / fifty claims with an intended move (9.2-9.5), draw
//                        agreement (5.2.3), resignation (5.1.2), set-up claims and lost
//                        castling (D1), quickplay finish (D12);
//   arbiter_end.cpp      positions that end the game by themselves (D7), flag falls and
//                        their result by the set's `mating_test` (D10), the infraction
//                        ladder (D13);
//   arbiter.cpp          the authority rule: automatic results are results; penalties and
//                        claim outcomes are proposals unless `auto_apply_penalties`, and
//                        `arbiter ruling accept|reject [SEQ]` settles the proposal the
//                        event numbered SEQ opened (the publisher reports the seqs it
//                        assigns, GameTracker::published), without SEQ the latest open one;
//   proposal_book.h      the open proposals, one per matter, and their withdrawals.
//
// Visibility (D14): irregularities follow the tracker's irregularity_visibility(); claim
// windows, draw_claimable, touch-move and illegal positions are arbiter-only.
//
// Pure: no I/O, no clock reading; time comes with every call.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/arbiter/proposal_book.h"
#include "engine/board/position.h"
#include "engine/game/arbiter_seam.h"
#include "engine/game/game_tracker.h"
#include "engine/rules/unwinnability_analyzer.h"

namespace eboard::engine {

class RulesArbiter : public Arbiter {
 public:
  PressClass classify_press_without_move(const GameTracker& game, Color side) override;
  int unseen_illegal_acts(const GameTracker& game, Color side) const override;
  ArbiterDecisions on_move_completed(const GameTracker& game,
                                     const events::MoveCompleted& completed, Millis now) override;
  ArbiterDecisions on_illegal_completed(const GameTracker& game,
                                        const events::IllegalMoveCompleted& completed,
                                        Millis now) override;
  ArbiterDecisions on_flag(const GameTracker& game, Color side, Millis now) override;
  ArbiterDecisions on_both_flags(const GameTracker& game, Millis now) override;
  ArbiterDecisions on_operator(const GameTracker& game, const OperatorAction& action,
                               Millis now) override;
  void on_published(std::uint32_t proposal, std::uint64_t seq) override;
  ArbiterDecisions propose_result(const GameTracker& game, GameResult result,
                                  TerminationKind termination, const std::string& description,
                                  Millis now) override;
  std::optional<Millis> next_deadline() const override;
  ArbiterDecisions on_deadline(const GameTracker& game, Millis now) override;
  void on_new_game() override;
  ArbiterDecisions on_board_change(const GameTracker& game, std::span<const GameEvent> caused,
                                   Millis now) override;

  // Can `side` still checkmate in `pos` under the rule set's mating test (D10)? Exposed for
  // tests and the judge-like checks of other parts.
  UnwinnabilityNote can_mate(const GameTracker& game, const Position& pos, Color side,
                             MatingTest test);

  // The game's decisions for the arbiter (proposal_book.h): what the daemon's query of the
  // open ones answers, and the withdrawals it announces.
  ProposalBook& proposals() { return book_; }
  const ProposalBook& proposals() const { return book_; }
  // The game ended, whichever way: nothing is left open to decide.
  void game_over(Millis now);

 private:
  // A completed illegal move whose claim window is open (D5).
  struct IllegalWindow {
    bool open = false;
    Color offender = kWhite;
    Position before;             // the position just before the irregularity (7.5.1)
    Position after;              // the board's position after it (what stands if unused)
    bool has_penalty = false;    // its remedy is a time penalty, not a claimed win
    std::uint32_t proposal = 0;  // the penalty's proposal, while not applied
    bool penalised = false;
  };

  // arbiter.cpp
  void started(const GameTracker& game, Millis now, ArbiterDecisions& out);
  static void report(ArbiterDecisions& out, GameEvent e) {
    out.push_back(ArbiterReport{std::move(e)});
  }
  // The body of out[at], one of this arbiter's reports, of kind `Kind`.
  template <class Kind>
  static Kind& reported(ArbiterDecisions& out, std::size_t at) {
    return std::get<Kind>(std::get<ArbiterReport>(out[at]).event.body);
  }
  // Both return the handle of the proposal they opened (0: none, applied or final).
  // kReinstated: the position before the open window's irregularity (window_.before).
  std::uint32_t penalty(const GameTracker& game, Color offender, PenaltyKind kind, Millis amount,
                        PenaltyPosition position, const std::string& description, Millis now,
                        ArbiterDecisions& out);
  std::uint32_t game_end(GameResult result, TerminationKind termination, Finality finality,
                         const std::string& description, UnwinnabilityNote note, Millis now,
                         ArbiterDecisions& out);
  // A claim left to the arbiter: `decided` (a proposed claimDecided) is reported and
  // remembered; the claim's claimReceived, already reported in `out`, carries the same handle.
  void open_claim(GameEvent decided, ArbiterDecisions& out);
  void ruling(const GameTracker& game, const OperatorAction& a, Millis now, ArbiterDecisions& out);
  static void apply_time(Color to, Millis amount, ArbiterDecisions& out);
  void reinstate(const GameTracker& game, const Position& before, Millis now,
                 ArbiterDecisions& out);

  // arbiter_illegal.cpp
  // A completed illegal move made on the board, or an act off it treated as one (a press
  // without a move, D6; two hands, 7.5.4): only a move on the board stands or is undone.
  enum class IllegalAct : std::uint8_t { kOnBoard, kOffBoard };
  // One rung for `completed` (an illegalMoveCompleted: the tracker's, or a two-hands report).
  void illegal_ladder(const GameTracker& game, Color offender,
                      const events::IllegalMoveCompleted& completed, IllegalAct act, Millis now,
                      ArbiterDecisions& out);
  void close_window(const GameTracker& game, Millis now, ArbiterDecisions& out);
  void touch_obligation(const GameTracker& game, Millis now, ArbiterDecisions& out);
  void check_illegal_position(const GameTracker& game, Millis now, ArbiterDecisions& out);
  Position board_position(const GameTracker& game, Color to_move) const;
  void claim_illegal(const GameTracker& game, Color claimant, Millis now, ArbiterDecisions& out);
  void two_hands(const GameTracker& game, Color side, Millis now, ArbiterDecisions& out);

  // arbiter_claims.cpp
  void claim(const GameTracker& game, const OperatorAction& a, Millis now, ArbiterDecisions& out);
  void claim_draw(const GameTracker& game, const OperatorAction& a, ClaimKind kind, Millis now,
                  ArbiterDecisions& out);
  void claim_setup(const GameTracker& game, const OperatorAction& a, ClaimKind kind, Millis now,
                   ArbiterDecisions& out);
  void claim_qpf(const GameTracker& game, const OperatorAction& a, Millis now,
                 ArbiterDecisions& out);
  void resign(const GameTracker& game, Color side, Millis now, ArbiterDecisions& out);
  void draw_agreed(const GameTracker& game, Millis now, ArbiterDecisions& out);
  void decide_claim(const GameTracker& game, GameEvent decided, Millis now, ArbiterDecisions& out);
  void setup_window(const GameTracker& game, Millis now, ArbiterDecisions& out);
  void draw_claimable(const GameTracker& game, Millis now, ArbiterDecisions& out);

  // arbiter_end.cpp
  struct Ending {
    TerminationKind termination = TerminationKind::kDeadPosition;
    std::string description;
    std::vector<std::string> articles;
  };
  // D7 beyond checkmate and stalemate (the tracker's): fivefold, 75 moves, dead position.
  std::optional<Ending> ending(const GameTracker& game, const Position& pos);
  bool ends_by_itself(const GameTracker& game, const Position& pos) {
    return ending(game, pos).has_value();
  }
  Verdict dead_position_verdict(const Position& pos, AnalysisMode mode);
  void dead_position_suspected(const GameTracker& game, const Position& pos, Millis now,
                               ArbiterDecisions& out);
  void flag_claim(const GameTracker& game, Color claimant, Millis now, ArbiterDecisions& out);
  void flag_result(const GameTracker& game, Color flagged, Millis now, ArbiterDecisions& out);
  bool guideline_iii_3_1_applies(const GameTracker& game) const;
  void infraction(const GameTracker& game, Color side, Millis now, ArbiterDecisions& out);

  WinnabilityAnalyzer analyzer_;
  struct DeadVerdict {
    Key key = 0;
    AnalysisMode mode = AnalysisMode::kQuick;
    bool valid = false;
    Verdict verdict = Verdict::kUndetermined;
  };
  std::array<DeadVerdict, 8> dead_verdicts_{};  // the last positions judged (dead_position_verdict)
  std::size_t next_dead_verdict_ = 0;
  bool started_ = false;
  ProposalBook book_;
  IllegalWindow window_;
  // 7.5.1 reinstated: the offender's opponent may press once to hand the clock back.
  std::optional<Color> restart_owed_by_;
  // D4: the inferred first touched piece of the side on move and its legal targets.
  Square obligation_ = kNoSquare;
  bool obligation_has_targets_ = false;
  bool touched_before_claim_ = false;
  // D1: misplaced king/rooks at the start, and whether the claim window closed.
  std::array<bool, 2> king_misplaced_{};
  bool setup_window_closed_ = false;
  // D11: an illegal position reported, waiting for the next completed move.
  std::optional<IllegalPositionKind> illegal_position_;
  int illegal_position_moves_ = 0;
  std::array<bool, 2> flag_down_{};   // D10 claim-only sets: the flag shown by the clock
  std::array<int, 2> infractions_{};  // D13
  std::array<int, 2> two_hands_{};    // 7.5.4 reports (the tracker does not count them)
  std::vector<Key> suspected_;        // positions already reported as possibly dead
  bool fifty_claimable_reported_ = false;
  // D2/D7: a made legal move that ends the game by itself (fivefold, 75 moves, dead
  // position) completes once it has stood for game_end_stable, unless pressed first.
  struct PendingEnd {
    Move move;
    Key committed = 0;  // the position it was made from
    Millis due{0};
  };
  std::optional<PendingEnd> pending_end_;
  // (Every member above but analyzer_ belongs to one game: on_new_game resets them.)
};

}  // namespace eboard::engine
