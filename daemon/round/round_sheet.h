// A round's pairings read from a round file (docs/interfaces.md §6.2), and the plan that puts
// them on the daemon's boards with their PGN tags. Two inputs:
// - the round CSV (UTF-8, RFC 4180): `board,white,black` and optional columns for the
//   daemon board, FIDE ids, ratings, titles and teams (round_csv.h);
// - a FIDE TRF16 tournament report file with the round number: the pairings of that
//   round from the players' round entries, names, ids, titles and ratings from their
//   `001` records, Event/Site/Date from `012`, `022` (+`032`) and the round's `132` date
//   (round_trf.h, which also says how boards are numbered).
// Everything is checked before anything is used: a reader returns the whole round or one
// `file:line: message` error, so a bad file changes nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/result.h"

namespace eboard::daemon::round {

struct Player {
  std::string name;     // as the file writes it, "Lastname, Firstname" in a TRF
  std::string fide_id;  // digits; "" when unknown
  std::string elo;      // digits; "" when unknown or unrated
  std::string title;    // GM, IM, FM, CM, WGM, WIM, WFM, WCM; "" when none
  std::string team;
};

struct Pairing {
  int board = 0;       // the board number in the round, from 1
  std::string eboard;  // the daemon board that plays it; "" = the board-th of the daemon
  Player white;
  Player black;
  int line = 0;          // the file line it came from (messages name it)
  bool forfeit = false;  // the file already scores it as a forfeit: no game is played
};

struct RoundSheet {
  std::string path;  // for messages
  int round = 0;
  std::string event;
  std::string site;
  std::string date;               // PGN form YYYY.MM.DD; "" when unknown
  std::vector<Pairing> pairings;  // by board number
};

struct RoundOptions {
  std::optional<int> round;  // --round N: required for a TRF; the Round tag's R for a CSV
  // --event, --site, --date: the round's tags; they win over a TRF's own.
  std::optional<std::string> event;
  std::optional<std::string> site;
  std::optional<std::string> date;
  std::string board_map;  // --board-map FILE: a CSV `board,eboard`; "" = none
};

// Reads FILE (a TRF when its first record is one: a line opening with three digits and a
// space, `###` or `XX`; otherwise a round CSV) and applies --board-map.
Result<RoundSheet> read_round_file(const std::string& path, const RoundOptions& options);
// The same on text already read (tests, fuzzing); `path` only names it in messages.
Result<RoundSheet> parse_round(std::string_view text, const std::string& path,
                               const RoundOptions& options);
// --board-map's text: sets each named board's `eboard`; the pairings it does not name get
// no daemon board.
std::optional<Error> apply_board_map(std::string_view text, const std::string& path,
                                     RoundSheet& sheet);

// "2026.03.14" (or with ?? parts) is a PGN date; the error names what is wrong.
std::optional<std::string> check_pgn_date(std::string_view date);

using Tags = std::vector<std::pair<std::string, std::string>>;

// One game of the round on a daemon board.
struct BoardGame {
  std::string board_id;
  int board = 0;
  Tags tags;  // Event, Site, Date, Round (R.B), Board, White, Black, titles, Elo, ids, teams
  int line = 0;
};

struct RoundPlan {
  std::vector<BoardGame> games;    // in board order
  std::vector<int> without_board;  // round boards no daemon board plays
  std::vector<int> forfeits;       // boards the file already scores as forfeits
};

// Puts the round on `board_ids` (the daemon's boards in configuration order): board B on
// the pairing's `eboard`, else on the B-th daemon board when there is one. An `eboard`
// the daemon does not have, or two games on one board, is a `file:line` error.
Result<RoundPlan> plan_round(const RoundSheet& sheet, const std::vector<std::string>& board_ids);

// The PGN tags of one pairing's game (docs/interfaces.md §6.2), known ones only.
Tags round_tags(const RoundSheet& sheet, const Pairing& pairing);

}  // namespace eboard::daemon::round
