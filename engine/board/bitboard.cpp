#include "engine/board/bitboard.h"

#include <array>

namespace eboard::engine {
namespace detail {

Magic rook_magics[kSquareCount];
Magic bishop_magics[kSquareCount];
Bitboard pawn_attacks[2][kSquareCount];
Bitboard knight_attacks[kSquareCount];
Bitboard king_attacks[kSquareCount];
Bitboard between[kSquareCount][kSquareCount];
Bitboard line[kSquareCount][kSquareCount];

namespace {

// 102,400 rook and 5,248 bishop entries: the exact sizes of the fancy-magic tables.
Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

constexpr int kRookSteps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopSteps[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Slow ray walk, used only to fill the tables.
Bitboard slide(const int (&steps)[4][2], Square s, Bitboard occupied) {
  Bitboard attacks = 0;
  for (const auto& step : steps) {
    int f = file_of(s) + step[0], r = rank_of(s) + step[1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Bitboard b = square_bb(make_square(f, r));
      attacks |= b;
      if (occupied & b) break;
      f += step[0];
      r += step[1];
    }
  }
  return attacks;
}

Bitboard step_attacks(Square s, std::initializer_list<std::array<int, 2>> steps) {
  Bitboard attacks = 0;
  for (const auto& step : steps) {
    int f = file_of(s) + step[0], r = rank_of(s) + step[1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) attacks |= square_bb(make_square(f, r));
  }
  return attacks;
}

// xorshift64*: a small seeded generator; the magics depend only on the seed.
class Prng {
 public:
  explicit Prng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }

 private:
  std::uint64_t state_;
};

// Finds a magic for every square and fills its slice of `table`. Edge squares are left
// out of the mask because a blocker there never changes the attacks.
void init_magics(const int (&steps)[4][2], Magic (&magics)[kSquareCount], Bitboard* table) {
  Bitboard occupancies[4096], references[4096];
  int epoch[4096] = {};
  int attempt = 0;
  Prng prng(0x45426f617264ULL);  // "EBoard"
  Bitboard* slice = table;
  for (int sq = 0; sq < kSquareCount; ++sq) {
    Square s = Square(sq);
    Bitboard edges = ((kRank1 | kRank8) & ~rank_bb(rank_of(s))) |
                     ((kFileA | kFileH) & ~file_bb(file_of(s)));
    Magic& m = magics[sq];
    m.mask = slide(steps, s, 0) & ~edges;
    int bits = popcount(m.mask);
    m.shift = unsigned(64 - bits);
    m.attacks = slice;
    // Carry-Rippler walk over every subset of the mask.
    int size = 0;
    Bitboard subset = 0;
    do {
      occupancies[size] = subset;
      references[size] = slide(steps, s, subset);
      ++size;
      subset = (subset - m.mask) & m.mask;
    } while (subset);
#if defined(EBOARD_USE_PEXT)
    m.magic = 0;
    for (int i = 0; i < size; ++i) slice[m.index(occupancies[i])] = references[i];
#else
    for (bool found = false; !found;) {
      do m.magic = prng.sparse();
      while (popcount((m.mask * m.magic) >> 56) < 6);
      ++attempt;
      found = true;
      for (int i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancies[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          slice[idx] = references[i];
        } else if (slice[idx] != references[i]) {
          found = false;
          break;
        }
      }
    }
#endif
    slice += size;
  }
}

struct TablesInit {
  TablesInit() {
    for (int sq = 0; sq < kSquareCount; ++sq) {
      Square s = Square(sq);
      pawn_attacks[kWhite][sq] = step_attacks(s, {{1, 1}, {-1, 1}});
      pawn_attacks[kBlack][sq] = step_attacks(s, {{1, -1}, {-1, -1}});
      knight_attacks[sq] =
          step_attacks(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
      king_attacks[sq] =
          step_attacks(s, {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}});
    }
    init_magics(kRookSteps, rook_magics, rook_table);
    init_magics(kBishopSteps, bishop_magics, bishop_table);
    for (int a = 0; a < kSquareCount; ++a) {
      for (int b = 0; b < kSquareCount; ++b) {
        Square sa = Square(a), sb = Square(b);
        Bitboard bb = square_bb(sb);
        for (const auto* steps : {&kRookSteps, &kBishopSteps}) {
          if (a != b && (slide(*steps, sa, 0) & bb)) {
            line[a][b] = (slide(*steps, sa, 0) & slide(*steps, sb, 0)) | square_bb(sa) | bb;
            between[a][b] = slide(*steps, sa, bb) & slide(*steps, sb, square_bb(sa)) & line[a][b];
          }
        }
      }
    }
  }
};
const TablesInit tables_init;

}  // namespace
}  // namespace detail

Bitboard attacks_bb(PieceType type, Square s, Bitboard occupied) {
  switch (type) {
    case kKnight: return knight_attacks(s);
    case kBishop: return bishop_attacks(s, occupied);
    case kRook: return rook_attacks(s, occupied);
    case kQueen: return queen_attacks(s, occupied);
    case kKing: return king_attacks(s);
    default: return 0;
  }
}

}  // namespace eboard::engine
