#include "daemon/round/round_csv.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "daemon/round/text_lines.h"

namespace eboard::daemon::round {
namespace {

bool has_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7F;
  });
}

// Reads records one character at a time: quotes may hold commas and line breaks.
class CsvScanner {
 public:
  CsvScanner(std::string_view text, const std::string& path) : text_(text), path_(path) {
    if (text_.starts_with("\xEF\xBB\xBF")) text_.remove_prefix(3);
  }

  Result<std::vector<CsvRecord>> run() {
    std::vector<CsvRecord> records;
    while (at_ < text_.size()) {
      CsvRecord record;
      record.line = line_;
      if (auto error = read_record(record.fields)) return Error{*error};
      const bool blank = record.fields.size() == 1 && record.fields[0].empty();
      if (!blank) records.push_back(std::move(record));
    }
    return records;
  }

 private:
  // One record, up to and including its line break.
  std::optional<std::string> read_record(std::vector<std::string>& fields) {
    const int start = line_;
    for (;;) {
      std::string field;
      bool quoted = false;
      if (auto error = read_field(field, quoted)) return error;
      std::string value = quoted ? field : std::string(trim(field));
      if (!valid_utf8(value)) return where(path_, start) + "a field is not valid UTF-8";
      if (has_control(value)) return where(path_, start) + "a field holds a control character";
      fields.push_back(std::move(value));
      if (at_ >= text_.size()) return std::nullopt;
      const char c = text_[at_++];
      if (c == ',') continue;
      end_line(c);
      return std::nullopt;
    }
  }

  std::optional<std::string> read_field(std::string& field, bool& quoted) {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
    if (at_ < text_.size() && text_[at_] == '"') {
      quoted = true;
      return read_quoted(field);
    }
    while (at_ < text_.size() && text_[at_] != ',' && text_[at_] != '\r' && text_[at_] != '\n') {
      if (text_[at_] == '"') return where(path_, line_) + "a quote inside an unquoted field";
      field += text_[at_++];
    }
    return std::nullopt;
  }

  std::optional<std::string> read_quoted(std::string& field) {
    const int start = line_;
    ++at_;
    for (;;) {
      if (at_ >= text_.size()) return where(path_, start) + "a quoted field is not closed";
      const char c = text_[at_++];
      if (c == '"') {
        if (at_ < text_.size() && text_[at_] == '"') {
          field += '"';
          ++at_;
          continue;
        }
        break;
      }
      if (c == '\r' || c == '\n') {
        end_line(c);
        field += '\n';
        continue;
      }
      field += c;
    }
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
    if (at_ < text_.size() && text_[at_] != ',' && text_[at_] != '\r' && text_[at_] != '\n') {
      return where(path_, line_) + "text after a quoted field's closing quote";
    }
    return std::nullopt;
  }

  void end_line(char c) {
    if (c == '\r' && at_ < text_.size() && text_[at_] == '\n') ++at_;
    ++line_;
  }

  std::string_view text_;
  const std::string& path_;
  std::size_t at_ = 0;
  int line_ = 1;
};

enum class Column : std::uint8_t {
  kBoard,
  kWhite,
  kBlack,
  kEboard,
  kWhiteFideId,
  kBlackFideId,
  kWhiteElo,
  kBlackElo,
  kWhiteTitle,
  kBlackTitle,
  kWhiteTeam,
  kBlackTeam,
};

const std::map<std::string, Column>& column_names() {
  static const std::map<std::string, Column> names = {
      {"board", Column::kBoard},
      {"white", Column::kWhite},
      {"black", Column::kBlack},
      {"eboard", Column::kEboard},
      {"white_fide_id", Column::kWhiteFideId},
      {"black_fide_id", Column::kBlackFideId},
      {"white_elo", Column::kWhiteElo},
      {"black_elo", Column::kBlackElo},
      {"white_title", Column::kWhiteTitle},
      {"black_title", Column::kBlackTitle},
      {"white_team", Column::kWhiteTeam},
      {"black_team", Column::kBlackTeam},
  };
  return names;
}

// "" stays unknown; "0" (the files' "no id", "unrated") is unknown too.
Result<std::string> number_field(std::string_view text, std::size_t max_digits, const char* what) {
  if (text.empty()) return std::string();
  if (!all_digits(text) || text.size() > max_digits) {
    return Error{std::string(what) + " '" + std::string(text) + "' is not a number of up to " +
                 std::to_string(max_digits) + " digits"};
  }
  if (std::all_of(text.begin(), text.end(), [](char c) { return c == '0'; })) return std::string();
  return std::string(text);
}

Result<std::vector<Column>> read_header(const CsvRecord& header, const std::string& path) {
  std::vector<Column> columns;
  std::set<Column> seen;
  for (const std::string& raw : header.fields) {
    std::string name = raw;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto found = column_names().find(name);
    if (found == column_names().end()) {
      return Error{where(path, header.line) + "unknown column '" + raw +
                   "' (columns: board, white, black, eboard, white_fide_id, black_fide_id, "
                   "white_elo, black_elo, white_title, black_title, white_team, black_team)"};
    }
    if (!seen.insert(found->second).second) {
      return Error{where(path, header.line) + "column '" + raw + "' given twice"};
    }
    columns.push_back(found->second);
  }
  for (const char* required : {"board", "white", "black"}) {
    if (!seen.count(column_names().at(required))) {
      return Error{where(path, header.line) + "no '" + required +
                   "' column (a round CSV needs board, white and black)"};
    }
  }
  return columns;
}

