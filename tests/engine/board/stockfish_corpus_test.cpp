// Move generation against a second, independent oracle: Debian's stockfish. Positions
// from the shared real games (every 5th ply of every 20th game) are counted to depth 3
// move by move ("divide") by both programs, which must agree on every root move and
// every count.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"

namespace eboard::engine {
namespace {

// A UCI engine on two pipes; blocking reads are fine in a test.
class UciEngine {
 public:
  explicit UciEngine(const char* path) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      execl(path, path, static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = fdopen(to_child[1], "w");
    out_ = fdopen(from_child[0], "r");
  }
  ~UciEngine() {
    if (in_) {
      send("quit");
      fclose(in_);
    }
    if (out_) fclose(out_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  bool running() const { return in_ && out_; }
  void send(const std::string& line) {
    std::fputs((line + "\n").c_str(), in_);
    std::fflush(in_);
  }
  bool read_line(std::string& line) {
    char buffer[512];
    if (!std::fgets(buffer, sizeof buffer, out_)) return false;
    line = buffer;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return true;
  }
  // Root move -> node count at `depth`, from "go perft".
  std::map<std::string, std::uint64_t> divide(const std::string& fen, int depth) {
    send("position fen " + fen);
    send("go perft " + std::to_string(depth));
    std::map<std::string, std::uint64_t> counts;
    std::string line;
    while (read_line(line) && line.rfind("Nodes searched", 0) != 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos && colon >= 4 && colon <= 5)
        counts[line.substr(0, colon)] = std::stoull(line.substr(colon + 1));
    }
    return counts;
  }

 private:
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

const char* stockfish_path() {
  for (const char* p : {"/usr/games/stockfish", "/usr/bin/stockfish"})
    if (access(p, X_OK) == 0) return p;
  return nullptr;
}

TEST(StockfishOracle, RealGamePositionsDivideIdentically) {
  const char* path = stockfish_path();
  ASSERT_NE(path, nullptr) << "stockfish is missing: tools/install-deps.sh installs it";
  UciEngine stockfish(path);
  ASSERT_TRUE(stockfish.running());
  stockfish.send("uci");
  std::string line;
  while (stockfish.read_line(line) && line != "uciok") {
  }

  int positions = 0, game_index = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EBOARD_SHARED_DIR) + "/data/pgn")) {
    if (entry.path().extension() != ".pgn") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    PgnReader reader(content, entry.path().string());
    while (auto game = reader.next()) {
      if (!game->ok() || game_index++ % 20 != 0) continue;
      Position pos = game->value().start;
      const auto& moves = game->value().moves;
      for (size_t ply = 0; ply <= moves.size(); ++ply) {
        if (ply % 5 == 0) {
          std::map<std::string, std::uint64_t> ours;
          MoveList list;
          generate_legal(pos, list);
          for (Move m : list) {
            pos.make(m);
            ours[to_uci(m)] = perft(pos, 2);
            pos.unmake(m);
          }
          ASSERT_EQ(ours, stockfish.divide(to_fen(pos), 3)) << to_fen(pos);
          ++positions;
        }
        if (ply < moves.size()) pos.make(moves[ply]);
      }
    }
  }
  RecordProperty("positions", positions);
  std::printf("compared %d real-game positions with stockfish at depth 3\n", positions);
  EXPECT_GT(positions, 3000);
}

}  // namespace
}  // namespace eboard::engine
