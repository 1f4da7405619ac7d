// A pseudo-terminal whose slave side is reachable through a symlink (docs/interfaces.md §2
// `eboard-sim dgt --link PATH`). The emulator holds the master; it also keeps the slave
// open itself so that the host opening and closing the port does not hang the master up,
// and so that it can tell how many bytes the host has not read yet (pacing `--speed 0`,
// byte-at-a-time delivery). hang_up() closes both ends - to the host that is exactly a
// USB unplug (read returns EOF/EIO) - and open() makes a new pty and moves the link.
#pragma once

#include <string>
#include <variant>

#include "simulators/emulator/emulator_link.h"

namespace eboard::sim {

class PtyLink final : public EmulatorLink {
 public:
  explicit PtyLink(std::string link_path) : link_path_(std::move(link_path)) {}
  PtyLink(const PtyLink&) = delete;
  PtyLink& operator=(const PtyLink&) = delete;
  ~PtyLink() override;

  std::variant<std::monostate, PtyError> open() override;
  void hang_up() override;
  void remove_link() override;

  bool is_open() const override { return master_ >= 0; }
  int master_fd() const { return master_; }
  int data_fd() const override { return master_; }
  // Bytes written by us that the host has not read yet.
  int unread_by_host() const override;
  std::string describe() const override { return slave_path_; }
  const std::string& slave_path() const { return slave_path_; }

 private:
  std::string link_path_;
  std::string slave_path_;
  int master_ = -1;
  int slave_ = -1;
};

}  // namespace eboard::sim
