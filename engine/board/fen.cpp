#include "engine/board/fen.h"

#include <charconv>
#include <optional>
#include <vector>

namespace eboard::engine {
namespace {

constexpr std::string_view kPieceLetters = " PNBRQK  pnbrqk";

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// Fills board from the placement field, or says what is wrong with it.
std::optional<std::string> parse_placement(std::string_view field, Piece (&board)[kSquareCount]) {
  int rank = 7, file = 0;
  for (char c : field) {
    if (c == '/') {
      if (file != 8)
        return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
               " squares, not 8";
      if (--rank < 0) return std::string("more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
    } else if (Piece p = piece_from_char(c); p != kNoPiece) {
      if (file >= 8) return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
      board[make_square(file++, rank)] = p;
    } else {
      return "bad piece letter " + quoted(std::string_view(&c, 1)) + " in rank " +
             std::to_string(rank + 1);
    }
  }
  if (rank != 0) return "only " + std::to_string(8 - rank) + " ranks, not 8";
  if (file != 8) return "rank 1 has " + std::to_string(file) + " squares, not 8";
  return std::nullopt;
}

std::optional<std::string> check_kings(const Piece (&board)[kSquareCount]) {
  for (Color c : {kWhite, kBlack}) {
    int kings = 0;
    for (Piece p : board) kings += p == make_piece(c, kKing);
    const char* name = c == kWhite ? "white" : "black";
    if (kings == 0) return std::string("no ") + name + " king";
    if (kings > 1) return std::to_string(kings) + " " + name + " kings";
  }
  return std::nullopt;
}

struct CastlingSpec {
  char letter;
  CastlingRights right;
  Square king, rook;
};
constexpr CastlingSpec kCastlingSpecs[] = {
    {'K', kWhiteKingside, kE1, kH1},
    {'Q', kWhiteQueenside, kE1, kA1},
    {'k', kBlackKingside, kE8, kH8},
    {'q', kBlackQueenside, kE8, kA8},
};

Result<CastlingRights> parse_castling(std::string_view field, const Piece (&board)[kSquareCount]) {
  if (field == "-") return kNoCastling;
  int rights = 0;
  for (char c : field) {
    const CastlingSpec* spec = nullptr;
    for (const auto& s : kCastlingSpecs)
      if (s.letter == c) spec = &s;
    if (!spec) return Error{"bad castling letter " + quoted(std::string_view(&c, 1))};
    if (rights & spec->right)
      return Error{"castling letter " + quoted(std::string_view(&c, 1)) + " repeated"};
    Color color = c == 'K' || c == 'Q' ? kWhite : kBlack;
    if (board[spec->king] != make_piece(color, kKing))
      return Error{"castling right " + quoted(std::string_view(&c, 1)) + " but no king on " +
                   square_name(spec->king)};
    if (board[spec->rook] != make_piece(color, kRook))
      return Error{"castling right " + quoted(std::string_view(&c, 1)) + " but no rook on " +
                   square_name(spec->rook)};
    rights |= spec->right;
  }
  return CastlingRights(rights);
}

// The square must be the one a pawn of the side not to move just jumped over.
Result<Square> parse_en_passant(std::string_view field, Color side,
                                const Piece (&board)[kSquareCount]) {
  if (field == "-") return kNoSquare;
  Square ep = parse_square(field);
  if (ep == kNoSquare) return Error{"bad en passant square " + quoted(field)};
  int expected_rank = side == kWhite ? 5 : 2;
  std::string why;
  Square pawn = Square(side == kWhite ? ep - 8 : ep + 8);
  Square origin = Square(side == kWhite ? ep + 8 : ep - 8);
  if (rank_of(ep) != expected_rank)
    why = std::string("it must be on rank ") + (side == kWhite ? "6" : "3") + " with " +
          (side == kWhite ? "white" : "black") + " to move";
  else if (board[pawn] != make_piece(~side, kPawn))
    why = "no pawn on " + square_name(pawn) + " that could have just moved two squares";
  else if (board[ep] != kNoPiece || board[origin] != kNoPiece)
    why = square_name(ep) + " and " + square_name(origin) + " must be empty";
  if (!why.empty())
    return Error{"en passant square " + std::string(field) + " cannot be right: " + why};
  return ep;
}

Result<int> parse_counter(std::string_view field, const char* what, int minimum) {
  int value = 0;
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || end != field.data() + field.size() || value < minimum || value > 100000)
    return Error{std::string("bad ") + what + " " + quoted(field)};
  return value;
}

}  // namespace

char piece_to_char(Piece p) {
  return p < kPieceLetters.size() && kPieceLetters[p] != ' ' ? kPieceLetters[p] : '\0';
}

Piece piece_from_char(char c) {
  if (c == ' ') return kNoPiece;
  size_t i = kPieceLetters.find(c);
  return i == std::string_view::npos ? kNoPiece : Piece(i);
}

std::string square_name(Square s) {
  if (!is_valid(s)) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

Square parse_square(std::string_view name) {
  if (name.size() != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8')
    return kNoSquare;
  return make_square(name[0] - 'a', name[1] - '1');
}

Result<Position> parse_fen(std::string_view fen, FenMode mode) {
  auto fields = split_fields(fen);
  if (fields.size() < 2 || fields.size() > 6)
    return Error{"FEN must have 2 to 6 fields, found " + std::to_string(fields.size())};
  Piece board[kSquareCount] = {};
  if (auto error = parse_placement(fields[0], board)) return Error{*error};
  if (auto error = check_kings(board)) return Error{*error};
  if (fields[1] != "w" && fields[1] != "b")
    return Error{"side to move must be 'w' or 'b', not " + quoted(fields[1])};
  Color side = fields[1] == "w" ? kWhite : kBlack;

  auto castling = parse_castling(fields.size() > 2 ? fields[2] : "-", board);
  if (!castling) return Error{castling.error()};
  auto ep = parse_en_passant(fields.size() > 3 ? fields[3] : "-", side, board);
  if (!ep) return Error{ep.error()};
  auto halfmove = parse_counter(fields.size() > 4 ? fields[4] : "0", "halfmove clock", 0);
  if (!halfmove) return Error{halfmove.error()};
  auto fullmove = parse_counter(fields.size() > 5 ? fields[5] : "1", "fullmove number", 1);
  if (!fullmove) return Error{fullmove.error()};

  Position pos = Position::from_parts(board, side, *castling, *ep, *halfmove, *fullmove);
  if (mode == FenMode::kStrict) {
    for (Square s : {kA1, kA8})
      for (int f = 0; f < 8; ++f)
        if (type_of(board[s + f]) == kPawn)
          return Error{"pawn on " + square_name(Square(s + f)) +
                       " (pawns never stand on the first or last rank)"};
    if (pos.opponent_in_check())
      return Error{std::string("the side not to move (") + (side == kWhite ? "black" : "white") +
                   ") is in check"};
  }
  return pos;
}

namespace {

std::string placement_text(const std::array<Piece, kSquareCount>& board) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = board[make_square(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty);
      empty = 0;
      out += piece_to_char(p);
    }
    if (empty) out += char('0' + empty);
    if (rank) out += '/';
  }
  return out;
}

}  // namespace

std::string placement_to_fen(const Position& pos) { return placement_text(snapshot_of(pos).board); }

std::string to_fen(const PositionSnapshot& s) {
  std::string out = placement_text(s.board);
  out += s.side_to_move == kWhite ? " w " : " b ";
  if (s.castling == kNoCastling) out += '-';
  for (const auto& spec : kCastlingSpecs)
    if (s.castling & spec.right) out += spec.letter;
  out += ' ';
  out += square_name(s.en_passant);
  out += ' ' + std::to_string(s.halfmove_clock) + ' ' + std::to_string(s.fullmove_number);
  return out;
}

std::string to_fen(const Position& pos) { return to_fen(snapshot_of(pos)); }

}  // namespace eboard::engine
