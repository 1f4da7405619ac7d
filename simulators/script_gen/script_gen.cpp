#include "simulators/script_gen/script_gen.h"

#include <array>
#include <variant>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"

namespace eboard::sim {
namespace {

using engine::Move;
using engine::MoveKind;
using engine::Position;
using engine::Square;
using script::Millis;

// splitmix64: tiny, fast, and the same numbers everywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed * 0x2545F4914F6CDD1DULL + 1) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  int below(int n) { return int(next() % std::uint64_t(n)); }
  bool percent(int p) { return below(100) < p; }
  int range(int lo, int hi) { return lo + below(hi - lo + 1); }  // inclusive

 private:
  std::uint64_t state_;
};

class Generator {
 public:
  Generator(const engine::PgnGame& game, const ScriptGenOptions& options)
      : game_(game),
        noise_(options.noise),
        occupancy_(options.sensing == ScriptSensing::kOccupancy),
        rng_(options.seed),
        pos_(game.start) {
    for (int s = 0; s < 64; ++s) board_[s] = engine::piece_to_char(pos_.piece_on(Square(s)));
  }

  void run(std::vector<script::Statement>& out) {
    out_ = &out;
    push(script::Placement{board_as_placement()});
    for (const Move m : game_.moves) {
      think();
      if (noise_ != NoiseModel::kClean && rng_.percent(6)) take_back(m);
      // The random draws for the operator's line happen only where it is written, so a
      // game's script on a piece-sensing board is the same with or without this option.
      const bool choose = occupancy_ && m.is_promotion() && m.promotion() != engine::kQueen;
      const bool choose_first = choose && human() && rng_.percent(50);
      if (choose_first) promote(m);
      play(m);
      if (choose && !choose_first) {
        wait(human() ? rng_.range(100, 1200) : 100);
        promote(m);
      }
      wait(noise_ == NoiseModel::kClean ? 300 : rng_.range(150, 1600));
      push(script::Lever{pos_.side_to_move() == engine::kWhite ? script::Side::kWhite
                                                               : script::Side::kBlack});
      pos_.make(m);
    }
    wait(500);
  }

 private:
  bool human() const { return noise_ != NoiseModel::kClean; }
  void wait(int ms) { now_ += Millis(ms); }
  void gap() { wait(human() ? rng_.range(80, 600) : 200); }
  void push(script::Body body) {
    if (occupancy_) hide_identity(body);
    out_->push_back(script::Statement{0, now_, std::move(body)});
  }
  // An occupancy-only board reports `?` for every piece put down (docs/interfaces.md §3).
  static void hide_identity(script::Body& body) {
    if (auto* p = std::get_if<script::Placement>(&body))
      for (char& c : p->squares) c = c == script::kEmptySquare ? c : '?';
    if (auto* u = std::get_if<script::Put>(&body)) u->piece = '?';
  }
  void promote(Move m) {
    const char letter = engine::piece_to_char(engine::make_piece(engine::kBlack, m.promotion()));
    push(script::Promote{letter});
  }
  script::Placement board_as_placement() const {
    script::Placement p;
    for (int s = 0; s < 64; ++s) p.squares[s] = board_[s] ? board_[s] : script::kEmptySquare;
    return p;
  }
  void lift(int s) {
    board_[s] = 0;
    push(script::Lift{s});
  }
  void put(int s, char piece) {
    board_[s] = piece;
    push(script::Put{s, piece});
  }

  // Thinking time, with the rough model's sensor trouble while nobody moves.
  void think() {
    int total = 1000;
    if (human()) {
      const double u = double(rng_.next() >> 11) * 0x1.0p-53;
      total = 700 + int(u * u * u * 40000);  // mostly a few seconds, now and then long
    }
    if (noise_ == NoiseModel::kRough) {
      const int before = rng_.range(0, total / 2);
      wait(before);
      total -= before;
      if (rng_.percent(30)) total -= flicker();
      if (rng_.percent(5)) total -= knock();
    }
    wait(total > 0 ? total : 50);
  }

  int random_occupied(bool allow_king) {
    for (int tries = 0; tries < 64; ++tries) {
      const int s = rng_.below(64);
      if (board_[s] && (allow_king || (board_[s] != 'K' && board_[s] != 'k'))) return s;
    }
    return -1;
  }

  // A square reads empty for a moment (a bad contact, a sleeve brushing the piece).
  int flicker() {
    const int s = random_occupied(true);
    if (s < 0) return 0;
    const char piece = board_[s];
    const int ms = rng_.range(20, 80);
    lift(s);
    wait(ms);
    put(s, piece);
    return ms;
  }

  // A piece knocked over (off its square, sometimes onto a neighbour) and set back.
  int knock() {
    const int s = random_occupied(false);
    if (s < 0) return 0;
    const char piece = board_[s];
    int used = 0;
    lift(s);
    used += rng_.range(150, 700);
    wait(used);
    if (rng_.percent(50)) {
      const int n = empty_neighbour(s);
      if (n >= 0) {
        put(n, piece);
        const int a = rng_.range(200, 900);
        wait(a);
        lift(n);
        const int b = rng_.range(100, 400);
        wait(b);
        used += a + b;
      }
    }
    put(s, piece);
    return used;
  }

