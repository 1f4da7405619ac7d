#include "simulators/script/statement.h"

#include <string_view>

namespace eboard::script {
namespace {

bool is_piece_letter(char c) {
  return std::string_view("PNBRQKpnbrqk?").find(c) != std::string_view::npos;
}

}  // namespace

bool is_header(const Body& body) {
  return std::holds_alternative<BoardId>(body) || std::holds_alternative<RulesName>(body) ||
         std::holds_alternative<TimeControl>(body) || std::holds_alternative<Start>(body) ||
         std::holds_alternative<Tag>(body) || std::holds_alternative<Param>(body);
}

bool is_sensor(const Body& body) {
  return std::holds_alternative<Placement>(body) || std::holds_alternative<Lift>(body) ||
         std::holds_alternative<Put>(body) || std::holds_alternative<Lever>(body) ||
         std::holds_alternative<ClockTime>(body) || std::holds_alternative<Flag>(body);
}

std::optional<int> parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') {
    return std::nullopt;
  }
  return (text[1] - '1') * 8 + (text[0] - 'a');
}

std::string square_name(int square) {
  return {static_cast<char>('a' + square % 8), static_cast<char>('1' + square / 8)};
}

const char* side_name(Side side) { return side == Side::kWhite ? "white" : "black"; }

const char* claim_kind_name(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::kIllegalMove: return "illegal-move";
    case ClaimKind::kThreefold: return "threefold";
    case ClaimKind::kFifty: return "fifty";
    case ClaimKind::kFlag: return "flag";
    case ClaimKind::kQpf: return "qpf";
    case ClaimKind::kSetup: return "setup";
    case ClaimKind::kOrientation: return "orientation";
    case ClaimKind::kClockSetting: return "clock-setting";
  }
  return "?";
}

Placement start_placement() {
  return *parse_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
}

std::optional<Placement> parse_placement(std::string_view field) {
  Placement placement;
  placement.squares.fill(kEmptySquare);
  int rank = 7;
  int file = 0;
  for (char c : field) {
    if (c == '/') {
      if (file != 8 || rank == 0) return std::nullopt;
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return std::nullopt;
    } else if (is_piece_letter(c)) {
      if (file >= 8) return std::nullopt;
      placement.squares[rank * 8 + file] = c;
      ++file;
    } else {
      return std::nullopt;
    }
  }
  if (rank != 0 || file != 8) return std::nullopt;
  return placement;
}

std::string placement_field(const Placement& placement) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char c = placement.squares[rank * 8 + file];
      if (c == kEmptySquare) {
        ++empty;
        continue;
      }
      if (empty > 0) out += static_cast<char>('0' + empty);
      empty = 0;
      out += c;
    }
    if (empty > 0) out += static_cast<char>('0' + empty);
    if (rank > 0) out += '/';
  }
  return out;
}

}  // namespace eboard::script
