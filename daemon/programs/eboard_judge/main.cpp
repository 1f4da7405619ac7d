// eboard-judge: which side can still checkmate (docs/interfaces.md §2, docs/rules.md D10).
// Reads every line first and validates them all, so a bad line prints nothing at all.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "eboard/version.h"
#include "engine/board/fen.h"
#include "engine/rules/unwinnability_analyzer.h"

namespace {

using eboard::engine::AnalysisMode;
using eboard::engine::Color;
using eboard::engine::Position;
using eboard::engine::Verdict;

constexpr const char* kUsage =
    "usage: eboard-judge [--quick] [--max-nodes N] [--irregular] [FILE|-]\n"
    "Reads one position a line (a FEN of 2 to 6 fields, optionally preceded by a label of\n"
    "up to two characters and a space; '#' lines and blank lines are skipped) and prints\n"
    "  W:<verdict> B:<verdict> <fen>\n"
    "where a verdict is winnable, unwinnable or undetermined: can that side checkmate by\n"
    "some series of legal moves (FIDE 6.9, 5.2.2)? Never a wrong winnable/unwinnable.\n"
    "  --quick        static reasoning only (about a microsecond a query); with\n"
    "                 --max-nodes N also a greedy helpmate search of N nodes\n"
    "  --max-nodes N  search budget per side (full mode default 500000, quick 0)\n"
    "  --irregular    also judge positions no game can reach, which are refused by\n"
    "                 default: kings side by side, a pawn on the first or last rank,\n"
    "                 the side not to move in check\n"
    "  --stats        afterwards print verdict counts and the time per query (mean, max;\n"
    "                 wall and thread CPU time) on stderr\n";

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kWinnable: return "winnable";
    case Verdict::kUnwinnable: return "unwinnable";
    case Verdict::kUndetermined: break;
  }
  return "undetermined";
}

// A line is "FEN" or "LABEL FEN" with a label of one or two characters (a FEN's first
// field is always longer: eight ranks and seven slashes).
std::string_view strip_label(std::string_view line) {
  std::size_t space = line.find(' ');
  if (space != std::string_view::npos && space <= 2 && line.find('/') > space)
    return line.substr(space + 1);
  return line;
}

// Kings side by side are also "the side not to move is in check"; said plainly.
std::optional<std::string> kings_touch(const Position& pos) {
  using namespace eboard::engine;
  const Square w = pos.king_square(kWhite);
  const Square b = pos.king_square(kBlack);
  if (std::abs(file_of(w) - file_of(b)) > 1 || std::abs(rank_of(w) - rank_of(b)) > 1) {
    return std::nullopt;
  }
  return "the kings stand side by side (" + square_name(w) + ", " + square_name(b) + ")";
}

// A position as the FEN reader takes it by default (FenMode::kStrict), or any with
// --irregular; the error is the reason.
eboard::Result<Position> read_position(std::string_view fen, bool irregular) {
  using eboard::engine::FenMode;
  auto parsed = eboard::engine::parse_fen(fen, FenMode::kAllowIrregular);
  if (!parsed.ok() || irregular) return parsed;
  if (auto touching = kings_touch(parsed.value())) return eboard::Error{*touching};
  return eboard::engine::parse_fen(fen, FenMode::kStrict);
}

int fail(const std::string& message) {
  std::cerr << "eboard-judge: " << message << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  AnalysisMode mode = AnalysisMode::kFull;
  std::uint64_t max_nodes = eboard::engine::kDefaultFullNodeLimit;
  bool nodes_given = false;
  bool stats = false;
  bool irregular = false;
  std::string file = "-";
  bool file_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--version") {
      std::cout << "eboard-judge " << eboard::kVersion << "\n";
      return 0;
    } else if (arg == "--quick") {
      mode = AnalysisMode::kQuick;
    } else if (arg == "--irregular") {
      irregular = true;
    } else if (arg == "--stats") {
      stats = true;
    } else if (arg == "--max-nodes") {
      if (++i == argc) return fail("--max-nodes needs a number");
      std::string_view v = argv[i];
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), max_nodes);
      if (ec != std::errc() || end != v.data() + v.size())
        return fail("--max-nodes: not a number: " + std::string(v));
      nodes_given = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail("unknown option " + arg + " (see --help)");
    } else if (file_given) {
      return fail("more than one input file given");
    } else {
      file = arg;
      file_given = true;
    }
  }
  if (mode == AnalysisMode::kQuick && !nodes_given)
    max_nodes = eboard::engine::kDefaultQuickNodeLimit;

  std::ifstream in_file;
  if (file != "-") {
    std::error_code ignored;
    if (std::filesystem::is_directory(file, ignored)) return fail(file + ": is a directory");
    in_file.open(file);
    if (!in_file) return fail(file + ": cannot open");
  }
  std::istream& in = file == "-" ? std::cin : in_file;

  std::vector<Position> positions;
  std::vector<std::string> fens;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    std::string_view fen = strip_label(std::string_view(line).substr(first));
    auto parsed = read_position(fen, irregular);
    if (!parsed.ok()) {
      std::cerr << file << ":" << number << ": " << parsed.error()
                << (irregular ? "" : " (--irregular judges it anyway)") << "\n";
      return 2;
    }
    positions.push_back(std::move(parsed).value());
    fens.emplace_back(fen);
  }

  if (in.bad()) return fail(file + ": read error");
  eboard::engine::WinnabilityAnalyzer analyzer;
  std::uint64_t counts[3] = {};
  double total_us = 0, max_us = 0, total_cpu_us = 0, max_cpu_us = 0;
  // The machine is shared: wall time includes time spent descheduled, the thread's CPU
  // time does not; both are reported.
  auto cpu_now_us = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e6 + double(t.tv_nsec) / 1e3;
  };
  auto judge = [&](const Position& pos, Color side) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = cpu_now_us();
    Verdict v = analyzer.analyse(pos, side, mode, max_nodes).verdict;
    const double cpu = cpu_now_us() - cpu_start;
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    total_us += took.count();
    max_us = std::max(max_us, took.count());
    total_cpu_us += cpu;
    max_cpu_us = std::max(max_cpu_us, cpu);
    ++counts[int(v)];
    return v;
  };
  for (std::size_t i = 0; i < positions.size(); ++i) {
    Verdict w = judge(positions[i], eboard::engine::kWhite);
    Verdict b = judge(positions[i], eboard::engine::kBlack);
    std::printf("W:%s B:%s %s\n", verdict_name(w), verdict_name(b), fens[i].c_str());
  }
  if (stats) {
    const double queries = double(2 * positions.size());
    std::fprintf(stderr,
                 "queries %.0f winnable %llu unwinnable %llu undetermined %llu "
                 "mean_us %.2f max_us %.1f cpu_mean_us %.2f cpu_max_us %.1f\n",
                 queries, (unsigned long long)counts[0], (unsigned long long)counts[1],
                 (unsigned long long)counts[2], queries ? total_us / queries : 0.0, max_us,
                 queries ? total_cpu_us / queries : 0.0, max_cpu_us);
  }
  return 0;
}
