#include "daemon/round/round_trf.h"

#include <algorithm>
#include <map>

#include "daemon/round/round_csv.h"
#include "daemon/round/text_lines.h"

namespace eboard::daemon::round {
namespace {

constexpr int kFirstEntryColumn = 92;  // round 1's entry; round R's 10(R-1) further on
constexpr int kEntryStride = 10;

struct Entry {
  int opponent = 0;  // 0: none (a bye, absent, not paired)
  char colour = '-';
  char result = ' ';
  bool blank = true;
};

struct TrfPlayer {
  int rank = 0;
  int line = 0;
  Player info;
  std::vector<Entry> entries;  // [R-1]: round R
};

struct TrfFile {
  std::map<int, TrfPlayer> players;  // by starting rank
  std::vector<int> order;            // starting ranks in file order
  std::string event, city, federation, start_date;
  std::string round_dates;           // the 132 record
  std::map<int, std::string> teams;  // starting rank -> team name
};

// TRF-2006 wrote titles as letters (g, m, f, c, wg, wm, wf, wc); TRF16 as GM, IM, ...
std::string title_of(std::string_view text) {
  static const std::map<std::string, std::string> kLetters = {
      {"g", "GM"},   {"m", "IM"},   {"f", "FM"},   {"c", "CM"},
      {"wg", "WGM"}, {"wm", "WIM"}, {"wf", "WFM"}, {"wc", "WCM"}};
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (const auto found = kLetters.find(lower); found != kLetters.end()) return found->second;
  auto title = fide_title(text);
  return title ? title.value() : std::string();  // other words (AGM, "-") are no FIDE title
}

// Digits or blank; zeros mean unknown.
Result<std::string> number_column(std::string_view text, const char* what) {
  text = trim(text);
  if (text.empty()) return std::string();
  if (!all_digits(text)) {
    return Error{std::string(what) + " '" + std::string(text) + "' is not a number"};
  }
  if (std::all_of(text.begin(), text.end(), [](char c) { return c == '0'; })) return std::string();
  return std::string(text);
}

Result<Entry> read_entry(const Columns& line, int start, int round) {
  const auto at = [&](int offset) { return line.at(start + offset); };
  const std::string where_entry = "round " + std::to_string(round) + " entry (columns " +
                                  std::to_string(start) + "-" + std::to_string(start + 7) + ") ";
  Entry e;
  const std::string_view opponent = trim(line.get(start, start + 3));
  e.colour = at(5);
  e.result = at(7);
  e.blank = opponent.empty() && e.colour == ' ' && e.result == ' ';
  if (at(4) != ' ' || at(6) != ' ' || at(8) != ' ' || at(9) != ' ') {
    return Error{where_entry + "is not 'NNNN C R' (opponent, colour, result)"};
  }
  if (!opponent.empty() && (!all_digits(opponent))) {
    return Error{where_entry + "opponent '" + std::string(opponent) + "' is not a number"};
  }
  e.opponent = opponent.empty() ? 0 : std::stoi(std::string(opponent));
  if (std::string_view("wWbB- ").find(e.colour) == std::string_view::npos) {
    return Error{where_entry + "colour '" + std::string(1, e.colour) + "' is not w, b or -"};
  }
  e.colour = e.colour == ' ' ? '-' : static_cast<char>(std::tolower(e.colour));
  if (std::string_view("+-WwDdLl1=0HhFfUuZz ").find(e.result) == std::string_view::npos) {
    return Error{where_entry + "result '" + std::string(1, e.result) +
                 "' is not one of 1 = 0 + - W D L H F U Z"};
  }
  e.result = static_cast<char>(std::toupper(e.result));
  return e;
}

std::optional<std::string> read_player(std::string_view text, TrfPlayer& p) {
  const Columns line(text);
  const std::string_view rank = trim(line.get(5, 8));
  if (!all_digits(rank) || std::stoi(std::string(rank)) == 0) {
    return "starting rank '" + std::string(rank) + "' (columns 5-8) is not a number from 1 to 9999";
  }
  p.rank = std::stoi(std::string(rank));
  p.info.title = title_of(trim(line.get(11, 13)));
  p.info.name = utf8_field(trim(line.get(15, 47)));
  auto elo = number_column(line.get(49, 52), "rating (columns 49-52)");
  if (!elo) return elo.error();
  p.info.elo = elo.value();
  auto id = number_column(line.get(58, 68), "FIDE id (columns 58-68)");
  if (!id) return id.error();
  p.info.fide_id = id.value();
  for (int start = kFirstEntryColumn, round = 1; start <= line.count();
       start += kEntryStride, ++round) {
    auto entry = read_entry(line, start, round);
    if (!entry) return entry.error();
    p.entries.push_back(entry.value());
  }
  return std::nullopt;
}

// A team record: the team's name and its players' starting ranks.
std::optional<std::string> read_team(std::string_view text, TrfFile& file) {
  const Columns line(text);
  const std::string name = utf8_field(trim(line.get(5, 36)));
  for (int start = 37; start <= line.count(); start += 5) {
    const std::string_view rank = trim(line.get(start, start + 3));
    if (rank.empty()) continue;
    if (!all_digits(rank)) {
      return "team '" + name + "': player '" + std::string(rank) + "' (columns " +
             std::to_string(start) + "-" + std::to_string(start + 3) + ") is not a starting rank";
    }
    file.teams[std::stoi(std::string(rank))] = name;
  }
  return std::nullopt;
}

Result<TrfFile> read_trf(std::string_view text, const std::string& path) {
  TrfFile file;
  for (const TextLine& l : split_lines(text)) {
    const std::string_view code = l.text.substr(0, 3);
    if (l.text.size() > 3 && l.text[3] != ' ') continue;  // not a record (rulers, notes)
    const std::string rest = utf8_field(trim(l.text.size() > 4 ? l.text.substr(4) : ""));
    if (code == "001") {
      TrfPlayer p;
      p.line = l.number;
      if (auto error = read_player(l.text, p)) return Error{where(path, l.number) + *error};
      if (const auto [it, fresh] = file.players.emplace(p.rank, p); !fresh) {
        return Error{where(path, l.number) + "starting rank " + std::to_string(p.rank) +
                     " is already on line " + std::to_string(it->second.line)};
      }
      file.order.push_back(p.rank);
    } else if (code == "013") {
      if (auto error = read_team(l.text, file)) return Error{where(path, l.number) + *error};
    } else if (code == "012") {
      file.event = rest;
    } else if (code == "022") {
      file.city = rest;
    } else if (code == "032") {
      file.federation = rest;
    } else if (code == "042") {
      file.start_date = rest;
    } else if (code == "132") {
      file.round_dates = std::string(l.text);
    }
  }
  if (file.players.empty()) return Error{path + ": no player records (001)"};
  return file;
}

// "24/12/01", "2024/12/01", "2024-12-01", "2024.12.01" -> "2024.12.01"; the century of a
// two-digit year is the first day's (042), else 20.
std::string pgn_date(std::string_view text, std::string_view start_date) {
  text = trim(text);
  std::vector<std::string> parts(1);
  for (const char c : text) {
    if (c == '/' || c == '-' || c == '.') {
      parts.emplace_back();
    } else if (c >= '0' && c <= '9') {
      parts.back() += c;
    } else {
      return "";
    }
  }
  if (parts.size() != 3 || parts[1].size() != 2 || parts[2].size() != 2) return "";
  if (parts[0].size() == 2) {
    const std::string_view start = trim(start_date);
    const bool century_known = start.size() >= 4 && all_digits(start.substr(0, 4));
    parts[0] = (century_known ? std::string(start.substr(0, 2)) : "20") + parts[0];
  }
  if (parts[0].size() != 4) return "";
  const int month = std::stoi(parts[1]);
  const int day = std::stoi(parts[2]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return "";
  return parts[0] + "." + parts[1] + "." + parts[2];
}

// Score before `round`, in half points (rules under the header comment).
int half_points_before(const TrfPlayer& p, int round) {
  int half = 0;
  for (int r = 0; r + 1 < round && r < int(p.entries.size()); ++r) {
    const char result = p.entries[std::size_t(r)].result;
    if (std::string_view("1+WFU").find(result) != std::string_view::npos) half += 2;
    if (std::string_view("=DH").find(result) != std::string_view::npos) half += 1;
  }
  return half;
}

const Entry* entry_of(const TrfPlayer& p, int round) {
  if (round > int(p.entries.size())) return nullptr;
  const Entry& e = p.entries[std::size_t(round - 1)];
  return e.blank ? nullptr : &e;
}

struct Game {
  const TrfPlayer* white = nullptr;
  const TrfPlayer* black = nullptr;
  bool forfeit = false;
};

bool is_forfeit(char result) { return result == '+' || result == '-'; }

// A pairing scored as a forfeit, no colour on either entry ("  12 - +" against "   5 - -"):
// a game that was never played has no colours to give, and it gets no game, only its
// board. It is taken from the entry of the player with the smaller starting rank, who is
// put on the white side of the board list. Without a forfeit a missing colour is odd.
Result<std::optional<Game>> colourless_forfeit(const TrfPlayer& p, const Entry& e,
                                               const TrfPlayer& o, const Entry* other,
                                               const std::string& who) {
  const bool agreed = other && other->opponent == p.rank && other->colour == '-';
  if (!agreed || !(is_forfeit(e.result) || is_forfeit(other->result))) {
    return Error{who + " is paired with " + std::to_string(o.rank) +
                 " without a colour (odd pairing)"};
  }
  if (o.rank < p.rank) return std::optional<Game>();  // the other entry gives it
  return std::optional<Game>(Game{&p, &o, true});
}

// The player's round entry, or why it is not a pairing that agrees with the opponent's.
Result<std::optional<Game>> pairing_of(const TrfFile& file, const TrfPlayer& p, int round) {
  const Entry* e = entry_of(p, round);
  if (!e || e->opponent == 0) return std::optional<Game>();
  const std::string who = "round " + std::to_string(round) + ": player " + std::to_string(p.rank);
  const auto found = file.players.find(e->opponent);
  if (found == file.players.end()) {
    return Error{who + "'s opponent " + std::to_string(e->opponent) +
                 " is not a player of the file (odd pairing)"};
  }
  const TrfPlayer& o = found->second;
  if (o.rank == p.rank) return Error{who + " is paired with themselves (odd pairing)"};
  const Entry* other = entry_of(o, round);
  if (e->colour != 'w' && e->colour != 'b') return colourless_forfeit(p, *e, o, other, who);
  const char want = e->colour == 'w' ? 'b' : 'w';
  if (!other || other->opponent != p.rank || other->colour != want) {
    return Error{who + " plays " + std::to_string(o.rank) + " with " +
                 (e->colour == 'w' ? "white" : "black") + ", but player " + std::to_string(o.rank) +
                 "'s entry (line " + std::to_string(o.line) + ") does not say " +
                 std::to_string(p.rank) + " with " + (want == 'w' ? "white" : "black") +
                 " (odd pairing)"};
  }
  if (e->colour == 'b') return std::optional<Game>();  // the white player's entry gives it
  const bool forfeit = is_forfeit(e->result) || is_forfeit(other->result);
  return std::optional<Game>(Game{&p, &o, forfeit});
}

// C.04.1 F: higher score, sum of scores, better starting rank (round_trf.h).
void order_boards(std::vector<Game>& games, int round) {
  const auto key = [round](const Game& g) {
    const int w = half_points_before(*g.white, round);
    const int b = half_points_before(*g.black, round);
    return std::make_tuple(-std::max(w, b), -(w + b), std::min(g.white->rank, g.black->rank));
  };
  std::stable_sort(games.begin(), games.end(),
                   [&](const Game& a, const Game& b) { return key(a) < key(b); });
}

Player player_of(const TrfFile& file, const TrfPlayer& p) {
  Player info = p.info;
  if (const auto team = file.teams.find(p.rank); team != file.teams.end()) info.team = team->second;
  return info;
}

}  // namespace

bool looks_like_trf(std::string_view text) {
  for (const TextLine& l : split_lines(text)) {
    const std::string_view line = trim(l.text);
    if (line.empty()) continue;
    if (line.starts_with("###") || line.starts_with("XX")) return true;
    return line.size() >= 4 && all_digits(line.substr(0, 3)) && line[3] == ' ';
  }
  return false;
}

Result<RoundSheet> parse_trf(std::string_view text, const std::string& path,
                             const RoundOptions& options) {
  auto file = read_trf(text, path);
  if (!file) return Error{file.error()};
  const int first_line = file->players.at(file->order.front()).line;
  if (!options.round) return Error{path + ": a TRF file needs --round N (the round to start)"};
  const int round = *options.round;
  std::vector<Game> games;
  int last_round = 0;
  for (const int rank : file->order) {
    const TrfPlayer& p = file->players.at(rank);
    for (int r = 1; r <= int(p.entries.size()); ++r) {
      if (entry_of(p, r)) last_round = std::max(last_round, r);
    }
    auto game = pairing_of(*file, p, round);
    if (!game) return Error{where(path, p.line) + game.error()};
    if (!*game) continue;
    for (const TrfPlayer* player : {game.value()->white, game.value()->black}) {
      if (player->info.name.empty()) {
        return Error{where(path, player->line) + "player " + std::to_string(player->rank) +
                     " has no name (columns 15-47)"};
      }
    }
    games.push_back(**game);
  }
  if (games.empty()) {
    return Error{where(path, first_line) + "round " + std::to_string(round) +
                 ": no player has a pairing in it (the entries go up to round " +
                 std::to_string(last_round) + ")"};
  }
  order_boards(games, round);
  RoundSheet sheet;
  sheet.path = path;
  sheet.round = round;
  sheet.event = file->event;
  sheet.site = file->city;
  if (file->federation.size() == 3)
    sheet.site += (sheet.site.empty() ? "" : " ") + file->federation;
  const int date_column = kFirstEntryColumn + kEntryStride * (round - 1);
  sheet.date = pgn_date(columns(file->round_dates, date_column, date_column + 9), file->start_date);
  for (std::size_t i = 0; i < games.size(); ++i) {
    Pairing p;
    p.board = int(i) + 1;
    p.white = player_of(*file, *games[i].white);
    p.black = player_of(*file, *games[i].black);
    p.line = games[i].white->line;
    p.forfeit = games[i].forfeit;
    sheet.pairings.push_back(std::move(p));
  }
  return sheet;
}

}  // namespace eboard::daemon::round