Result<int> board_number(std::string_view text) {
  if (!all_digits(text) || text.size() > 4 || std::stoi(std::string(text)) == 0) {
    return Error{"board '" + std::string(text) + "' is not a board number from 1 to 9999"};
  }
  return std::stoi(std::string(text));
}

// Fills one pairing field; the error is the message without the file and line.
std::optional<std::string> set_field(Pairing& p, Column column, const std::string& value) {
  const auto assign = [](std::string& target, Result<std::string> checked) {
    if (!checked) return std::optional<std::string>(checked.error());
    target = checked.value();
    return std::optional<std::string>();
  };
  switch (column) {
    case Column::kBoard: {
      auto board = board_number(value);
      if (!board) return board.error();
      p.board = board.value();
      return std::nullopt;
    }
    case Column::kWhite:
    case Column::kBlack:
      if (value.empty()) {
        return std::string(column == Column::kWhite ? "white" : "black") + ": no name";
      }
      (column == Column::kWhite ? p.white : p.black).name = value;
      return std::nullopt;
    case Column::kEboard:
      if (value.empty()) return std::nullopt;
      if (auto bad = check_board_name(value)) return "eboard: " + *bad;
      p.eboard = value;
      return std::nullopt;
    case Column::kWhiteFideId:
      return assign(p.white.fide_id, number_field(value, 11, "white_fide_id"));
    case Column::kBlackFideId:
      return assign(p.black.fide_id, number_field(value, 11, "black_fide_id"));
    case Column::kWhiteElo: return assign(p.white.elo, number_field(value, 4, "white_elo"));
    case Column::kBlackElo: return assign(p.black.elo, number_field(value, 4, "black_elo"));
    case Column::kWhiteTitle:
      return value.empty() ? std::nullopt : assign(p.white.title, fide_title(value));
    case Column::kBlackTitle:
      return value.empty() ? std::nullopt : assign(p.black.title, fide_title(value));
    case Column::kWhiteTeam: p.white.team = value; return std::nullopt;
    case Column::kBlackTeam: p.black.team = value; return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_board_name(std::string_view name) {
  const bool ok =
      !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
      });
  if (ok) return std::nullopt;
  return "'" + std::string(name) + "' is not a board name (1 to 32 letters, digits, '-' or '_')";
}

Result<std::string> fide_title(std::string_view text) {
  static constexpr std::array<std::string_view, 8> kTitles = {"GM",  "IM",  "FM",  "CM",
                                                              "WGM", "WIM", "WFM", "WCM"};
  std::string upper(text);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (std::find(kTitles.begin(), kTitles.end(), upper) != kTitles.end()) return upper;
  return Error{"'" + std::string(text) +
               "' is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM)"};
}

Result<std::vector<CsvRecord>> read_csv(std::string_view text, const std::string& path) {
  return CsvScanner(text, path).run();
}

Result<RoundSheet> parse_round_csv(std::string_view text, const std::string& path,
                                   const RoundOptions& options) {
  auto records = read_csv(text, path);
  if (!records) return Error{records.error()};
  if (records->empty()) return Error{path + ": empty (a round CSV starts with its header line)"};
  auto columns = read_header(records->front(), path);
  if (!columns) return Error{columns.error()};
  if (!options.round) {
    return Error{path + ": a round CSV needs --round N (games are tagged Round \"R.B\")"};
  }
  RoundSheet sheet;
  sheet.path = path;
  sheet.round = *options.round;
  std::map<int, int> board_lines;
  for (std::size_t r = 1; r < records->size(); ++r) {
    const CsvRecord& record = (*records)[r];
    if (record.fields.size() != columns->size()) {
      return Error{where(path, record.line) + std::to_string(record.fields.size()) +
                   " fields; the header has " + std::to_string(columns->size())};
    }
    Pairing p;
    p.line = record.line;
    for (std::size_t c = 0; c < columns->size(); ++c) {
      if (auto bad = set_field(p, (*columns)[c], record.fields[c])) {
        return Error{where(path, record.line) + *bad};
      }
    }
    if (const auto [it, fresh] = board_lines.emplace(p.board, record.line); !fresh) {
      return Error{where(path, record.line) + "board " + std::to_string(p.board) +
                   " is already on line " + std::to_string(it->second)};
    }
    sheet.pairings.push_back(std::move(p));
  }
  if (sheet.pairings.empty()) return Error{where(path, records->front().line) + "no pairings"};
  std::sort(sheet.pairings.begin(), sheet.pairings.end(),
            [](const Pairing& a, const Pairing& b) { return a.board < b.board; });
  return sheet;
}

}  // namespace eboard::daemon::round
