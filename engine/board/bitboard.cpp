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

// Magics our own seeded search below found once. They are tried first so that start-up
// takes microseconds instead of the search's ~200 ms; every one is still verified
// against every occupancy subset, and the search takes over should one ever fail.
constexpr Bitboard kKnownRookMagics[kSquareCount] = {
    0x008000502A400180ULL, 0x2080200010804003ULL, 0x0A00120008204280ULL, 0x0100100021000804ULL,
    0x0200020010090420ULL, 0x050009003A080400ULL, 0x1080420001000080ULL, 0x4080010000204080ULL,
    0x0000802080004000ULL, 0x0080804000802000ULL, 0x1141801000200080ULL, 0x0040800800801000ULL,
    0x0011000802041100ULL, 0x0C12004200081004ULL, 0x1004008410310A08ULL, 0x0041000082004100ULL,
    0x0B80004040002000ULL, 0xA500810040010020ULL, 0x0032020010204088ULL, 0x1050004008040040ULL,
    0x8000818008002400ULL, 0x000A008004000280ULL, 0x0000440055300E08ULL, 0x4308020001008054ULL,
    0x003080E18000C00AULL, 0x2020210100400080ULL, 0x0101468200201201ULL, 0x0800100080800800ULL,
    0x0050040280080080ULL, 0x2102000200081004ULL, 0x0202010080800200ULL, 0x2000148200111044ULL,
    0x1000408001002100ULL, 0x0048884000802003ULL, 0x0000802000801000ULL, 0x4000201001000901ULL,
    0x8800480005001100ULL, 0x008C040080800200ULL, 0x0013000403000200ULL, 0x3011804082000134ULL,
    0x2480002000404000ULL, 0x0290004020014004ULL, 0x0900820010420020ULL, 0x0004221042020008ULL,
    0x1052002008120004ULL, 0x005A001004020008ULL, 0x0406011048040002ULL, 0x0000028400460009ULL,
    0x0192090040288600ULL, 0x0104422201118200ULL, 0x0140482004110100ULL, 0x0826201001010D00ULL,
    0x1204040008028080ULL, 0x20A0020004008080ULL, 0x0040021891100400ULL, 0x0040340889004200ULL,
    0x0812218004C01105ULL, 0x1028128540010021ULL, 0x050600A042100882ULL, 0x2022000420081042ULL,
    0x4002001008042002ULL, 0x0242000401081002ULL, 0x0000100A27081084ULL, 0x19800044810C0C22ULL,
};
constexpr Bitboard kKnownBishopMagics[kSquareCount] = {
    0x08201105420C0040ULL, 0x12208A0403022002ULL, 0x0114130202080000ULL, 0x2004040091010030ULL,
    0x0B01104100801844ULL, 0x000101A050000100ULL, 0x1100640414405000ULL, 0xC601108828080400ULL,
    0x0008108202042400ULL, 0x00A0100428004042ULL, 0x1000840104210100ULL, 0x2800880A00208048ULL,
    0x1008108820001010ULL, 0x0000020210061801ULL, 0x0000104104104080ULL, 0x2022011092100204ULL,
    0x0220001020528080ULL, 0x8410044202020408ULL, 0x0440900802001020ULL, 0x0018081402400900ULL,
    0x2994000211204100ULL, 0x0041003201008221ULL, 0x0080400401041080ULL, 0x50198441440C0100ULL,
    0x0008040588103020ULL, 0x2005610014040404ULL, 0x001C0100A2080504ULL, 0x0004040000410200ULL,
    0x8111001101004000ULL, 0x2500810002010080ULL, 0xB6480044008A0869ULL, 0x0080510000490820ULL,
    0x0001100840122000ULL, 0x2200982000040C20ULL, 0x0400480202104401ULL, 0x0002004041040100ULL,
    0x0020088400008020ULL, 0x4048100101002080ULL, 0x0808410101040080ULL, 0x0008052422004205ULL,
    0x0403252820844112ULL, 0x809304062001AA08ULL, 0x1000104230024802ULL, 0x411C004200841804ULL,
    0x2000014922000402ULL, 0x0008502080202200ULL, 0x0028410842108080ULL, 0x200148020048088AULL,
    0x0904040184100044ULL, 0x1001012821040D18ULL, 0x00040087480804A2ULL, 0x00D0002084040810ULL,
    0x000101118A120040ULL, 0x4020210A10024220ULL, 0x0209100418840023ULL, 0x0008010414104080ULL,
    0x0080820100A00401ULL, 0x2020C022081A8810ULL, 0x0800022884208802ULL, 0x0020000410420223ULL,
    0x0340803C90020210ULL, 0x1482014003042102ULL, 0x10000A2081140102ULL, 0x011020220A644301ULL,
};

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
void init_magics(const int (&steps)[4][2], const Bitboard (&known)[kSquareCount],
                 Magic (&magics)[kSquareCount], Bitboard* table) {
  Bitboard occupancies[4096], references[4096];
  int epoch[4096] = {};
  int attempt = 0;
  Prng prng(0x45426f617264ULL);  // "EBoard"
  Bitboard* slice = table;
  for (int sq = 0; sq < kSquareCount; ++sq) {
    Square s = Square(sq);
    Bitboard edges =
        ((kRank1 | kRank8) & ~rank_bb(rank_of(s))) | ((kFileA | kFileH) & ~file_bb(file_of(s)));
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
    (void)known, (void)prng, (void)attempt, (void)epoch;
    m.magic = 0;
    for (int i = 0; i < size; ++i) slice[m.index(occupancies[i])] = references[i];
#else
    for (bool found = false, first = true; !found; first = false) {
      if (first) {
        m.magic = known[sq];
      } else {
        do m.magic = prng.sparse();
        while (popcount((m.mask * m.magic) >> 56) < 6);
      }
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
    init_magics(kRookSteps, kKnownRookMagics, rook_magics, rook_table);
    init_magics(kBishopSteps, kKnownBishopMagics, bishop_magics, bishop_table);
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

}  // namespace eboard::engine
