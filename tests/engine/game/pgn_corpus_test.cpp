// Every game of ../shared/data/pgn/*.pgn: it parses, replays legally, and our export reads
// back as the same game. Debian's pgn-extract, an independent PGN implementation, then
// reads the whole export without a diagnostic, and its own re-export of it reads back as
// the same moves again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/board/movegen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"

namespace eboard::engine {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(EBOARD_SHARED_DIR) / "data" / "pgn"))
    if (entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Lines that open a game's tag section: the count the reader must match.
int count_event_tags(const std::string& text) {
  int count = 0;
  for (std::size_t at = 0; (at = text.find("[Event ", at)) != std::string::npos; ++at)
    count += at == 0 || text[at - 1] == '\n';
  return count;
}

struct Corpus {
  std::vector<PgnGame> games;
  std::string exported;  // every game in export format, concatenated
};

Corpus load_and_export() {
  Corpus corpus;
  for (const fs::path& file : corpus_files()) {
    const std::string text = read_file(file);
    int errors = 0;
    PgnReader reader(text, file.filename().string());
    while (auto game = reader.next()) {
      if (!game->ok()) {
        if (++errors <= 5) ADD_FAILURE() << game->error();
        continue;
      }
      Result<std::string> pgn = write_pgn(game->value());
      if (!pgn.ok()) {
        ADD_FAILURE() << file << " game at line " << game->value().line << ": " << pgn.error();
        continue;
      }
      corpus.exported += pgn.value();
      corpus.games.push_back(std::move(*game).value());
    }
    EXPECT_EQ(errors, 0) << file;
    EXPECT_GT(count_event_tags(text), 0) << file;
  }
  return corpus;
}

TEST(PgnCorpus, EveryGameParsesReplaysLegallyAndRoundTrips) {
  ASSERT_FALSE(corpus_files().empty()) << "no PGN files under " << EBOARD_SHARED_DIR;
  int expected_games = 0;
  for (const fs::path& file : corpus_files()) expected_games += count_event_tags(read_file(file));
  const Corpus corpus = load_and_export();
  EXPECT_EQ(int(corpus.games.size()), expected_games);

  std::size_t plies = 0;
  for (const PgnGame& game : corpus.games) {
    Position pos = game.start;
    MoveList legal;
    for (Move m : game.moves) {
      generate_legal(pos, legal);
      ASSERT_TRUE(legal.contains(m)) << "game at line " << game.line << ": " << to_uci(m);
      pos.make(m);
    }
    plies += game.moves.size();
  }
  Result<std::vector<PgnGame>> back = read_pgn(corpus.exported, "export.pgn");
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back.value().size(), corpus.games.size());
  for (std::size_t i = 0; i < corpus.games.size(); ++i) {
    const PgnGame& a = corpus.games[i];
    const PgnGame& b = back.value()[i];
    ASSERT_EQ(a.moves, b.moves) << "game at line " << a.line;
    EXPECT_EQ(a.result, b.result) << "game at line " << a.line;
    EXPECT_EQ(a.tags.size(), b.tags.size())
        << "game at line " << a.line;  // all shared games start normally
  }
  std::cout << "[ games    ] " << corpus.games.size() << " games, " << plies
            << " plies parsed, replayed and round-tripped\n";
  RecordProperty("games", int(corpus.games.size()));
}

std::string find_pgn_extract() {
  for (const char* path : {"/usr/games/pgn-extract", "/usr/bin/pgn-extract"})
    if (access(path, X_OK) == 0) return path;
  return std::system("command -v pgn-extract >/dev/null 2>&1") == 0 ? "pgn-extract" : "";
}

// pgn-extract's stderr without its progress counter ("Games: 1000\r" every 1000 games).
std::string without_progress(std::string text) {
  for (std::size_t at; (at = text.find("Games: ")) != std::string::npos;) {
    std::size_t end = at + 7;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end < text.size() && text[end] == '\r') ++end;
    text.erase(at, end - at);
  }
  return text;
}

struct ExtractRun {
  int status = -1;
  std::string diagnostics;  // its log plus its stderr minus the "Games: N" progress
  std::string output;       // its re-export
};

// Runs pgn-extract once over `pgn`; -s silences the per-game listing, -l sends the
// diagnostics (bad moves, missing results, ...) to a log file.
ExtractRun run_pgn_extract(const std::string& program, const std::string& pgn) {
  const fs::path dir = fs::path(testing::TempDir()) / ("eboard_pgn_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path in = dir / "in.pgn", out = dir / "out.pgn", log = dir / "log.txt",
                 err = dir / "stderr.txt";
  std::ofstream(in, std::ios::binary) << pgn;
  const std::string command = program + " -s -o '" + out.string() + "' -l '" + log.string() +
                              "' '" + in.string() + "' 2>'" + err.string() + "'";
  ExtractRun run;
  run.status = std::system(command.c_str());
  run.diagnostics = read_file(log) + without_progress(read_file(err));
  run.output = read_file(out);
  fs::remove_all(dir);
  return run;
}

TEST(PgnCorpus, PgnExtractAcceptsOurExport) {
  const std::string program = find_pgn_extract();
  ASSERT_FALSE(program.empty()) << "pgn-extract not found (Debian package pgn-extract)";
  const Corpus corpus = load_and_export();
  ASSERT_FALSE(corpus.games.empty());

  // The oracle can fail: a wrong move and a missing result are reported.
  const ExtractRun broken = run_pgn_extract(program,
                                            "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n\n"
                                            "[Event \"y\"]\n\n1. e4\n");
  EXPECT_EQ(broken.status, 0);
  EXPECT_NE(broken.diagnostics.find("Ke3"), std::string::npos) << broken.diagnostics;

  const ExtractRun run = run_pgn_extract(program, corpus.exported);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.diagnostics, "");
  Result<std::vector<PgnGame>> again = read_pgn(run.output, "pgn-extract-output.pgn");
  ASSERT_TRUE(again.ok()) << again.error();
  ASSERT_EQ(again.value().size(), corpus.games.size());
  for (std::size_t i = 0; i < corpus.games.size(); ++i)
    ASSERT_EQ(again.value()[i].moves, corpus.games[i].moves)
        << "game at line " << corpus.games[i].line;
  std::cout << "[ games    ] pgn-extract read " << corpus.games.size()
            << " exported games without a diagnostic\n";
}

}  // namespace
}  // namespace eboard::engine
