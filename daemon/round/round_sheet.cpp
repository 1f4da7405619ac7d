#include "daemon/round/round_sheet.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "daemon/round/round_csv.h"
#include "daemon/round/round_trf.h"
#include "daemon/round/text_lines.h"

namespace eboard::daemon::round {
namespace {

constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;  // far beyond any real round

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read"};
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxFileBytes) return Error{path + ": larger than 16 MiB"};
  return text.str();
}

void add(Tags& tags, const char* name, const std::string& value) {
  if (!value.empty()) tags.emplace_back(name, value);
}

}  // namespace

std::optional<std::string> check_pgn_date(std::string_view date) {
  const auto part = [&](std::size_t at, std::size_t n) {
    const std::string_view p = date.substr(at, n);
    return std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
           p == std::string(n, '?');
  };
  if (date.size() == 10 && date[4] == '.' && date[7] == '.' && part(0, 4) && part(5, 2) &&
      part(8, 2)) {
    return std::nullopt;
  }
  return "'" + std::string(date) + "' is not a PGN date YYYY.MM.DD";
}

Result<RoundSheet> parse_round(std::string_view text, const std::string& path,
                               const RoundOptions& options) {
  auto sheet =
      looks_like_trf(text) ? parse_trf(text, path, options) : parse_round_csv(text, path, options);
  if (!sheet) return sheet;
  if (options.event) sheet.value().event = *options.event;
  if (options.site) sheet.value().site = *options.site;
  if (options.date) sheet.value().date = *options.date;
  return sheet;
}

Result<RoundSheet> read_round_file(const std::string& path, const RoundOptions& options) {
  if (options.date) {
    if (auto bad = check_pgn_date(*options.date)) return Error{"--date: " + *bad};
  }
  auto text = read_file(path);
  if (!text) return Error{text.error()};
  auto sheet = parse_round(text.value(), path, options);
  if (!sheet || options.board_map.empty()) return sheet;
  auto map = read_file(options.board_map);
  if (!map) return Error{map.error()};
  if (auto error = apply_board_map(map.value(), options.board_map, sheet.value())) return *error;
  return sheet;
}

std::optional<Error> apply_board_map(std::string_view text, const std::string& path,
                                     RoundSheet& sheet) {
  auto records = read_csv(text, path);
  if (!records) return Error{records.error()};
  if (records->empty() || records->front().fields != std::vector<std::string>{"board", "eboard"}) {
    return Error{where(path, records->empty() ? 1 : records->front().line) +
                 "a board map's header is 'board,eboard'"};
  }
  std::map<int, std::pair<std::string, int>> boards;  // round board -> daemon board, line
  for (std::size_t r = 1; r < records->size(); ++r) {
    const CsvRecord& rec = (*records)[r];
    if (rec.fields.size() != 2) return Error{where(path, rec.line) + "expected board,eboard"};
    const std::string& number = rec.fields[0];
    const bool numeric =
        !number.empty() && number.size() <= 4 &&
        std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int board = numeric ? std::stoi(number) : 0;
    const auto played = std::find_if(sheet.pairings.begin(), sheet.pairings.end(),
                                     [&](const Pairing& p) { return p.board == board; });
    if (played == sheet.pairings.end()) {
      return Error{where(path, rec.line) + "board '" + number + "' is not a board of round " +
                   std::to_string(sheet.round) + " in " + sheet.path + " (boards 1-" +
                   std::to_string(sheet.pairings.empty() ? 0 : sheet.pairings.back().board) + ")"};
    }
    if (auto bad = check_board_name(rec.fields[1])) return Error{where(path, rec.line) + *bad};
    if (!boards.emplace(board, std::make_pair(rec.fields[1], rec.line)).second) {
      return Error{where(path, rec.line) + "board " + number + " given twice"};
    }
  }
  for (Pairing& p : sheet.pairings) {
    const auto mapped = boards.find(p.board);
    p.eboard = mapped == boards.end() ? std::string() : mapped->second.first;
  }
  // Unmapped pairings get no daemon board: a map names exactly the boards it wants.
  sheet.pairings.erase(std::remove_if(sheet.pairings.begin(), sheet.pairings.end(),
                                      [](const Pairing& p) { return p.eboard.empty(); }),
                       sheet.pairings.end());
  return std::nullopt;
}

Tags round_tags(const RoundSheet& sheet, const Pairing& p) {
  Tags tags;
  add(tags, "Event", sheet.event);
  add(tags, "Site", sheet.site);
  add(tags, "Date", sheet.date);
  tags.emplace_back("Round", std::to_string(sheet.round) + "." + std::to_string(p.board));
  tags.emplace_back("Board", std::to_string(p.board));
  tags.emplace_back("White", p.white.name);
  tags.emplace_back("Black", p.black.name);
  add(tags, "WhiteTitle", p.white.title);
  add(tags, "BlackTitle", p.black.title);
  add(tags, "WhiteElo", p.white.elo);
  add(tags, "BlackElo", p.black.elo);
  add(tags, "WhiteFideId", p.white.fide_id);
  add(tags, "BlackFideId", p.black.fide_id);
  add(tags, "WhiteTeam", p.white.team);
  add(tags, "BlackTeam", p.black.team);
  return tags;
}

Result<RoundPlan> plan_round(const RoundSheet& sheet, const std::vector<std::string>& board_ids) {
  RoundPlan plan;
  std::map<std::string, int> used;  // daemon board -> round board
  for (const Pairing& p : sheet.pairings) {
    if (p.forfeit) {
      plan.forfeits.push_back(p.board);
      continue;
    }
    std::string board_id = p.eboard;
    if (board_id.empty()) {
      if (p.board > int(board_ids.size())) {
        plan.without_board.push_back(p.board);
        continue;
      }
      board_id = board_ids[std::size_t(p.board - 1)];
    } else if (std::find(board_ids.begin(), board_ids.end(), board_id) == board_ids.end()) {
      std::string known;
      for (const auto& id : board_ids) known += (known.empty() ? "" : ", ") + id;
      return Error{where(sheet.path, p.line) + "eboard '" + board_id +
                   "' is not a board of the daemon (its boards: " + known + ")"};
    }
    if (const auto [it, fresh] = used.emplace(board_id, p.board); !fresh) {
      return Error{where(sheet.path, p.line) + "board " + board_id + " would play boards " +
                   std::to_string(it->second) + " and " + std::to_string(p.board) +
                   " of the round"};
    }
    plan.games.push_back(BoardGame{board_id, p.board, round_tags(sheet, p), p.line});
  }
  return plan;
}

}  // namespace eboard::daemon::round
