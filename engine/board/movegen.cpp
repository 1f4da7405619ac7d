#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

// The two ways of consuming generated moves: listing them, or only counting them.
class ListSink {
 public:
  explicit ListSink(MoveList& list) : list_(list) {}
  void add(Square from, Bitboard targets) {
    while (targets) list_.push(Move(from, pop_lsb(targets)));
  }
  // Pawn moves given by their destination squares; from = to - offset.
  void add_pawn(Bitboard targets, int offset) {
    while (targets) {
      Square to = pop_lsb(targets);
      list_.push(Move(Square(to - offset), to));
    }
  }
  void add_promotions(Bitboard targets, int offset) {
    while (targets) {
      Square to = pop_lsb(targets);
      add_promotion(Square(to - offset), to);
    }
  }
  void add_promotion(Square from, Square to) {
    for (PieceType t : {kQueen, kRook, kBishop, kKnight})
      list_.push(Move(from, to, MoveKind::kPromotion, t));
  }
  void add_one(Move m) { list_.push(m); }

 private:
  MoveList& list_;
};

class CountSink {
 public:
  void add(Square, Bitboard targets) { count_ += popcount(targets); }
  void add_pawn(Bitboard targets, int) { count_ += popcount(targets); }
  void add_promotions(Bitboard targets, int) { count_ += 4 * popcount(targets); }
  void add_promotion(Square, Square) { count_ += 4; }
  void add_one(Move) { ++count_; }
  int count() const { return count_; }

 private:
  int count_ = 0;
};

// True when a piece of colour Them attacks s, given the occupancy. The cheap step
// attacks are tried before the slider lookups.
template <Color Them>
bool attacked_by(const Position& pos, Square s, Bitboard occupied) {
  return (pawn_attacks(~Them, s) & pos.pieces(Them, kPawn)) ||
         (knight_attacks(s) & pos.pieces(Them, kKnight)) ||
         (king_attacks(s) & pos.pieces(Them, kKing)) ||
         (bishop_attacks(s, occupied) & pos.pieces(Them, kBishop, kQueen)) ||
         (rook_attacks(s, occupied) & pos.pieces(Them, kRook, kQueen));
}

// An en passant capture from `from` is legal unless it leaves the king attacked: by a
// pin, by the rank-wise double discovery, or by a checker it does not remove.
template <Color Us>
bool en_passant_is_legal(const Position& pos, Square from, Square to, Square king) {
  Square victim = Square(to ^ 8);
  Bitboard occupied = (pos.pieces() ^ square_bb(from) ^ square_bb(victim)) | square_bb(to);
  return !(pos.attackers_to(king, occupied) & pos.pieces(~Us) & ~square_bb(victim));
}

template <Color Us, class Sink>
void generate_pawn_moves(const Position& pos, Sink& sink, Bitboard pinned, Bitboard target_mask,
                         Square king) {
  constexpr Color Them = ~Us;
  constexpr int kUp = Us == kWhite ? 8 : -8;
  constexpr int kUpWest = Us == kWhite ? 7 : -9;
  constexpr int kUpEast = Us == kWhite ? 9 : -7;
  constexpr Bitboard kLastRank = Us == kWhite ? kRank8 : kRank1;
  constexpr Bitboard kThirdRank = Us == kWhite ? kRank3 : kRank6;
  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(Them) & target_mask;
  const Bitboard pawns = pos.pieces(Us, kPawn) & ~pinned;

  Bitboard single = pawn_push<Us>(pawns) & empty;
  Bitboard twice = pawn_push<Us>(single & kThirdRank) & empty & target_mask;
  single &= target_mask;
  Bitboard west = (Us == kWhite ? north_west(pawns) : south_west(pawns)) & enemies;
  Bitboard east = (Us == kWhite ? north_east(pawns) : south_east(pawns)) & enemies;
  sink.add_pawn(single & ~kLastRank, kUp);
  sink.add_pawn(twice, 2 * kUp);
  sink.add_pawn(west & ~kLastRank, kUpWest);
  sink.add_pawn(east & ~kLastRank, kUpEast);
  sink.add_promotions(single & kLastRank, kUp);
  sink.add_promotions(west & kLastRank, kUpWest);
  sink.add_promotions(east & kLastRank, kUpEast);

  // A pinned pawn moves only along the line through its king.
  for (Bitboard b = pos.pieces(Us, kPawn) & pinned; b;) {
    Square from = pop_lsb(b);
    Bitboard push = pawn_push<Us>(square_bb(from)) & empty;
    Bitboard targets =
        push | (pawn_push<Us>(push & kThirdRank) & empty) | (pawn_attacks(Us, from) & enemies);
    targets &= target_mask & line_bb(king, from);
    while (targets) {
      Square to = pop_lsb(targets);
      if (square_bb(to) & kLastRank)
        sink.add_promotion(from, to);
      else
        sink.add_one(Move(from, to));
    }
  }

  Square ep = pos.en_passant_square();
  if (ep != kNoSquare) {
    for (Bitboard b = pawn_attacks(Them, ep) & pos.pieces(Us, kPawn); b;) {
      Square from = pop_lsb(b);
      if (en_passant_is_legal<Us>(pos, from, ep, king))
        sink.add_one(Move(from, ep, MoveKind::kEnPassant));
    }
  }
}

