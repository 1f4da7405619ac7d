// Move ordering for the helpmate search (mate_search.h): a "plan" for the cooperative
// mate, chosen from the material, and a score per move saying how well it serves the plan.
//
// The ideas are those published for the Chess Unwinnability Analyzer
// (M. Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022: drive the loser's king to
// a mating corner, bring the winner's units close, keep the winner's material, promote); the
// scoring is our own. Ordering only decides which lines are tried first: it can never make a
// verdict wrong, since a line the search returns is checked move by move to end in checkmate.
#pragma once

#include "engine/board/movegen.h"
#include "engine/board/position.h"

namespace eboard::engine {

// What the winner still needs, recomputed at every node from the material (a few
// popcounts).
enum class MatePhase : std::uint8_t {
  kStrong,   // a queen or rook, or two minors that are not same-coloured bishops
  kPromote,  // only weak pieces but pawns: promote one first
  kBlockers  // only a lone minor (or same-coloured bishops): the loser's own units must
             // block its king's flights, so the loser keeps and gathers them (a pawn
             // already on a flight square stays; units on the check's line leave), and
             // the minor keeps off the king's way until the king is in the corner, then
             // gives no check but the mating one
};

struct MatePlan {
  MatePhase phase = MatePhase::kStrong;
  Square corner = kA1;  // where the loser's king is sent
};

// The corner candidates for the loser's king, best first (`count` of them), for `winner`.
int corner_candidates(const Position& pos, Color winner, Square (&corners)[4]);
MatePhase mate_phase(const Position& pos, Color winner);

// Scores the moves of one node (higher is tried first). What does not depend on the move
// (the winner's attack map, the pawns' paths, the king zone) is computed once per node,
// and a piece's attacks from its square once per piece: scoring was a quarter of the
// search's time when recomputed for every move.
class MoveScorer {
 public:
  MoveScorer(const Position& pos, Color winner, const MatePlan& plan);
  int score(Move m);

 private:
  int zone_hits_from(Square from, PieceType type);

  const Position& pos_;
  Color winner_;
  MatePlan plan_;
  bool winner_to_move_;
  Square their_king_;      // the loser's king
  Bitboard zone_ = 0;      // the loser's king and its neighbours
  Bitboard paths_ = 0;     // squares in front of the winner's pawns
  Bitboard attacked_ = 0;  // squares the winner attacks now (for the loser's moves)
  Bitboard blocker_spots_ = 0;
  Bitboard check_line_ = 0;   // a lone bishop's check runs through here into the corner
  Bitboard corner_zone_ = 0;  // the mating corner and its neighbours
  Bitboard mate_lines_ = 0;   // where a lone minor checks the corner from or through
  Square promote_target_ = kNoSquare;
  int from_hits_[kSquareCount];  // zone squares a winner piece attacks from its square
};

// Score of move m in pos (a MoveScorer for one move).
int score_move(const Position& pos, Move m, Color winner, const MatePlan& plan);

}  // namespace eboard::engine
