// eboard-ctl's connection to the daemon (docs/interfaces.md §4, §6.1): a Unix socket, TCP, or
// TCP with TLS (Boost.Asio's ssl over OpenSSL: the daemon's certificate is checked
// against --ca, or the system's CAs, and the host name), carrying length-delimited
// Frames. A client program doing one thing at a time, so each operation runs the
// io_context until it is done or the timeout passes.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "eboard/v1/frame.pb.h"
#include "util/result.h"

namespace eboard::daemon::ctl {

class Connection {
 public:
  // Connects to `target` (unix:PATH, tcp:HOST:PORT, tls:HOST:PORT; HOST a name or an
  // address) and reads the daemon's hello. The error says why (for exit status 3).
  static Result<std::unique_ptr<Connection>> open(const std::string& target, const std::string& ca,
                                                  std::chrono::milliseconds timeout);
  virtual ~Connection() = default;

  virtual std::optional<Error> send(const eboard::v1::Frame& frame) = 0;
  // The next frame for which `wanted` holds; others (events, snapshots) are skipped.
  virtual Result<eboard::v1::Frame> next(
      const std::function<bool(const eboard::v1::Frame&)>& wanted) = 0;

  const eboard::v1::Hello& hello() const { return hello_; }

 protected:
  eboard::v1::Hello hello_;
};

// Whether `target` is a form --connect accepts (unix:PATH, tcp:HOST:PORT, tls:HOST:PORT).
std::optional<std::string> check_target(const std::string& target);

}  // namespace eboard::daemon::ctl
