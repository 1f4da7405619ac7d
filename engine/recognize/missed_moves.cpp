#include "engine/recognize/missed_moves.h"

#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

using Board = std::array<SquareCode, kSquareCount>;

bool matches(const Position& pos, const Board& board) {
  for (int s = 0; s < kSquareCount; ++s) {
    if (SquareCode(pos.piece_on(Square(s))) != board[s]) return false;
  }
  return true;
}

// Collects up to two sequences of exactly `depth` plies that end on `board` (two are
// enough to know the answer is not unique).
void search(Position& pos, const Board& board, int depth, std::vector<Move>& path,
            std::vector<std::vector<Move>>& found) {
  if (found.size() >= 2) return;
  if (depth == 0) {
    if (matches(pos, board)) found.push_back(path);
    return;
  }
  MoveList moves;
  generate_legal(pos, moves);
  for (const Move m : moves) {
    pos.make(m);
    path.push_back(m);
    search(pos, board, depth - 1, path, found);
    path.pop_back();
    pos.unmake(m);
    if (found.size() >= 2) return;
  }
}

// The one shortest sequence of legal moves from `committed` to `board`, if there is one:
// a second one of the same length is ambiguous.
MissedMoves shortest_unique(const Position& committed, const Board& board) {
  MissedMoves result;
  if (matches(committed, board)) {
    result.verdict = MissedMoves::Verdict::kUnchanged;
    return result;
  }
  Position pos = committed;
  for (int depth = 1; depth <= kMaxMissedPlies; ++depth) {
    std::vector<std::vector<Move>> found;
    std::vector<Move> path;
    search(pos, board, depth, path, found);
    if (found.empty()) continue;
    if (found.size() > 1) return result;
    result.verdict = MissedMoves::Verdict::kMoves;
    result.moves = found.front();
    return result;
  }
  return result;
}

}  // namespace

MissedMoves find_missed_moves(const Position& committed, const Board& board,
                              std::optional<Color> running) {
  MissedMoves result = shortest_unique(committed, board);
  if (result.verdict != MissedMoves::Verdict::kMoves) return result;
  // After an odd number of plies the other side is to move, and its clock must run.
  const Color to_move =
      result.moves.size() % 2 == 0 ? committed.side_to_move() : Color(1 - committed.side_to_move());
  if (!running || *running != to_move) return MissedMoves{};
  return result;
}

MissedMoves find_missed_moves_without_clock(const Position& committed, const Board& board,
                                            const std::vector<Move>& seen) {
  for (std::size_t known = seen.size(); known > 0; --known) {
    Position pos = committed;
    for (std::size_t i = 0; i < known; ++i) pos.make(seen[i]);
    MissedMoves rest = shortest_unique(pos, board);
    if (rest.verdict == MissedMoves::Verdict::kUnexplained) continue;
    MissedMoves result;
    result.verdict = MissedMoves::Verdict::kMoves;
    result.moves.assign(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(known));
    result.moves.insert(result.moves.end(), rest.moves.begin(), rest.moves.end());
    return result;
  }
  return shortest_unique(committed, board);
}

}  // namespace eboard::engine
