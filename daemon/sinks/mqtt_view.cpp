#include "daemon/sinks/mqtt_view.h"

#include <mosquitto.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "daemon/core/board_state.h"
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

  void message(const std::string& topic, const std::string& payload) {
    // eboard/v1/<site>/<node>/status | eboard/v1/<site>/<node>/<board>/<leaf>
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
      const auto slash = topic.find('/', at);
      parts.push_back(topic.substr(at, slash - at));
      if (slash == std::string::npos) break;
      at = slash + 1;
    }
    if (parts.size() == 5 && parts[4] == "status") {
      if (!options_.json) out_ << parts[3] << ": " << payload << "\n" << std::flush;
      return;
    }
    if (parts.size() != 6) return;
    const std::string& board = parts[4];
    if (!options_.boards.empty() &&
        std::find(options_.boards.begin(), options_.boards.end(), board) == options_.boards.end()) {
      return;
    }
    const std::string key = parts[3] + "/" + board;
    if (parts[5] == "state") {
      v1::Snapshot snapshot;
      if (!snapshot.ParseFromString(payload)) return;
      auto [it, fresh] = boards_.try_emplace(key, snapshot);
      if (!fresh && snapshot.last_seq() > it->second.snapshot().last_seq())
        it->second = BoardState(snapshot);
      if (!options_.json) show(key);
    } else if (parts[5] == "events") {
      v1::Event event;
      if (!event.ParseFromString(payload)) return;
      if (!seen_[key].insert(event.seq()).second) return;  // a QoS 1 repeat
      if (options_.public_only && event.visibility() != v1::VISIBILITY_PUBLIC) return;
      auto it = boards_.try_emplace(key, BoardState(board)).first;
      if (event.seq() > it->second.snapshot().last_seq()) it->second.apply(event);
      if (options_.json) {
        out_ << proto::to_json_line(event) << "\n" << std::flush;
      } else if (!event.has_clock() || screen_) {
        show(key);
      }
    }
  }

 private:
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
  std::map<std::string, std::set<std::uint32_t>> seen_;
};

struct Context {
  View* view;
  std::string filter;
};

}  // namespace

int run_mqtt_view(const MqttViewOptions& options, std::ostream& out, std::ostream& err) {
  mosquitto_lib_init();
  View view(options, out);
  Context context{&view, "eboard/v1/" + options.site + "/#"};
  mosquitto* mosq = mosquitto_new(nullptr, true, &context);
  mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1);  // small messages, shown at once
  mosquitto_connect_callback_set(mosq, [](mosquitto* m, void* c, int rc) {
    if (rc == 0) mosquitto_subscribe(m, nullptr, static_cast<Context*>(c)->filter.c_str(), 1);
  });
  mosquitto_message_callback_set(mosq, [](mosquitto*, void* c, const mosquitto_message* m) {
    static_cast<Context*>(c)->view->message(
        m->topic,
        std::string(static_cast<const char*>(m->payload), static_cast<std::size_t>(m->payloadlen)));
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
      const int rc = mosquitto_loop(mosq, 200, 1);
      if (rc != MOSQ_ERR_SUCCESS) {
        // The broker went away: try again every half second until it is back.
        ::poll(nullptr, 0, 500);
        mosquitto_reconnect(mosq);
      }
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
