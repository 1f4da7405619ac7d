// SAN and UCI, both ways.
//
// Writing SAN follows the PGN standard (section 8.2.3): the piece letter, then the
// origin file, rank or both only when another LEGAL move of the same piece type reaches
// the same square, "x" for captures (a pawn capture names its file), "=Q" for
// promotions, "+" for check and "#" for checkmate (in check with no legal move).
//
// Reading SAN splits the text into piece, optional origin file/rank, destination and
// promotion, then matches the legal moves. Exactly one must match; when none does, the
// error tells a move no piece can make ("no such move") from one that would leave the
// king in check or castle against the rules ("illegal"). Forms accepted beyond the
// standard: "0-0", "e8Q", "e8(Q)", "e8q", missing or extra "+"/"#", "!"/"?" marks, a
// trailing "e.p.", "x" missing or superfluous, ":" or "-" for "x", a superfluous origin
// ("Ng1f3", "Ng1-f3", "e2e4").
#include "engine/board/notation.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

constexpr std::string_view kSanPieceLetters = " PNBRQK";  // indexed by PieceType

PieceType piece_from_san_letter(char c) {
  switch (c) {
    case 'P': return kPawn;
    case 'N': return kKnight;
    case 'B': return kBishop;
    case 'R': return kRook;
    case 'Q': return kQueen;
    case 'K': return kKing;
    default: return kNoPieceType;
  }
}

// Promotion letter in either case; kNoPieceType when c is none.
PieceType promotion_from_letter(char c) {
  PieceType t = piece_from_san_letter(char(std::toupper(static_cast<unsigned char>(c))));
  return (t == kKnight || t == kBishop || t == kRook || t == kQueen) ? t : kNoPieceType;
}

bool is_file_char(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank_char(char c) { return c >= '1' && c <= '8'; }

// Whether m, played here, attacks the opponent's king. Computed on bitboards with the
// occupancy after the move, so direct, discovered, en passant, castling-rook and
// promotion checks all come out of the same five attack tests, with no copy of the
// position.
bool gives_check(const Position& pos, Move m) {
  const Color us = pos.side_to_move();
  const Square from = m.from();
  const Square to = m.to();
  const Square king = pos.king_square(~us);
  Bitboard ours[kPieceTypeCount];
  for (int t = kPawn; t <= kKing; ++t) ours[t] = pos.pieces(us, PieceType(t));
  const PieceType moved = type_of(pos.piece_on(from));
  const PieceType arrives = m.is_promotion() ? m.promotion() : moved;
  Bitboard occupied = pos.pieces();
  ours[moved] &= ~square_bb(from);
  ours[arrives] |= square_bb(to);
  occupied = (occupied & ~square_bb(from)) | square_bb(to);
  if (m.kind() == MoveKind::kEnPassant) {
    occupied &= ~square_bb(make_square(file_of(to), rank_of(from)));
  } else if (m.kind() == MoveKind::kCastling) {
    const bool kingside = file_of(to) > file_of(from);
    const Square rook_from = make_square(kingside ? 7 : 0, rank_of(from));
    const Square rook_to = make_square(kingside ? 5 : 3, rank_of(from));
    ours[kRook] = (ours[kRook] & ~square_bb(rook_from)) | square_bb(rook_to);
    occupied = (occupied & ~square_bb(rook_from)) | square_bb(rook_to) | square_bb(to);
  }
  return (pawn_attacks(~us, king) & ours[kPawn]) || (knight_attacks(king) & ours[kKnight]) ||
         (king_attacks(king) & ours[kKing]) ||
         (bishop_attacks(king, occupied) & (ours[kBishop] | ours[kQueen])) ||
         (rook_attacks(king, occupied) & (ours[kRook] | ours[kQueen]));
}

std::string check_suffix(const Position& pos, Move m) {
  if (!gives_check(pos, m)) return "";
  Position after = pos;  // only for checks, to count the replies
  after.make(m);
  return count_legal(after) == 0 ? "#" : "+";
}

// The parts of a SAN text. Files and ranks are -1 when not given.
struct SanParts {
  bool castling = false;
  bool kingside = false;
  PieceType piece = kPawn;
  int from_file = -1;
  int from_rank = -1;
  Square to = kNoSquare;
  PieceType promotion = kNoPieceType;
};

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Drops surrounding blanks and what follows the move proper: "+", "#", "!", "?", "e.p.".
std::string_view strip_decorations(std::string_view text) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  text = trim(text);
  for (bool changed = true; changed;) {
    changed = false;
    while (!text.empty() && std::string_view("+#!?").find(text.back()) != std::string_view::npos) {
      text.remove_suffix(1);
      changed = true;
    }
    for (std::string_view ep : {"e.p.", "ep"}) {
      if (text.size() > ep.size() + 2 && ends_with(text, ep)) {
        text = trim(text.substr(0, text.size() - ep.size()));
        changed = true;
      }
    }
  }
  return text;
}

