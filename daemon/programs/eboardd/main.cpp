// eboardd (docs/interfaces.md §2): parse the options, then run the daemon. Bad options are one
// line on stderr and exit status 2, before anything is opened.
#include <unistd.h>

#include <iostream>

#include "daemon/core/config.h"
#include "daemon/programs/eboardd/daemon.h"

int main(int argc, char** argv) {
  auto parsed = eboard::daemon::parse_config(argc, argv);
  if (!parsed) {
    std::cerr << "eboardd: " << parsed.error() << "\n";
    return 2;
  }
  switch (parsed->action) {
    case eboard::daemon::ConfigAction::kHelp: std::cout << eboard::daemon::config_help(); return 0;
    case eboard::daemon::ConfigAction::kVersion:
      std::cout << "eboardd " << eboard::daemon::kDaemonVersion << "\n";
      return 0;
    case eboard::daemon::ConfigAction::kRun: break;
  }
  eboard::daemon::SystemClock clock;
  return eboard::daemon::run_daemon(parsed->config, clock, STDOUT_FILENO, std::cerr);
}
