#include "engine/rules/mate_search.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "engine/rules/mate_order.h"
#include "engine/rules/mate_walk.h"

namespace eboard::engine {
namespace {

constexpr std::size_t kTtSize = std::size_t(1) << 17;    // entries; a power of two
constexpr int kFullWidth = 255;                          // "unlimited" discrepancies
constexpr int kMaxLinePly = 400;                         // forced moves extend lines up to here
constexpr int kTried = std::numeric_limits<int>::min();  // no move scores this low
constexpr std::uint64_t kQuickBudget = 256;              // at most this: the short schedule

// {discrepancies, depth}; the full-width shallow passes catch short mates that the
// heuristics rank badly.
constexpr int kSchedule[][2] = {{0, 120},        {1, 60},         {kFullWidth, 3}, {2, 40},
                                {kFullWidth, 4}, {3, 30},         {kFullWidth, 5}, {4, 24},
                                {6, 20},         {kFullWidth, 6}, {8, 16},         {12, 14},
                                {kFullWidth, 7}, {20, 12},        {kFullWidth, 9}};
// A tiny budget (quick mode) goes to short lines: a long greedy line that fails would
// spend it all.
constexpr int kQuickSchedule[][2] = {{0, 16}, {1, 10}, {2, 8}, {3, 6}};

// Cheap test whether m may give check (direct, discovered, or a special move); a false
// "maybe" only costs a make/unmake.
bool may_check(const Position& pos, Move m, Square their_king) {
  if (m.kind() != MoveKind::kNormal) return true;
  const Square from = m.from(), to = m.to();
  const PieceType type = type_of(pos.piece_on(from));
  if (line_bb(from, their_king)) return true;  // a discovered check is possible
  if (type == kPawn) return (pawn_attacks(pos.side_to_move(), to) & square_bb(their_king)) != 0;
  if (type == kKing) return false;
  const Bitboard occupied = (pos.pieces() ^ square_bb(from)) | square_bb(to);
  return (attacks_bb(type, to, occupied) & square_bb(their_king)) != 0;
}

}  // namespace

bool is_checkmate(const Position& pos) { return pos.in_check() && count_legal(pos) == 0; }

void HelpmateSearch::score_moves(const MoveList& moves, int* scores) {
  MoveScorer scorer(pos_, winner_, MatePlan{mate_phase(pos_, winner_), corner_});
  for (int i = 0; i < moves.size(); ++i) scores[i] = scorer.score(moves[i]);
}

// The best move not yet tried (the first in generation order among equal scores, as a
// stable sort would give); it is marked as tried. A node with k discrepancies left tries
// only k+1 moves, so picking them one at a time beats sorting all ~35.
int HelpmateSearch::next_best(int* scores, int n) {
  int best = 0;
  for (int j = 1; j < n; ++j)
    if (scores[j] > scores[best]) best = j;
  scores[best] = kTried;
  return best;
}

// Entries are 8 bytes (a 1 MB table stays mostly in cache): 32 bits of the key beyond the
// index, 14 bits of the call's generation and the corner's index. A false hit (another
// position or an old call matching those bits) can only make the search skip a subtree:
// it hides a line, it never makes one, and this search never concludes "unwinnable".
std::uint16_t HelpmateSearch::tag() const {
  const int corner_index = (file_of(corner_) != 0) | (rank_of(corner_) != 0) << 1;
  return std::uint16_t((generation_ << 2) | std::uint32_t(corner_index));
}

bool HelpmateSearch::tt_failed(Key key, int depth, int discrepancies) const {
  const TtEntry& e = tt_[key & (kTtSize - 1)];
  const std::uint16_t now = tag();
  // A full-width failure holds whatever the ordering; a limited one only for the corner
  // (the ordering) it was found with.
  return e.check == std::uint32_t(key >> 32) && (e.tag >> 2) == (now >> 2) && e.depth >= depth &&
         e.discrepancies >= discrepancies && (e.discrepancies == kFullWidth || e.tag == now);
}

void HelpmateSearch::tt_store(Key key, int depth, int discrepancies) {
  TtEntry& e = tt_[key & (kTtSize - 1)];
  const std::uint16_t now = tag();
  const auto check = std::uint32_t(key >> 32);
  if (e.check == check && (e.tag >> 2) == (now >> 2)) {
    // keep whichever result covers more; when neither dominates, the newer one
    if (e.depth >= depth && e.discrepancies >= discrepancies &&
        (e.discrepancies == kFullWidth || e.tag == now))
      return;
  }
  // A depth beyond 255 (forced-move extensions) is stored as 255: a weaker claim.
  e = TtEntry{check, now, std::uint8_t(std::min(depth, 255)), std::uint8_t(discrepancies)};
}

bool has_mate_in_one(Position& pos, Color winner, const MoveList& moves, Move* mating) {
  const Square their_king = pos.king_square(~winner);
  for (Move m : moves) {
    if (!may_check(pos, m, their_king)) continue;
    pos.make(m);
    const bool mate = is_checkmate(pos);
    pos.unmake(m);
    if (mate) {
      if (mating) *mating = m;
      return true;
    }
  }
  return false;
}

bool every_move_allows_mate_in_one(Position& pos, Color winner, const MoveList& loser_moves) {
  for (Move m : loser_moves) {
    pos.make(m);
    MoveList replies;
    generate_legal(pos, replies);
    const bool mates = has_mate_in_one(pos, winner, replies);
    pos.unmake(m);
    if (!mates) return false;
  }
  return true;
}

bool HelpmateSearch::mate_in_one(const MoveList& moves) {
  Move mating;
  if (!has_mate_in_one(pos_, winner_, moves, &mating)) return false;
  line_.push_back(mating);
  return true;
}

bool HelpmateSearch::lds(int depth, int discrepancies, int ply) {
  if (++nodes_ > limit_) {
    aborted_ = true;
    return false;
  }
  const Color us = pos_.side_to_move();
  if (us == winner_ && pos_.pieces(winner_) == pos_.pieces(winner_, kKing)) return false;
  // One list per ply, kept between nodes: a local MoveList is 512 bytes zeroed on every
  // node (its Moves default to 0), which perf showed as half of this function's own time.
  // A deque keeps the lists of the plies above in place while it grows (ply grows by one
  // per level, so at most one list is added here).
  if (std::size_t(ply) == ply_moves_.size()) ply_moves_.emplace_back();
  MoveList& moves = ply_moves_[std::size_t(ply)];
  generate_legal(pos_, moves);
  // A mate reached on the way is the goal only for a helpmate: S4 13c(2) asks for a
  // position whose side to move has moves, all of them allowing a mate in one.
  if (moves.empty()) return goal_ == SearchGoal::kCheckmate && us != winner_ && pos_.in_check();
  // A forced move costs no depth (CHA's idea: such positions are advanced trivially);
  // the ply cap keeps the recursion bounded.
  if (moves.size() == 1 && ply < kMaxLinePly && depth > 0) ++depth;
  if (depth == 0) return false;
  const Key key = pos_.key();
  if (use_tt_ && tt_failed(key, depth, discrepancies)) return false;
  if (goal_ == SearchGoal::kForcedMateInOne) {
    if (us != winner_ && every_move_allows_mate_in_one(pos_, winner_, moves)) return true;
  } else if (us == winner_ && mate_in_one(moves)) {
    return true;
  }
  if (depth == 1 && goal_ == SearchGoal::kCheckmate) return false;  // mate-in-one was tried

  int scores[MoveList::kCapacity];
  score_moves(moves, scores);
  const int n = moves.size();
  // A reply of the loser at depth 1 leads somewhere only if it is forced (the forced-move
  // extension gives the winner one more ply for a mate in one); the others would be
  // visited just to learn that, so only a cheap count of the replies is made.
  const bool replies_must_be_forced =
      depth == 2 && us == winner_ && goal_ == SearchGoal::kCheckmate;
  for (int i = 0; i < n && i <= discrepancies; ++i) {
    const Move m = moves[next_best(scores, n)];
    pos_.make(m);
    if (replies_must_be_forced && count_legal(pos_) != 1) {
      pos_.unmake(m);
      continue;
    }
    const bool found = lds(depth - 1, discrepancies - i, ply + 1);
    pos_.unmake(m);
    if (found) {
      line_.push_back(m);
      return true;
    }
    if (aborted_) return false;
  }
  if (use_tt_) tt_store(key, depth, discrepancies);
  return false;
}

// One attempt: the loser's king is sent to `corner`; limited-discrepancy passes, long
// narrow lines first, then wider and shorter ones, until `attempt_limit` nodes are spent.
bool HelpmateSearch::attempt(const Position& root, Square corner, std::uint64_t attempt_limit,
                             int widest) {
  corner_ = corner;
  pos_ = root;
  line_.clear();
  limit_ = std::min(total_limit_, nodes_ + attempt_limit);
  aborted_ = false;
  if (total_limit_ <= kQuickBudget) {
    for (const auto& step : kQuickSchedule)
      if (lds(step[1], step[0], 0) || aborted_) return !aborted_;
    return false;
  }
  for (const auto& step : kSchedule) {
    if (step[0] > widest) continue;
    if (lds(step[1], step[0], 0)) return true;
    if (aborted_) break;
  }
  return false;
}

SearchResult HelpmateSearch::find_helpmate(const Position& root, Color winner,
                                           std::uint64_t node_limit, SearchGoal goal) {
  // A quick search revisits almost nothing: the table would only cost cache misses (and
  // its 2 MB on the first call).
  use_tt_ = node_limit > kQuickBudget;
  if (use_tt_ && tt_.empty()) tt_.resize(kTtSize);
  goal_ = goal;
  winner_ = winner;
  nodes_ = 0;
  total_limit_ = node_limit;
  ++generation_;  // the table's facts hold for one root and winner
  Square corners[4];
  const int count = corner_candidates(root, winner, corners);

  // Greedy search is heavy-tailed: restarts with another mating corner and a doubled
  // budget find more lines than one long run with the same total.
  bool found = false;
  std::uint64_t budget = 256;
  for (int round = 0; !found && nodes_ < total_limit_; ++round, budget *= 2) {
    const int widest = round == 0 ? 1 : kFullWidth;
    for (int c = 0; c < count && !found && nodes_ < total_limit_; ++c) {
      if (round == 0 && c > 0) break;  // the first, cheapest try: best corner only
      found = attempt(root, corners[c], budget, widest);
    }
  }
  SearchResult result;
  result.nodes = std::min(nodes_, total_limit_);
  if (found) {
    result.outcome = SearchOutcome::kMateFound;
    result.line.assign(line_.rbegin(), line_.rend());
  }
  return result;
}

SearchResult HelpmateSearch::explore_all(const Position& root, Color winner,
                                         std::uint64_t node_limit, StaticProof prune,
                                         SearchGoal goal) {
  Square corners[4];
  corner_candidates(root, winner, corners);
  walk_.start(root, winner, corners[0], prune, goal);
  SearchResult result;
  result.outcome = walk_.run(node_limit);
  result.nodes = walk_.nodes();
  if (result.outcome == SearchOutcome::kMateFound) result.line = walk_.line();
  return result;
}

}  // namespace eboard::engine
