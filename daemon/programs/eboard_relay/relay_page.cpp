// The relay's event page (/): what a broadcaster checks before and during a round -
// every board in the round's order with its players, moves and result, whether its names
// came from a pairing, the daemons online, and the push endpoint's answer for each game.
#include <ctime>

#include "daemon/programs/eboard_relay/relay_http.h"
#include "daemon/sinks/http_response.h"

namespace eboard::daemon {
namespace {

std::string player(const LivePgn& pgn, const char* side) {
  const std::string s(side);
  std::string text = pgn.tag(s + "Title");
  if (!text.empty()) text += " ";
  text += pgn.tag(s);
  if (const std::string elo = pgn.tag(s + "Elo"); !elo.empty()) text += " (" + elo + ")";
  return html_escape(text);
}

std::string push_section(const PushClient& push) {
  const PushClient::Status& s = push.status();
  std::string out = "<h2>Push</h2><p>" + std::to_string(s.requests) + " requests, " +
                    std::to_string(s.failed) + " failed";
  if (s.last_success) {
    const std::time_t t = std::chrono::system_clock::to_time_t(*s.last_success);
    char when[32];
    std::strftime(when, sizeof when, "%H:%M:%S UTC", std::gmtime(&t));
    out += "; last accepted at " + std::string(when);
  }
  out += "</p>";
  if (!s.last_error.empty())
    out += "<p class=bad>Last failure: " + html_escape(s.last_error) + " (retrying)</p>";
  out += "<table><tr><th>Round<th>White<th>Black<th>Answer</tr>";
  for (const auto& g : s.games) {
    out += "<tr><td>" + html_escape(g.round) + "<td>" + html_escape(g.white) + "<td>" +
           html_escape(g.black) + "<td" +
           (g.error.empty() ? ">" + std::to_string(g.moves.value_or(0)) + " moves accepted"
                            : " class=bad>" + html_escape(g.error)) +
           "</tr>";
  }
  return out + "</table>";
}

}  // namespace

std::string RelayHttp::answer_index() const {
  std::string body =
      "<!doctype html><meta charset=utf-8><title>eboard-relay " + html_escape(site_) +
      "</title><style>body{font:15px system-ui,sans-serif;margin:2em}td,th{padding:.2em .8em;"
      "text-align:left}.bad{color:#b00020}.muted{color:#777}</style><h1>" +
      html_escape(site_) +
      "</h1><p><a href=/round.pgn>round.pgn</a> (the broadcast's source: every game of the "
      "round, in board order)</p><p>Daemons:";
  for (const auto& [node, status] : games_.nodes())
    body += " " + html_escape(node) + " <span class=" + (status == "online" ? "" : "bad") + ">" +
            html_escape(status) + "</span>";
  body += "</p><table><tr><th>Board<th>Round<th>White<th>Black<th>Moves<th>Result<th></tr>";
  bool unpaired = false;
  for (const auto& game : games_.games()) {
    const std::string key = html_escape(game.key.text());
    const LivePgn& pgn = *game.pgn;
    body += "<tr><td>" + key + "<td>" + html_escape(pgn.tag("Round")) + "<td>" +
            player(pgn, "White") + "<td>" + player(pgn, "Black") + "<td>" +
            std::to_string(pgn.moves()) + "<td>" + html_escape(pgn.started() ? pgn.result() : "-") +
            "<td><a href=\"/boards/" + key + ".pgn\">pgn</a> <a href=\"/overlay?board=" + key +
            "\">overlay</a> <a href=\"/overlay?board=" + key +
            "&amp;layout=lower-third&amp;transparent=1\">lower third</a>";
    if (pgn.started() && !pgn.paired()) {
      body += " <span class=bad>no pairing</span>";
      unpaired = true;
    }
    body += "</tr>";
  }
  body += "</table>";
  if (unpaired) {
    body +=
        "<p class=bad>Boards marked \"no pairing\" play under placeholder names: load the "
        "round's pairing (eboard-ctl round FILE) so that lichess shows the players.</p>";
  }
  std::uint64_t requests = 0;
  std::uint64_t repeats = 0;
  std::size_t waiting = 0;
  for (const auto& [key, p] : fan_.progress()) {
    requests += p.requests;
    repeats += p.duplicates;
    waiting += p.waiting;
  }
  body += "<p class=muted>fan-in: " + std::to_string(requests) + " replay requests, " +
          std::to_string(repeats) + " repeats dropped, " + std::to_string(waiting) +
          " events waiting behind a gap</p>";
  if (push_ != nullptr) body += push_section(*push_);
  return body;
}

}  // namespace eboard::daemon
