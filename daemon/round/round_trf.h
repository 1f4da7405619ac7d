// FIDE's Tournament Report File, TRF16 (FIDE Handbook C.04 Annex 2, "TRF16"; the 001
// layout and round entries are unchanged in TRF-2006 and TRF26), as Swiss-Manager, Vega,
// JaVaFo and bbpPairings write it, read for the pairings of one round.
//
// Columns are 1-based characters. `001` player record: 5-8 starting rank, 10 sex, 11-13
// title, 15-47 name, 49-52 FIDE rating, 54-56 federation, 58-68 FIDE id, 70-79 birth
// date, 81-84 points, 86-89 rank; round R's entry at 92+10(R-1): 4 columns opponent's
// starting rank (0000 or blank: none), a blank, the scheduled colour (w, b, - or blank),
// a blank, the result (1 = 0 + - W D L H F U Z or blank, letters in either case).
// Tournament records: `012` name, `022` city, `032` federation, `042`/`052` first and
// last day, `132` the rounds' dates (YY/MM/DD at 92+10(R-1)); `013` a team, its players'
// starting ranks at 37-40, 42-45, ... Other records (`###` comments, `XXR`, `DAT`,
// `102` arbiters, ...) are not needed and are skipped.
//
// Round N's pairings come from the players' round-N entries: the entry of the player
// with `w` names the opponent, whose entry must name that player with `b`. An opponent
// that is not in the file, a player paired with themselves, two entries that do not
// agree, or a colour missing is an "odd pairing" error at the line; a round no player
// has an entry for is an error too. The one pairing without colours that is not odd is a
// forfeit both entries give with `-` (a game never played has no colours): it keeps its
// board and gets no game, like any forfeit.
//
// Boards. A TRF records no board numbers, so they are given as the FIDE Swiss rules
// order a published pairing list (C.04.1 F, kept in C.04.2 and the Dutch rules): by the
// higher of the two players' scores before the round, then the sum of both scores, then
// the better (smaller) starting rank of the two, each pairing from board 1 on; byes get
// no board. Scores count 1 for a win (1 + W F U), ½ for a draw (= D H) - the ordering
// is the same under any other points system. A pairing already scored `+`/`-` keeps its
// board number and gets no game. Pairing programs that number boards otherwise (team
// events, fixed top boards) are matched with --board-map.
//
// Text: UTF-8 when the line is valid UTF-8, else Windows-1252 (text_lines.h).
#pragma once

#include <string>
#include <string_view>

#include "daemon/round/round_sheet.h"

namespace eboard::daemon::round {

// Whether `text` looks like a TRF: its first non-blank line opens with three digits and a
// space (a record), `###` (a comment) or `XX` (JaVaFo's extension records).
bool looks_like_trf(std::string_view text);

Result<RoundSheet> parse_trf(std::string_view text, const std::string& path,
                             const RoundOptions& options);

}  // namespace eboard::daemon::round