template <Color Us, class Sink>
void generate_castling(const Position& pos, Sink& sink) {
  // Rights imply the king and the rook stand on their original squares (Position keeps
  // that invariant); the squares between must be empty and the king may not pass or land
  // on an attacked square. The king is not in check here.
  constexpr CastlingRights kKingside = Us == kWhite ? kWhiteKingside : kBlackKingside;
  constexpr CastlingRights kQueenside = Us == kWhite ? kWhiteQueenside : kBlackQueenside;
  constexpr Square kKing = Us == kWhite ? kE1 : kE8;
  const Bitboard occupied = pos.pieces();
  if (pos.can_castle(kKingside)) {
    constexpr Bitboard kPath = square_bb(Square(kKing + 1)) | square_bb(Square(kKing + 2));
    if (!(occupied & kPath) && !attacked_by<~Us>(pos, Square(kKing + 1), occupied) &&
        !attacked_by<~Us>(pos, Square(kKing + 2), occupied))
      sink.add_one(Move(kKing, Square(kKing + 2), MoveKind::kCastling));
  }
  if (pos.can_castle(kQueenside)) {
    constexpr Bitboard kEmpty =
        square_bb(Square(kKing - 1)) | square_bb(Square(kKing - 2)) | square_bb(Square(kKing - 3));
    if (!(occupied & kEmpty) && !attacked_by<~Us>(pos, Square(kKing - 1), occupied) &&
        !attacked_by<~Us>(pos, Square(kKing - 2), occupied))
      sink.add_one(Move(kKing, Square(kKing - 2), MoveKind::kCastling));
  }
}

template <Color Us, class Sink>
void generate(const Position& pos, Sink& sink) {
  constexpr Color Them = ~Us;
  const Square king = pos.king_square(Us);
  const Bitboard ours = pos.pieces(Us), theirs = pos.pieces(Them);
  const Bitboard occupied = ours | theirs;
  const Bitboard their_king = pos.pieces(Them, kKing);
  const Bitboard their_rooks = pos.pieces(Them, kRook, kQueen);
  const Bitboard their_bishops = pos.pieces(Them, kBishop, kQueen);

  // King steps: each free square is tested with the king lifted off the board, so that
  // it cannot hide behind itself on a slider's line. A king is never captured, not even
  // in an irregular position (docs/rules.md D5).
  const Bitboard without_king = occupied ^ square_bb(king);
  Bitboard safe = 0;
  for (Bitboard b = king_attacks(king) & ~ours & ~their_king; b;) {
    Square to = pop_lsb(b);
    if (!attacked_by<Them>(pos, to, without_king)) safe |= square_bb(to);
  }
  sink.add(king, safe);

  // Checkers and pins in one pass over the enemy sliders that see the king through our
  // own pieces: nothing between means check, exactly one of ours between means a pin.
  Bitboard checkers = (knight_attacks(king) & pos.pieces(Them, kKnight)) |
                      (pawn_attacks(Us, king) & pos.pieces(Them, kPawn));
  Bitboard pinned = 0;
  for (Bitboard snipers = (rook_attacks(king, theirs) & their_rooks) |
                          (bishop_attacks(king, theirs) & their_bishops);
       snipers;) {
    Square sniper = pop_lsb(snipers);
    Bitboard between = between_bb(king, sniper) & occupied;
    if (!between)
      checkers |= square_bb(sniper);
    else if (!more_than_one(between))
      pinned |= between;
  }
  if (more_than_one(checkers)) return;

  Bitboard target_mask = ~ours & ~their_king;
  if (checkers) target_mask &= between_bb(king, lsb(checkers)) | checkers;

  for (Bitboard b = pos.pieces(Us, kKnight) & ~pinned; b;) {
    Square from = pop_lsb(b);
    sink.add(from, knight_attacks(from) & target_mask);
  }
  for (Bitboard b = pos.pieces(Us, kBishop, kQueen); b;) {
    Square from = pop_lsb(b);
    Bitboard targets = bishop_attacks(from, occupied) & target_mask;
    if (pinned & square_bb(from)) targets &= line_bb(king, from);
    sink.add(from, targets);
  }
  for (Bitboard b = pos.pieces(Us, kRook, kQueen); b;) {
    Square from = pop_lsb(b);
    Bitboard targets = rook_attacks(from, occupied) & target_mask;
    if (pinned & square_bb(from)) targets &= line_bb(king, from);
    sink.add(from, targets);
  }
  generate_pawn_moves<Us>(pos, sink, pinned, target_mask, king);
  if (!checkers) generate_castling<Us>(pos, sink);
}

template <Color Us>
std::uint64_t perft_impl(Position& pos, int depth) {
  if (depth == 1) {
    CountSink counter;
    generate<Us>(pos, counter);
    return std::uint64_t(counter.count());
  }
  MoveList list;
  ListSink sink(list);
  generate<Us>(pos, sink);
  std::uint64_t nodes = 0;
  for (Move m : list) {
    pos.make(m);
    nodes += perft_impl<~Us>(pos, depth - 1);
    pos.unmake(m);
  }
  return nodes;
}

}  // namespace

void generate_legal(const Position& pos, MoveList& list) {
  list.clear();
  ListSink sink(list);
  if (pos.side_to_move() == kWhite)
    generate<kWhite>(pos, sink);
  else
    generate<kBlack>(pos, sink);
}

int count_legal(const Position& pos) {
  CountSink counter;
  if (pos.side_to_move() == kWhite)
    generate<kWhite>(pos, counter);
  else
    generate<kBlack>(pos, counter);
  return counter.count();
}

std::uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  return pos.side_to_move() == kWhite ? perft_impl<kWhite>(pos, depth)
                                      : perft_impl<kBlack>(pos, depth);
}

bool Position::is_legal(Move m) const {
  MoveList list;
  generate_legal(*this, list);
  return list.contains(m);
}

}  // namespace eboard::engine