  int empty_neighbour(int s) {
    std::array<int, 8> candidates{};
    int n = 0;
    for (engine::Bitboard b = engine::king_attacks(Square(s)); b;) {
      const int t = engine::pop_lsb(b);
      if (!board_[t]) candidates[n++] = t;
    }
    return n ? candidates[rng_.below(n)] : -1;
  }

  // The player makes a move (the game's or another of the same piece), thinks again and
  // puts the piece back before the real move (docs/rules.md D2: taken back before the press).
  void take_back(Move real) {
    engine::MoveList legal;
    engine::generate_legal(pos_, legal);
    std::array<Move, 64> others{};
    int n = 0;
    for (const Move m : legal)
      if (m.from() == real.from() && m.kind() == MoveKind::kNormal && pos_.empty(m.to()) && n < 64)
        others[n++] = m;
    if (n == 0) return;
    const Move tried = others[rng_.below(n)];
    const char piece = board_[tried.from()];
    lift(tried.from());
    gap();
    put(tried.to(), piece);
    wait(rng_.range(300, 1800));
    lift(tried.to());
    gap();
    put(tried.from(), piece);
    wait(rng_.range(300, 2500));
  }

  // Lands the lifted piece on `to`, now and then touching down on a wrong square first.
  void land(int to, char piece) {
    if (human() && rng_.percent(12)) {
      const int wrong = empty_neighbour(to);
      if (wrong >= 0) {
        put(wrong, piece);
        wait(rng_.range(60, 500));
        lift(wrong);
        wait(rng_.range(40, 300));
      }
    }
    put(to, piece);
  }

  void play(Move m) {
    const int from = m.from(), to = m.to();
    const char mover = board_[from];
    switch (m.kind()) {
      case MoveKind::kCastling: {
        const bool king_side = engine::file_of(m.to()) == 6;
        const int rank = engine::rank_of(m.from());
        const int rook_from = rank * 8 + (king_side ? 7 : 0),
                  rook_to = rank * 8 + (king_side ? 5 : 3);
        const char rook = board_[rook_from];
        const bool rook_first = human() && rng_.percent(30);
        if (rook_first) {
          lift(rook_from);
          gap();
          put(rook_to, rook);
          gap();
        }
        lift(from);
        gap();
        put(to, mover);
        if (!rook_first) {
          gap();
          lift(rook_from);
          gap();
          put(rook_to, rook);
        }
        return;
      }
      case MoveKind::kEnPassant: {
        const int victim = engine::rank_of(m.from()) * 8 + engine::file_of(m.to());
        const bool victim_first = human() && rng_.percent(50);
        if (victim_first) {
          lift(victim);
          gap();
        }
        lift(from);
        gap();
        land(to, mover);
        if (!victim_first) {
          gap();
          lift(victim);
        }
        return;
      }
      default: break;
    }
    const bool capture = board_[to] != 0;
    const bool victim_first = !human() || rng_.percent(50);
    if (capture && victim_first) {
      lift(to);
      gap();
    }
    lift(from);
    gap();
    if (capture && !victim_first) {
      lift(to);
      gap();
    }
    if (m.is_promotion()) {
      const char promoted =
          engine::piece_to_char(engine::make_piece(pos_.side_to_move(), m.promotion()));
      if (human() && rng_.percent(40)) {  // the pawn first, then the new piece (4.6 allows it)
        put(to, mover);
        wait(rng_.range(150, 900));
        lift(to);
        gap();
      }
      put(to, promoted);
      return;
    }
    if (capture)
      put(to, mover);
    else
      land(to, mover);
  }

  const engine::PgnGame& game_;
  NoiseModel noise_;
  bool occupancy_;
  Rng rng_;
  Position pos_;
  std::array<char, 64> board_{};  // what stands on the physical board (0: empty)
  Millis now_{0};
  std::vector<script::Statement>* out_ = nullptr;
};

}  // namespace

std::optional<NoiseModel> parse_noise_model(std::string_view text) {
  if (text == "clean") return NoiseModel::kClean;
  if (text == "human") return NoiseModel::kHuman;
  if (text == "rough") return NoiseModel::kRough;
  return std::nullopt;
}

const char* noise_model_name(NoiseModel noise) {
  switch (noise) {
    case NoiseModel::kClean: return "clean";
    case NoiseModel::kHuman: return "human";
    case NoiseModel::kRough: return "rough";
  }
  return "";
}

std::vector<script::Statement> generate_script(const engine::PgnGame& game,
                                               const ScriptGenOptions& options) {
  std::vector<script::Statement> out;
  const auto header = [&out](script::Body body) {
    out.push_back(script::Statement{0, std::nullopt, std::move(body)});
  };
  if (!options.board_id.empty()) header(script::BoardId{options.board_id});
  if (!options.rules.empty()) header(script::RulesName{options.rules});
  if (!options.clock.empty()) header(script::TimeControl{options.clock});
  const std::string fen = engine::to_fen(game.start);
  header(script::Start{fen == engine::kStartFen ? "startpos" : fen});
  for (const auto& [name, value] : game.tags)
    if (name != "FEN" && name != "SetUp") header(script::Tag{name, value});
  Generator(game, options).run(out);
  return out;
}

}  // namespace eboard::sim