Result<SanParts> split_san(std::string_view original) {
  const std::string_view text = strip_decorations(original);
  auto bad = [&original](std::string_view why) {
    return Error{"bad SAN: '" + std::string(original) + "' (" + std::string(why) + ")"};
  };
  if (text.empty()) return bad("empty move");
  SanParts parts;
  std::string castle;
  for (char c : text) castle += (c == '0' || c == 'o') ? 'O' : c;
  if (castle == "O-O" || castle == "O-O-O") {
    parts.castling = true;
    parts.kingside = castle == "O-O";
    return parts;
  }
  std::string_view rest = text;
  if (PieceType t = piece_from_san_letter(rest.front()); t != kNoPieceType) {
    parts.piece = t;
    rest.remove_prefix(1);
  }
  // The destination is the last file-rank pair; what comes before it is the origin.
  std::size_t at = std::string_view::npos;
  for (std::size_t i = 0; i + 1 < rest.size(); ++i)
    if (is_file_char(rest[i]) && is_rank_char(rest[i + 1])) at = i;
  if (at == std::string_view::npos) return bad("no destination square");
  parts.to = make_square(rest[at] - 'a', rest[at + 1] - '1');
  std::string_view origin = rest.substr(0, at);
  std::string_view promo = rest.substr(at + 2);
  if (!origin.empty() && std::string_view("x:-").find(origin.back()) != std::string_view::npos)
    origin.remove_suffix(1);
  if (!origin.empty() && is_file_char(origin.front())) {
    parts.from_file = origin.front() - 'a';
    origin.remove_prefix(1);
  }
  if (!origin.empty() && is_rank_char(origin.front())) {
    parts.from_rank = origin.front() - '1';
    origin.remove_prefix(1);
  }
  if (!origin.empty()) return bad("unexpected '" + std::string(origin) + "'");
  if (!promo.empty()) {
    const std::string suffix(promo);
    if (promo.front() == '=') promo.remove_prefix(1);
    if (promo.size() == 3 && promo.front() == '(' && promo.back() == ')')
      promo = promo.substr(1, 1);
    if (promo.size() != 1 || promotion_from_letter(promo.front()) == kNoPieceType)
      return bad("unexpected '" + suffix + "' after the destination");
    if (parts.piece != kPawn) return bad("only a pawn promotes");
    parts.promotion = promotion_from_letter(promo.front());
  }
  // Without an origin file a pawn move is a push along its own file (8.2.3.3).
  if (parts.piece == kPawn && parts.from_file < 0) parts.from_file = file_of(parts.to);
  return parts;
}

bool matches(const Position& pos, Move m, const SanParts& p) {
  return m.kind() != MoveKind::kCastling && m.to() == p.to &&
         type_of(pos.piece_on(m.from())) == p.piece &&
         (p.from_file < 0 || file_of(m.from()) == p.from_file) &&
         (p.from_rank < 0 || rank_of(m.from()) == p.from_rank);
}

// Whether some piece of the described kind could go to the destination if pins and
// checks did not count: that makes a move "illegal" rather than "no such move".
bool pseudo_reachable(const Position& pos, const SanParts& p) {
  const Color us = pos.side_to_move();
  if (pos.pieces(us) & square_bb(p.to)) return false;
  Bitboard movers = pos.pieces(us, p.piece);
  if (p.from_file >= 0) movers &= file_bb(p.from_file);
  if (p.from_rank >= 0) movers &= rank_bb(p.from_rank);
  while (movers) {
    const Square from = pop_lsb(movers);
    if (p.piece != kPawn) {
      if (attacks_bb(p.piece, from, pos.pieces()) & square_bb(p.to)) return true;
      continue;
    }
    const int forward = us == kWhite ? 8 : -8;
    const bool to_empty = pos.empty(p.to);
    if (to_empty && int(p.to) == from + forward) return true;
    if (to_empty && int(p.to) == from + 2 * forward && rank_of(from) == (us == kWhite ? 1 : 6) &&
        pos.empty(Square(from + forward)))
      return true;
    if ((pawn_attacks(us, from) & square_bb(p.to)) &&
        (!to_empty || p.to == pos.en_passant_square()))
      return true;
  }
  return false;
}

std::string castling_refusal(const Position& pos, bool kingside) {
  const Color us = pos.side_to_move();
  const CastlingRights right = us == kWhite ? (kingside ? kWhiteKingside : kWhiteQueenside)
                                            : (kingside ? kBlackKingside : kBlackQueenside);
  if (!pos.can_castle(right)) return "no castling right";
  if (pos.in_check()) return "the king is in check";
  const Square king = pos.king_square(us);
  const Square rook = make_square(kingside ? 7 : 0, rank_of(king));
  if (between_bb(king, rook) & pos.pieces()) return "a piece stands in the way";
  return "the king would pass through or land on an attacked square";
}

std::string describe_piece(Color c, PieceType t) {
  static constexpr std::string_view kNames[] = {"",     "pawn",  "knight", "bishop",
                                                "rook", "queen", "king"};
  return std::string(c == kWhite ? "white " : "black ") + std::string(kNames[t]);
}

