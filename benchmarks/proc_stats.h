// CPU figures from /proc for bench_relay (benchmarks/relay_bench.cpp): a process' user +
// system time and peak memory, a child found by name, a thread's own time, the machine's.
#pragma once

#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace eboard::bench {

// CPU time (user + system) of the calling thread, in seconds.
inline double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// utime + stime of a process in seconds (0 when it is gone); its peak resident memory in KiB.
struct ProcessCpu {
  double cpu = 0;
  long peak_kib = 0;
};
inline ProcessCpu process_cpu(pid_t pid) {
  ProcessCpu out;
  // The command name (field 2) may hold spaces: count the fields after its ')'.
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return out;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; fields >> field && i <= 15; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  out.cpu = ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
  std::istringstream status(slurp("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmHWM:")) out.peak_kib = std::stol(line.substr(6));
  }
  return out;
}

// A child process of this one by its command name (the broker, whose Child is private).
inline pid_t child_named(const std::string& comm) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = slurp(entry.path().string() + "/stat");
    const auto open = stat.find('(');
    const auto close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    std::string state;
    pid_t parent = 0;
    rest >> state >> parent;
    if (stat.substr(open + 1, close - open - 1) == comm && parent == ::getpid())
      return static_cast<pid_t>(std::stoi(name));
  }
  return -1;
}

// Busy and total jiffies of the whole machine (/proc/stat "cpu" line).
inline std::pair<double, double> machine_jiffies() {
  std::istringstream line(slurp("/proc/stat"));
  std::string cpu;
  line >> cpu;
  double total = 0, idle = 0, v = 0;
  for (int i = 0; line >> v && i < 8; ++i) {
    total += v;
    if (i == 3 || i == 4) idle += v;  // idle, iowait
  }
  return {total - idle, total};
}

}  // namespace eboard::bench
