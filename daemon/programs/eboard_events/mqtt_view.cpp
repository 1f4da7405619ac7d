#include "daemon/programs/eboard_events/mqtt_view.h"

#include <mosquitto.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "daemon/core/board_state.h"
#include "daemon/programs/eboard_events/mqtt_fan_in.h"
#include "eboard/v1/json.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

std::string clock_text(int ms) {
  if (ms < 0) ms = 0;
  const int s = ms / 1000;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  return buffer;
}

std::string tag(const v1::Snapshot& s, const char* name) {
  for (const auto& t : s.tags()) {
    if (t.name() == name) return t.value();
  }
  return "?";
}

class View {
 public:
  View(const MqttViewOptions& options, std::ostream& out)
      : options_(options), out_(out), screen_(isatty(STDOUT_FILENO) && !options.json) {}

  void status(const std::string& node, const std::string& status) {
    if (!options_.json) out_ << node << ": " << status << "\n" << std::flush;
  }

  void state(const BoardKey& board, const v1::Snapshot& snapshot) {
    if (!wanted(board)) return;
    const std::string key = board.text();
    auto [it, fresh] = boards_.try_emplace(key, snapshot);
    if (!fresh && snapshot.last_seq() > it->second.snapshot().last_seq())
      it->second = BoardState(snapshot);
    if (!options_.json) show(key);
  }

  // One event, in sequence order and once (the fan-in saw to both).
  void event(const BoardKey& board, const v1::Event& event) {
    if (!wanted(board)) return;
    if (options_.public_only && event.visibility() != v1::VISIBILITY_PUBLIC) return;
    const std::string key = board.text();
    auto it = boards_.try_emplace(key, BoardState(board.board)).first;
    if (event.seq() > it->second.snapshot().last_seq()) it->second.apply(event);
    if (options_.json) {
      out_ << proto::to_json_line(event) << "\n" << std::flush;
    } else if (!event.has_clock() || screen_) {
      show(key);
    }
  }

 private:
  bool wanted(const BoardKey& board) const {
    return options_.boards.empty() || std::find(options_.boards.begin(), options_.boards.end(),
                                                board.board) != options_.boards.end();
  }

  std::string line(const std::string& key) const {
    const v1::Snapshot& s = boards_.at(key).snapshot();
    std::string last = "-";
    if (s.moves_size() > 0) {
      const auto& m = s.moves(s.moves_size() - 1);
      last = std::to_string((m.ply() + 1) / 2) + (m.ply() % 2 ? ". " : "... ") + m.san();
    }
    std::string result = s.result().empty() ? "*" : s.result();
    if (s.result_proposed()) result += " (proposed)";
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, "%-16s %-22.22s - %-22.22s %-14s %s | %s  %s", key.c_str(),
                  tag(s, "White").c_str(), tag(s, "Black").c_str(), last.c_str(),
                  clock_text(s.white_ms()).c_str(), clock_text(s.black_ms()).c_str(),
                  result.c_str());
    return buffer;
  }

  void show(const std::string& key) {
    if (!screen_) {
      out_ << line(key) << "\n" << std::flush;
      return;
    }
    out_ << "\x1b[H\x1b[2J"
         << "eboard event '" << options_.site << "': " << boards_.size() << " boards\n";
    for (const auto& [k, state] : boards_) out_ << line(k) << "\n";
    out_ << std::flush;
  }

  const MqttViewOptions& options_;
  std::ostream& out_;
  bool screen_;
  std::map<std::string, BoardState> boards_;  // ordered: the same input gives the same view
};

struct Context {
  MqttFanIn* fan;
  mosquitto* mosq = nullptr;
};

}  // namespace

int run_mqtt_view(const MqttViewOptions& options, std::ostream& out, std::ostream& err) {
  mosquitto_lib_init();
  View view(options, out);
  Context context;
  FanInOptions fan_options;
  fan_options.site = options.site;
  if (options.from_seq) {
    fan_options.start = FanInStart::kFromSeq;
    fan_options.from_seq = std::max<std::uint32_t>(1, *options.from_seq);
  }
  MqttFanIn fan(fan_options,
                {.event = [&](const BoardKey& b, const v1::Event& e) { view.event(b, e); },
                 .state = [&](const BoardKey& b, const v1::Snapshot& s) { view.state(b, s); },
                 .status = [&](const std::string& n, const std::string& s) { view.status(n, s); },
                 .publish =
                     [&](const std::string& topic, const std::string& payload) {
                       mosquitto_publish(context.mosq, nullptr, topic.c_str(),
                                         static_cast<int>(payload.size()), payload.data(), 1,
                                         false);
                     }});
  context.fan = &fan;
  mosquitto* mosq = mosquitto_new(nullptr, true, &context);
  context.mosq = mosq;
  mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1);  // small messages, shown at once
  mosquitto_connect_callback_set(mosq, [](mosquitto* m, void* c, int rc) {
    if (rc != 0) return;
    for (const std::string& filter : static_cast<Context*>(c)->fan->filters())
      mosquitto_subscribe(m, nullptr, filter.c_str(), 1);
  });
  mosquitto_message_callback_set(mosq, [](mosquitto*, void* c, const mosquitto_message* m) {
    static_cast<Context*>(c)->fan->message(
        m->topic,
        std::string_view(static_cast<const char*>(m->payload),
                         static_cast<std::size_t>(m->payloadlen)),
        std::chrono::steady_clock::now());
  });
  int status = 0;
  if (int rc = mosquitto_connect(mosq, options.host.c_str(), options.port, 30);
      rc != MOSQ_ERR_SUCCESS) {
    err << "eboard-events: --mqtt " << options.host << ":" << options.port << ": "
        << mosquitto_strerror(rc) << "\n";
    status = 1;
  } else {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      const int rc = mosquitto_loop(mosq, 50, 1);
      if (rc != MOSQ_ERR_SUCCESS) {
        // The broker went away: try again every half second until it is back.
        ::poll(nullptr, 0, 500);
        mosquitto_reconnect(mosq);
      }
      fan.tick(std::chrono::steady_clock::now());
      if (options.timeout && std::chrono::steady_clock::now() - start >= *options.timeout) {
        status = 3;
        break;
      }
    }
  }
  mosquitto_destroy(mosq);
  mosquitto_lib_cleanup();
  return status;
}

}  // namespace eboard::daemon
