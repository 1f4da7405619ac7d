// eboard-events --mqtt HOST:PORT --site NAME (docs/interfaces.md §2): one
// operator watching a whole event - every board on every daemon - through the broker.
// It subscribes to eboard/v1/<site>/#, starts each board from its retained state (or,
// with --from-seq N, from seq N as far as the daemons' journals have it), hands on each
// event once and in order through the gap-free fan-in (mqtt_fan_in.h: missing events
// are asked for with replay requests, docs/interfaces.md §7.2) and prints either
// JSON lines (one Event each) or the text view: one compact line per board with players,
// last move, clocks and result, plus a line when a daemon goes online or offline.
// A command-line tool: it runs libmosquitto's own blocking loop on the main thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace eboard::daemon {

struct MqttViewOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 1883;
  std::string site;
  std::vector<std::string> boards;  // only these board ids; empty = all
  bool json = false;
  bool public_only = false;
  std::optional<std::uint32_t> from_seq;             // each board from this seq (replay requests)
  std::optional<std::chrono::milliseconds> timeout;  // exit 3 after this long
};

int run_mqtt_view(const MqttViewOptions& options, std::ostream& out, std::ostream& err);

}  // namespace eboard::daemon
