// The sensor script (docs/interfaces.md §3) as data: one Statement per non-empty line.
//
// This library knows the script's grammar, not chess: a FEN, a time control, a rule-set
// name or a parameter value is kept as the text the engine will parse. Squares use the
// engine's numbering (a1 = 0, h8 = 63) so that no caller has to convert twice.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace eboard::script {

using Millis = std::chrono::milliseconds;

enum class Side : std::uint8_t { kWhite, kBlack };
enum class FlagSide : std::uint8_t { kWhite, kBlack, kBoth };

// --- header lines -------------------------------------------------------------------
struct BoardId {
  std::string id;
};
struct RulesName {
  std::string name;
};
struct TimeControl {
  std::string text;
};  // grammar or docs/rules.md §3 name, unparsed
struct Start {
  std::string fen;
};  // "startpos" or a FEN (2 to 6 fields)
struct Tag {
  std::string name;
  std::string value;
};
struct Param {
  std::string name;
  std::string value;
};

// --- sensor lines -------------------------------------------------------------------
// kEmptySquare, a FEN piece letter, or '?' (occupied, identity unknown).
inline constexpr char kEmptySquare = '.';
struct Placement {
  std::array<char, 64> squares{};
};
struct Lift {
  int square = 0;
};
// piece: a FEN letter, '?' (occupancy-only board), or '1' '2' '3' (DGT result pieces:
// draw, white wins, black wins; docs/protocols.md §1.6).
struct Put {
  int square = 0;
  char piece = '?';
};
struct Lever {
  Side side = Side::kWhite;
};
struct ClockTime {
  Millis white{0};
  Millis black{0};
  std::optional<int> white_moves;  // both or neither
  std::optional<int> black_moves;
};
struct Flag {
  FlagSide side = FlagSide::kWhite;
};

// --- operator lines (what the board cannot see) ----------------------------------------
enum class ClaimKind : std::uint8_t {
  kIllegalMove,
  kThreefold,
  kFifty,
  kFlag,
  kQpf,
  kSetup,
  kOrientation,
  kClockSetting
};
struct Claim {
  Side side = Side::kWhite;
  ClaimKind kind = ClaimKind::kIllegalMove;
  std::string uci;  // intended move, only for threefold/fifty; may be empty
};
struct Resign {
  Side side = Side::kWhite;
};
struct DrawAgreed {};
struct Pause {};
struct Resume {};
struct AddTime {
  Side side = Side::kWhite;
  Millis amount{0};
};  // negative takes time off
struct TwoHands {
  Side side = Side::kWhite;
};
enum class RulingKind : std::uint8_t { kAccept, kReject };
struct Ruling {
  RulingKind kind = RulingKind::kAccept;
  std::optional<std::uint64_t> seq;
};
struct Infraction {
  Side side = Side::kWhite;
};
// The piece a pawn becomes where the board senses occupancy only (docs/protocols.md §10):
// 'q', 'r', 'b' or 'n', for the promotion standing on the board or else the next one.
struct Promote {
  char piece = 'q';
};

using Body = std::variant<BoardId, RulesName, TimeControl, Start, Tag, Param,  //
                          Placement, Lift, Put, Lever, ClockTime, Flag,        //
                          Claim, Resign, DrawAgreed, Pause, Resume, AddTime, TwoHands, Ruling,
                          Infraction, Promote>;

struct Statement {
  int line = 0;              // 1-based line in the source, 0 when built in code
  std::optional<Millis> at;  // set exactly for timed lines
  Body body;
};

// Header statements have no time; all others are timed.
bool is_header(const Body& body);
// Sensor statements are what a board or clock reports (emulators play these; operator
// lines are not board data and are skipped by them, docs/interfaces.md §2 `sim:`).
bool is_sensor(const Body& body);

// Squares: "e4" <-> 28. parse_square returns nullopt for anything else.
std::optional<int> parse_square(std::string_view text);
std::string square_name(int square);
const char* side_name(Side side);
const char* claim_kind_name(ClaimKind kind);

// The placement of the standard starting position, as the board senses it.
Placement start_placement();
// Parses the placement field of a FEN (ranks 8..1, '/'-separated; letters, digits, '?').
std::optional<Placement> parse_placement(std::string_view field);
std::string placement_field(const Placement& placement);

}  // namespace eboard::script
