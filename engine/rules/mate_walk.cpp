// ExhaustiveWalk (mate_walk.h) and the key of a child without making the move.
//
// Where the time goes (perf on the CHA vectors): the visited-set probe of each child is a
// cache miss (the set grows to megabytes), and scoring every move of every node for the
// best-first order was another fifth. So a node is expanded in two passes: first each
// child's key is computed and its slot prefetched, then the slots are probed together
// (their misses overlap) and the children already visited are dropped before they are
// scored. A child visited now is visited for good (the set only grows), so dropping it
// changes nothing: the survivors keep their relative order and the walk, its node count
// and the mate it meets are exactly those of probing each child when its turn comes.
#include "engine/rules/mate_walk.h"

#include <algorithm>

#include "engine/rules/mate_order.h"
#include "engine/rules/mate_search.h"

namespace eboard::engine {
namespace {

constexpr std::size_t kMaxExploreDepth = 1 << 20;  // plies on the explicit stack
constexpr std::size_t kMinVisitedSlots = 4096;

// Castling rights lost when a unit leaves or lands on a square (the kings' and rooks'
// home squares; FIDE 3.8.2.1).
CastlingRights rights_lost(Square s) {
  switch (s) {
    case kE1: return CastlingRights(kWhiteKingside | kWhiteQueenside);
    case kH1: return kWhiteKingside;
    case kA1: return kWhiteQueenside;
    case kE8: return CastlingRights(kBlackKingside | kBlackQueenside);
    case kH8: return kBlackKingside;
    case kA8: return kBlackQueenside;
    default: return kNoCastling;
  }
}

// Position::key() beyond the placement (its full_key; the tests hold the two equal).
Key state_key(Color side_to_move, CastlingRights rights, Square en_passant) {
  Key k = zobrist::castling(rights);
  if (en_passant != kNoSquare) k ^= zobrist::en_passant_file(file_of(en_passant));
  if (side_to_move == kBlack) k ^= zobrist::black_to_move();
  return k;
}

void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

}  // namespace

// The visited set's key is Position::key()'s value (placement, side to move, castling
// rights, en passant square only when a capture onto it is legal: what makes two positions
// the same, FIDE 9.2.2), but for a child it is computed without making the move: make and
// unmake of every child were an eighth of the pass. Only a double step next to an enemy
// pawn is made, to learn whether Position keeps the en passant square.
Key explore_key_after(Position& pos, Move m) {
  const Square from = m.from(), to = m.to();
  const Color us = pos.side_to_move();
  const Piece moved = pos.piece_on(from);
  if (type_of(moved) == kPawn && (to - from == 16 || from - to == 16) &&
      (pawn_attacks(us, Square((from + to) / 2)) & pos.pieces(~us, kPawn))) {
    pos.make(m);
    const Key key = pos.key();
    pos.unmake(m);
    return key;
  }
  // A normal move (nearly all of them) inline: Position::placement_key_after is a call.
  const Key placement = m.kind() == MoveKind::kNormal
                            ? pos.placement_key() ^ zobrist::piece_square(moved, from) ^
                                  zobrist::piece_square(moved, to) ^
                                  zobrist::piece_square(pos.piece_on(to), to)
                            : pos.placement_key_after(m);
  auto rights = pos.castling_rights();
  if (rights != kNoCastling)
    rights = CastlingRights(rights & ~(rights_lost(from) | rights_lost(to)));
  return placement ^ state_key(~us, rights, kNoSquare);
}

std::size_t ExhaustiveWalk::visited_slot(Key key) const {
  // Zobrist keys are uniform: their low bits are as good an index as any.
  return std::size_t(key) & (visited_.size() - 1);
}

bool ExhaustiveWalk::visited(Key key) const {
  if (key == 0) key = 1;  // 0 marks an empty slot
  const std::size_t mask = visited_.size() - 1;
  for (std::size_t i = visited_slot(key);; i = (i + 1) & mask) {
    if (visited_[i] == key) return true;
    if (visited_[i] == 0) return false;
  }
}

bool ExhaustiveWalk::visit(Key key) {
  if (key == 0) key = 1;
  if (2 * (visited_used_.size() + 1) > visited_.size()) {
    // Grow (load at most 1/2): re-insert every key in the order it came.
    std::vector<std::uint32_t> used;
    used.swap(visited_used_);
    std::vector<Key> old;
    old.swap(visited_);
    visited_.assign(std::max(kMinVisitedSlots, old.size() * 2), 0);
    visited_used_.reserve(visited_.size() / 2);
    for (std::uint32_t slot : used) visit(old[slot]);
  }
  const std::size_t mask = visited_.size() - 1;
  for (std::size_t i = visited_slot(key);; i = (i + 1) & mask) {
    if (visited_[i] == key) return false;
    if (visited_[i] == 0) {
      visited_[i] = key;
      visited_used_.push_back(std::uint32_t(i));
      return true;
    }
  }
}

// Empties the set by clearing only the slots in use: a table grown to megabytes by one
// large query would otherwise cost a megabyte memset on every small query after it.
void ExhaustiveWalk::clear_visited() {
  for (std::uint32_t slot : visited_used_) visited_[slot] = 0;
  visited_used_.clear();
  if (visited_.empty()) visited_.assign(kMinVisitedSlots, 0);
}

// Appends to the arena the children of pos_ (its legal moves, in moves_) not visited yet,
// in generation order, each with its score by the plan (the walk takes them best first).
void ExhaustiveWalk::push_unvisited() {
  const int n = moves_.size();
  Key keys[MoveList::kCapacity];
  // Without castling rights (nearly every node of the pass) a normal move other than a
  // pawn's double step changes the key by its three piece-square terms alone; the rest of
  // the key is the same for every child.
  const bool no_rights = pos_.castling_rights() == kNoCastling;
  const Key base = pos_.placement_key() ^ state_key(~pos_.side_to_move(), kNoCastling, kNoSquare);
  for (int i = 0; i < n; ++i) {
    const Move m = moves_[i];
    const Square from = m.from(), to = m.to();
    const Piece moved = pos_.piece_on(from);
    const bool double_step = type_of(moved) == kPawn && (from ^ to) == 16;
    keys[i] = no_rights && m.kind() == MoveKind::kNormal && !double_step
                  ? base ^ zobrist::piece_square(moved, from) ^ zobrist::piece_square(moved, to) ^
                        zobrist::piece_square(pos_.piece_on(to), to)
                  : explore_key_after(pos_, m);
    prefetch(&visited_[visited_slot(keys[i] ? keys[i] : 1)]);
  }
  const std::size_t first = arena_.size();
  for (int i = 0; i < n; ++i)
    if (!visited(keys[i])) arena_.push_back(Child{keys[i], moves_[i], 0});
  if (arena_.size() - first > 1) {
    MoveScorer scorer(pos_, winner_, MatePlan{mate_phase(pos_, winner_), corner_});
    for (std::size_t j = first; j < arena_.size(); ++j)
      arena_[j].score = scorer.score(arena_[j].move);
  }
}

void ExhaustiveWalk::push_frame(Move via) {
  Frame f;
  f.via = via;
  f.begin = std::uint32_t(arena_.size());
  push_unvisited();
  f.end = std::uint32_t(arena_.size());
  stack_.push_back(f);
}

// The best child of the frame not taken yet (the first in generation order among equal
// scores: the order a stable sort by score gives); -1 when none is left. The walk takes
// the best child and then, after its subtree, the next: by then most siblings were visited
// in that subtree (~88% on the vectors), so picking one at a time scans a few entries
// where sorting them all at expansion sorted ~9.
std::int64_t ExhaustiveWalk::best_untaken(const Frame& frame) const {
  std::int64_t best = -1;
  for (std::uint32_t j = frame.begin; j < frame.end; ++j)
    if (arena_[j].score != kTaken && (best < 0 || arena_[j].score > arena_[best].score)) best = j;
  return best;
}

SearchOutcome ExhaustiveWalk::finish(SearchOutcome outcome) {
  ended_ = true;
  outcome_ = outcome;
  if (outcome == SearchOutcome::kMateFound) {
    line_.clear();
    for (std::size_t i = 1; i < stack_.size(); ++i) line_.push_back(stack_[i].via);
  }
  return outcome;
}

void ExhaustiveWalk::release_large_tables() {
  constexpr std::size_t kKeepBytes = 1 << 20;
  ended_ = true;
  outcome_ = SearchOutcome::kLimitReached;
  if (visited_.size() * sizeof(Key) > kKeepBytes) {
    std::vector<Key>().swap(visited_);
    std::vector<std::uint32_t>().swap(visited_used_);
  }
  if (arena_.capacity() * sizeof(Child) > kKeepBytes) std::vector<Child>().swap(arena_);
  if (stack_.capacity() * sizeof(Frame) > kKeepBytes) std::vector<Frame>().swap(stack_);
}

void ExhaustiveWalk::start(const Position& root, Color winner, Square corner, StaticProof prune,
                           SearchGoal goal) {
  pos_ = root;
  winner_ = winner;
  corner_ = corner;
  prune_ = prune;
  goal_ = goal;
  nodes_ = 0;
  ended_ = false;
  incomplete_ = false;
  arena_.clear();
  stack_.clear();
  line_.clear();
  clear_visited();
  visit(pos_.key());
  generate_legal(pos_, moves_);
  if (goal == SearchGoal::kForcedMateInOne && pos_.side_to_move() != winner && !moves_.empty() &&
      every_move_allows_mate_in_one(pos_, winner, moves_)) {
    finish(SearchOutcome::kMateFound);
    return;
  }
  if (moves_.empty()) {
    finish(goal == SearchGoal::kCheckmate && pos_.in_check() && pos_.side_to_move() != winner
               ? SearchOutcome::kMateFound
               : SearchOutcome::kExhausted);
    return;
  }
  push_frame(Move());
}

SearchOutcome ExhaustiveWalk::run(std::uint64_t more_nodes) {
  if (ended_) return outcome_;
  const std::uint64_t stop = nodes_ + more_nodes;
  while (!stack_.empty()) {
    Frame& top = stack_.back();
    const std::int64_t next = best_untaken(top);
    if (next < 0) {
      const Move via = top.via;
      arena_.resize(top.begin);
      stack_.pop_back();
      if (!stack_.empty()) pos_.unmake(via);
      continue;
    }
    Child& child = arena_[std::size_t(next)];
    // Visited since this node was expanded (by a sibling's subtree): skipped unmade.
    if (visited(child.key)) {
      child.score = kTaken;
      continue;
    }
    // Paused just before a new node: the child stays untaken and is taken first on resume.
    if (nodes_ >= stop) return SearchOutcome::kLimitReached;
    child.score = kTaken;
    visit(child.key);
    const Move m = child.move;
    const bool irreversible = pos_.is_capture(m) || type_of(pos_.piece_on(m.from())) == kPawn;
    pos_.make(m);
    ++nodes_;
    if (irreversible && prune_(pos_, winner_)) {
      pos_.unmake(m);
      continue;
    }
    generate_legal(pos_, moves_);
    if (moves_.empty()) {
      if (goal_ == SearchGoal::kCheckmate && pos_.in_check() && pos_.side_to_move() != winner_) {
        stack_.push_back(Frame{std::uint32_t(arena_.size()), std::uint32_t(arena_.size()), m});
        return finish(SearchOutcome::kMateFound);
      }
      pos_.unmake(m);
      continue;
    }
    if (goal_ == SearchGoal::kForcedMateInOne && pos_.side_to_move() != winner_ &&
        every_move_allows_mate_in_one(pos_, winner_, moves_)) {
      stack_.push_back(Frame{std::uint32_t(arena_.size()), std::uint32_t(arena_.size()), m});
      return finish(SearchOutcome::kMateFound);
    }
    // Each frame on the path is a distinct visited node, so the depth is bounded by the
    // node limit; this cap only keeps a runaway budget from eating memory.
    if (stack_.size() >= kMaxExploreDepth) {
      incomplete_ = true;
      pos_.unmake(m);
      continue;
    }
    push_frame(m);
  }
  return finish(incomplete_ ? SearchOutcome::kLimitReached : SearchOutcome::kExhausted);
}

}  // namespace eboard::engine
