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

// `board` is `pos` with a piece in a hand, or with both pieces of a capture in the hands
// (the mover's and a victim it can take): a move being made there.
bool in_hands(const Position& pos, const Board& board) {
  std::array<Square, 2> lifted{};
  int count = 0;
  for (int s = 0; s < kSquareCount; ++s) {
    if (SquareCode(pos.piece_on(Square(s))) == board[s]) continue;
    if (board[s] != kEmptyCode || count == 2) return false;
    lifted[count++] = Square(s);
  }
  if (count == 1) return true;
  if (count == 0) return false;
  MoveList moves;
  generate_legal(pos, moves);
  for (const Move m : moves) {
    const bool pair = (m.from() == lifted[0] && m.to() == lifted[1]) ||
                      (m.from() == lifted[1] && m.to() == lifted[0]);
    if (pair && pos.is_capture(m) && m.kind() != MoveKind::kEnPassant) return true;
  }
  return false;
}

// A move in progress from `pos`, or the opponent's begun on top of one made: pieces in the
// hands of `pos` or of one of its successors. Such a board is no sequence of moves yet,
// however many a search could fit to it: a piece held is a piece missing, which captures
// explain too (a rook on d1 and the queen lifted from d8 is also Re1 Qd1 Rxd1).
bool move_in_progress(const Position& pos, const Board& board) {
  if (in_hands(pos, board)) return true;
  MoveList moves;
  generate_legal(pos, moves);
  Position next = pos;
  for (const Move m : moves) {
    next.make(m);
    const bool held = in_hands(next, board);
    next.unmake(m);
    if (held) return true;
  }
  return false;
}

// The one shortest sequence of legal moves from `committed` to `board`, if there is one:
// a second one of the same length is ambiguous. The callers rule out a move in progress
// first (move_in_progress).
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
  if (move_in_progress(committed, board)) return MissedMoves{};
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
    // Pieces in the hands after moves seen made: the next one is being made.
    if (move_in_progress(pos, board)) return MissedMoves{};
    MissedMoves rest = shortest_unique(pos, board);
    if (rest.verdict == MissedMoves::Verdict::kUnexplained) continue;
    MissedMoves result;
    result.verdict = MissedMoves::Verdict::kMoves;
    result.moves.assign(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(known));
    result.moves.insert(result.moves.end(), rest.moves.begin(), rest.moves.end());
    return result;
  }
  if (move_in_progress(committed, board)) return MissedMoves{};
  return shortest_unique(committed, board);
}

}  // namespace eboard::engine
