// eboard-ctl: the operator's and the arbiter's commands to a running eboardd
// (docs/interfaces.md §6.1). ctl_args.h parses, ctl_run.h connects and sends.
#include <iostream>

#include "daemon/programs/eboard_ctl/ctl_args.h"
#include "daemon/programs/eboard_ctl/ctl_run.h"

int main(int argc, char** argv) {
  namespace ctl = eboard::daemon::ctl;
  auto request = ctl::parse_ctl_args(std::vector<std::string>(argv + 1, argv + argc));
  if (!request) {
    std::cerr << "eboard-ctl: " << request.error() << "\n";
    return ctl::kExitBadArguments;
  }
  return ctl::run_ctl(request.value(), std::cout, std::cerr);
}
