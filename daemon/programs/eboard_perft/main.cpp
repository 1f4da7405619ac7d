// eboard-perft: move-generator correctness and speed (docs/interfaces.md §2).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "eboard/version.h"
#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/board/notation.h"
#include "engine/board/perft_suite.h"

namespace {

using namespace eboard::engine;

constexpr const char* kUsage =
    "usage: eboard-perft --fen FEN --depth N [--divide]\n"
    "       eboard-perft --epd FILE [--max-depth D] [--max-nodes M]\n"
    "       eboard-perft --bench\n"
    "  --fen FEN      position to count from (\"startpos\" for the start position)\n"
    "  --depth N      plies to count\n"
    "  --divide       also print \"uci: count\" for each root move\n"
    "  --epd FILE     check every \"FEN ;D1 n ;D2 n ...\" line of FILE\n"
    "  --max-depth D  with --epd: skip depths above D\n"
    "  --max-nodes M  with --epd: skip depths whose expected count is above M\n"
    "  --bench        count a fixed set of positions and print the speed (last line: mnps X)\n"
    "  --version      print the version and exit\n";

// Deeper counts take longer than anyone waits (depth 7 from the start is ~3e9 nodes);
// the same cap for --depth and the depths an --epd file asks for.
constexpr std::uint64_t kMaxDepth = 20;

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "eboard-perft: " << message << "\n";
  std::exit(2);
}

std::uint64_t parse_count(const std::string& option, const std::string& text) {
  try {
    size_t used = 0;
    long long value = std::stoll(text, &used);
    if (used != text.size() || value < 0) throw std::invalid_argument(text);
    return std::uint64_t(value);
  } catch (const std::exception&) {
    fail(option + " needs a non-negative whole number, got \"" + text + "\"");
  }
}

Position position_from(const std::string& fen) {
  if (fen == "startpos") return Position();
  auto pos = parse_fen(fen, FenMode::kAllowIrregular);
  if (!pos) fail("bad FEN \"" + fen + "\": " + pos.error());
  return std::move(pos).value();
}

int run_fen(const std::string& fen, int depth, bool divide) {
  Position pos = position_from(fen);
  std::uint64_t total = 0;
  if (divide && depth > 0) {
    MoveList moves;
    generate_legal(pos, moves);
    for (Move m : moves) {
      pos.make(m);
      std::uint64_t n = perft(pos, depth - 1);
      pos.unmake(m);
      std::printf("%s: %llu\n", to_uci(m).c_str(), static_cast<unsigned long long>(n));
      total += n;
    }
  } else {
    total = perft(pos, depth);
  }
  std::printf("nodes %llu\n", static_cast<unsigned long long>(total));
  return 0;
}

int run_epd(const std::string& file, std::uint64_t max_depth, std::uint64_t max_nodes) {
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored)) fail(file + ": is a directory");
  std::ifstream in(file, std::ios::binary);
  if (!in) fail("cannot read " + file);
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) fail(file + ": read error");
  auto suite = parse_suite(text.str(), file);
  if (!suite) fail(suite.error());
  // Every line is checked before anything is counted.
  for (const SuiteEntry& entry : *suite) {
    for (auto [depth, expected] : entry.expected) {
      if (std::uint64_t(depth) > kMaxDepth) {
        fail(file + ":" + std::to_string(entry.line) + ": depth " + std::to_string(depth) +
             " is above " + std::to_string(kMaxDepth));
      }
    }
  }
  int passed = 0, failed = 0;
  for (const SuiteEntry& entry : *suite) {
    auto pos = parse_fen(entry.fen, FenMode::kAllowIrregular);
    if (!pos) fail(file + ":" + std::to_string(entry.line) + ": bad FEN: " + pos.error());
    for (auto [depth, expected] : entry.expected) {
      if (std::uint64_t(depth) > max_depth || expected > max_nodes) continue;
      Position p = pos.value();
      std::uint64_t got = perft(p, depth);
      if (got == expected) {
        ++passed;
      } else {
        ++failed;
        std::printf("FAIL %s depth %d expected %llu got %llu\n", entry.fen.c_str(), depth,
                    static_cast<unsigned long long>(expected),
                    static_cast<unsigned long long>(got));
      }
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

// The positions of the usual perft results list (start, Kiwipete, 3 to 6), at depths
// that take about a second each on a Raspberry Pi class core.
int run_bench() {
  struct Case {
    const char* fen;
    int depth;
  };
  static constexpr Case kCases[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
      {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7},
      {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5},
      {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5},
      {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5},
  };
  std::uint64_t total = 0;
  auto start = std::chrono::steady_clock::now();
  for (const Case& c : kCases) {
    Position pos = position_from(c.fen);
    auto t0 = std::chrono::steady_clock::now();
    std::uint64_t n = perft(pos, c.depth);
    std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    std::printf("%-72s depth %d nodes %12llu %7.3f s %8.1f mnps\n", c.fen, c.depth,
                static_cast<unsigned long long>(n), dt.count(), n / dt.count() / 1e6);
    total += n;
  }
  std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  std::printf("total nodes %llu\n", static_cast<unsigned long long>(total));
  std::printf("seconds %.3f\n", seconds.count());
  std::printf("mnps %.1f\n", total / seconds.count() / 1e6);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::optional<std::string> fen, epd;
  std::optional<std::uint64_t> depth;
  std::uint64_t max_depth = UINT64_MAX, max_nodes = UINT64_MAX;
  bool divide = false, bench = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) fail(a + " needs a value");
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--version") {
      std::printf("eboard-perft %s\n", eboard::kVersion);
      return 0;
    } else if (a == "--fen") {
      fen = value();
    } else if (a == "--depth") {
      depth = parse_count(a, value());
    } else if (a == "--divide") {
      divide = true;
    } else if (a == "--epd") {
      epd = value();
    } else if (a == "--max-depth") {
      max_depth = parse_count(a, value());
    } else if (a == "--max-nodes") {
      max_nodes = parse_count(a, value());
    } else if (a == "--bench") {
      bench = true;
    } else {
      fail("unknown argument \"" + a + "\" (see --help)");
    }
  }
  if (int(fen.has_value()) + int(epd.has_value()) + int(bench) != 1)
    fail("give exactly one of --fen, --epd or --bench (see --help)");
  if (bench) return run_bench();
  if (epd) return run_epd(*epd, max_depth, max_nodes);
  if (!depth) fail("--fen needs --depth");
  if (*depth > kMaxDepth) fail("--depth must be at most " + std::to_string(kMaxDepth));
  return run_fen(*fen, int(*depth), divide);
}