Error ambiguity_error(const Position& pos, std::string_view text, const MoveList& legal,
                      std::vector<Move> candidates) {
  // By origin square, so the message does not depend on the generator's order.
  std::sort(candidates.begin(), candidates.end(),
            [](Move a, Move b) { return a.from() < b.from(); });
  std::string message = "ambiguous: " + std::string(text) + " could be ";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (i > 0) message += i + 1 == candidates.size() ? " or " : ", ";
    message += to_san(pos, candidates[i], legal);
  }
  return Error{message};
}

}  // namespace

std::string to_uci(Move m) {
  if (!m) return "0000";
  std::string text = square_name(m.from()) + square_name(m.to());
  if (m.is_promotion()) text += "  nbrq"[m.promotion()];
  return text;
}

Result<Move> parse_uci(const Position& pos, std::string_view text) {
  const Square from = text.size() >= 4 ? parse_square(text.substr(0, 2)) : kNoSquare;
  const Square to = text.size() >= 4 ? parse_square(text.substr(2, 2)) : kNoSquare;
  PieceType promotion = kNoPieceType;
  if (text.size() == 5) promotion = promotion_from_letter(text[4]);
  if (from == kNoSquare || to == kNoSquare || text.size() > 5 ||
      (text.size() == 5 && promotion == kNoPieceType))
    return Error{"bad UCI move: '" + std::string(text) + "' (expected e.g. e2e4 or e7e8q)"};
  MoveList legal;
  generate_legal(pos, legal);
  bool promotes_here = false;
  for (Move m : legal) {
    if (m.from() != from || m.to() != to) continue;
    if (!m.is_promotion() && promotion == kNoPieceType) return m;
    if (m.is_promotion() && m.promotion() == promotion) return m;
    promotes_here = promotes_here || m.is_promotion();
  }
  if (promotes_here && promotion == kNoPieceType)
    return Error{"illegal: " + std::string(text) + " needs a promotion piece (" +
                 std::string(text) + "q)"};
  return Error{"illegal: " + std::string(text) + " is not a legal move here"};
}

std::string to_san(const Position& pos, Move m) {
  MoveList legal;
  generate_legal(pos, legal);
  return to_san(pos, m, legal);
}

std::string to_san(const Position& pos, Move m, const MoveList& legal) {
  const Piece piece = pos.piece_on(m.from());
  if (!m || piece == kNoPiece) return to_uci(m);  // not a move of this position
  if (m.kind() == MoveKind::kCastling)
    return (file_of(m.to()) > file_of(m.from()) ? "O-O" : "O-O-O") + check_suffix(pos, m);
  const PieceType type = type_of(piece);
  const bool capture = pos.is_capture(m);
  std::string san;
  if (type == kPawn) {
    if (capture) san += char('a' + file_of(m.from()));
  } else {
    san += kSanPieceLetters[type];
    bool clash = false, same_file = false, same_rank = false;
    for (Move other : legal) {
      if (other == m || other.to() != m.to() || pos.piece_on(other.from()) != piece) continue;
      clash = true;
      same_file = same_file || file_of(other.from()) == file_of(m.from());
      same_rank = same_rank || rank_of(other.from()) == rank_of(m.from());
    }
    if (clash && (!same_file || same_rank)) san += char('a' + file_of(m.from()));
    if (clash && same_file) san += char('1' + rank_of(m.from()));
  }
  if (capture) san += 'x';
  san += square_name(m.to());
  if (m.is_promotion()) {
    san += '=';
    san += kSanPieceLetters[m.promotion()];
  }
  return san + check_suffix(pos, m);
}

Result<Move> parse_san(const Position& pos, std::string_view text) {
  Result<SanParts> split = split_san(text);
  if (!split.ok()) return Error{split.error()};
  const SanParts& parts = split.value();
  const std::string shown(strip_decorations(text));
  MoveList legal;
  generate_legal(pos, legal);
  if (parts.castling) {
    for (Move m : legal)
      if (m.kind() == MoveKind::kCastling &&
          (file_of(m.to()) > file_of(m.from())) == parts.kingside)
        return m;
    return Error{"illegal: " + shown + " (" + castling_refusal(pos, parts.kingside) + ")"};
  }
  std::vector<Move> candidates;
  bool promotion_missing = false;
  for (Move m : legal) {
    if (!matches(pos, m, parts)) continue;
    if (m.is_promotion() != (parts.promotion != kNoPieceType)) {
      promotion_missing = promotion_missing || m.is_promotion();
      continue;
    }
    if (!m.is_promotion() || m.promotion() == parts.promotion) candidates.push_back(m);
  }
  if (candidates.size() == 1) return candidates.front();
  if (candidates.size() > 1) return ambiguity_error(pos, shown, legal, candidates);
  if (promotion_missing)
    return Error{"bad SAN: '" + shown + "' (a promotion needs a piece, e.g. " + shown + "=Q)"};
  const std::string target = describe_piece(pos.side_to_move(), parts.piece);
  if (pseudo_reachable(pos, parts))
    return Error{"illegal: " + shown + " (the " + target + " cannot move there: its king would " +
                 "be in check)"};
  return Error{"no such move: " + shown + " (no " + target + " can go to " + square_name(parts.to) +
               ")"};
}

}  // namespace eboard::engine
