// Headless Chromium driven over the DevTools protocol (chromedevtools.github.io/
// devtools-protocol), as a person would use a page: navigate, click an element at its
// place on the screen, type, read the page's state with a JavaScript expression, take a
// screenshot at a given size. Chromium (Debian's `chromium`) runs as a child process with
// --remote-debugging-port; the test talks to its page target over a WebSocket (Beast).
// Every wait is bounded; a condition is polled, nothing sleeps a fixed time. The URLs of
// every request the page made are kept (Network.requestWillBeSent), so a test can show
// that a secret never appeared in one.
#pragma once

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/core/detail/base64.hpp>
#include <boost/beast/websocket.hpp>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "tests/daemon/sinks/console_helpers.h"

namespace eboard::daemon::broadcast_test {

namespace pb = google::protobuf;

// A JSON string literal.
inline std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", c);
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

inline pb::Value parse_json(const std::string& text) {
  pb::Value value;
  (void)pb::util::JsonStringToMessage(text, &value);
  return value;
}

class DevTools {
 public:
  using Ws = boost::beast::websocket::stream<boost::asio::ip::tcp::socket>;

  // `flags`: extra Chromium switches (e.g. a certificate to trust).
  DevTools(const std::string& dir, const std::vector<std::string>& flags) {
    port_ = free_tcp_port();
    std::vector<std::string> argv = {"/usr/bin/chromium",
                                     "--headless",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--disable-quic",
                                     "--no-first-run",
                                     "--disable-background-networking",
                                     "--disable-component-update",
                                     "--disable-sync",
                                     "--hide-scrollbars",
                                     "--remote-debugging-port=" + std::to_string(port_),
                                     "--user-data-dir=" + dir + "/profile"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back("about:blank");
    child_ = std::make_unique<Child>(argv);
  }

  // Connects to the page target; false when Chromium did not come up in time.
  bool open() {
    std::string ws_url;
    const bool found = poll_until(
        [&] {
          const HttpReply list = http_request(port_, "GET", "/json/list", "", "");
          if (list.status != 200) return false;
          const pb::Value targets = parse_json(list.body);
          for (const auto& t : targets.list_value().values()) {
            const auto& f = t.struct_value().fields();
            if (f.count("type") && f.at("type").string_value() == "page") {
              ws_url = f.at("webSocketDebuggerUrl").string_value();
              return true;
            }
          }
          return false;
        },
        20s);
    if (!found) return false;
    const std::string path = ws_url.substr(ws_url.find('/', std::string("ws://").size()));
    ws_ = std::make_unique<Ws>(io_);
    ws_->next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), port_});
    timeval timeout{30, 0};  // a read that hangs this long fails the test instead
    ::setsockopt(ws_->next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout,
                 sizeof timeout);
    ws_->handshake("127.0.0.1:" + std::to_string(port_), path);
    return call("Page.enable").ok && call("Runtime.enable").ok && call("Network.enable").ok;
  }

  struct Answer {
    bool ok = false;
    pb::Value result;  // the command's "result"
    std::string error;
  };

  // Sends one command and reads until its answer, keeping the events read meanwhile.
  Answer call(const std::string& method, const std::string& params = "{}") {
    const int id = ++next_id_;
    ws_->write(boost::asio::buffer("{\"id\":" + std::to_string(id) + ",\"method\":" +
                                   json_quote(method) + ",\"params\":" + params + "}"));
    for (;;) {
      boost::beast::flat_buffer buffer;
      boost::beast::error_code error;
      ws_->read(buffer, error);
      if (error) return {false, {}, method + ": " + error.message()};
      const pb::Value message = parse_json(boost::beast::buffers_to_string(buffer.data()));
      const auto& f = message.struct_value().fields();
      if (f.count("method")) {
        note_event(message);
        continue;
      }
      if (!f.count("id") || static_cast<int>(f.at("id").number_value()) != id) continue;
      if (f.count("error")) return {false, {}, method + ": " + pb_json(f.at("error"))};
      return {true, f.count("result") ? f.at("result") : pb::Value(), ""};
    }
  }

  // The value of a JavaScript expression (awaited when it is a promise), as JSON.
  std::string evaluate(const std::string& expression) {
    const Answer a = call("Runtime.evaluate", "{\"expression\":" + json_quote(expression) +
                                                  ",\"returnByValue\":true,\"awaitPromise\":true}");
    if (!a.ok) return "error: " + a.error;
    const auto& r = a.result.struct_value().fields();
    if (r.count("exceptionDetails")) return "exception: " + pb_json(r.at("exceptionDetails"));
    const auto& value = r.at("result").struct_value().fields();
    return value.count("value") ? pb_json(value.at("value")) : "undefined";
  }

  bool wait_for(const std::string& condition, std::chrono::milliseconds limit) {
    return poll_until([&] { return evaluate("!!(" + condition + ")") == "true"; }, limit);
  }

  bool navigate(const std::string& url) {
    return call("Page.navigate", "{\"url\":" + json_quote(url) + "}").ok &&
           wait_for("document.readyState === 'complete'", 20s);
  }

  // A left click in the middle of the element, after scrolling it into view.
  bool click(const std::string& selector) {
    const std::string where =
        evaluate("(() => { const e = document.querySelector(" + json_quote(selector) +
                 "); if (!e) return null; e.scrollIntoView({block: 'center'});"
                 " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height "
                 "/ 2]; })()");
    const pb::Value xy = parse_json(where);
    if (xy.list_value().values_size() != 2) return false;
    const std::string at = "\"x\":" + std::to_string(xy.list_value().values(0).number_value()) +
                           ",\"y\":" + std::to_string(xy.list_value().values(1).number_value());
    for (const char* type : {"mousePressed", "mouseReleased"}) {
      const std::string params = std::string("{\"type\":\"") + type + "\"," + at +
                                 ",\"button\":\"left\",\"clickCount\":1}";
      if (!call("Input.dispatchMouseEvent", params).ok) return false;
    }
    return true;
  }

  bool type(const std::string& text) {
    return call("Input.insertText", "{\"text\":" + json_quote(text) + "}").ok;
  }

  bool set_viewport(int width, int height, bool mobile) {
    return call("Emulation.setDeviceMetricsOverride",
                "{\"width\":" + std::to_string(width) + ",\"height\":" + std::to_string(height) +
                    ",\"deviceScaleFactor\":1,\"mobile\":" + (mobile ? "true" : "false") + "}")
        .ok;
  }

  // A PNG of the viewport, written to `path`; false on failure.
  bool screenshot(const std::string& path) {
    const Answer a = call("Page.captureScreenshot", "{\"format\":\"png\"}");
    if (!a.ok) return false;
    const std::string data = a.result.struct_value().fields().at("data").string_value();
    std::string png(boost::beast::detail::base64::decoded_size(data.size()), '\0');
    const auto used = boost::beast::detail::base64::decode(png.data(), data.data(), data.size());
    png.resize(used.first);
    std::ofstream(path, std::ios::binary) << png;
    return png.size() > 1000;
  }

  const std::vector<std::string>& request_urls() const { return urls_; }

 private:
  static std::string pb_json(const pb::Value& value) {
    std::string out;
    (void)pb::util::MessageToJsonString(value, &out);
    return out;
  }

  void note_event(const pb::Value& message) {
    const auto& f = message.struct_value().fields();
    if (f.at("method").string_value() != "Network.requestWillBeSent") return;
    const auto& request = f.at("params").struct_value().fields().at("request");
    urls_.push_back(request.struct_value().fields().at("url").string_value());
  }

  std::uint16_t port_ = 0;
  std::unique_ptr<Child> child_;
  boost::asio::io_context io_;
  std::unique_ptr<Ws> ws_;
  int next_id_ = 0;
  std::vector<std::string> urls_;
};

// Logs in to the arbiter console as a person would: click the token field, type the
// token, click the button; the page then names the session. The failure says what the
// page's toast said.
inline testing::AssertionResult log_in_by_hand(DevTools& chrome, const std::string& token) {
  using namespace std::chrono_literals;
  if (!chrome.click("#token") || !chrome.type(token) || !chrome.click("#loginbtn")) {
    return testing::AssertionFailure() << "the login form could not be filled in";
  }
  if (!chrome.wait_for("document.getElementById('who').textContent.startsWith('session')", 10s)) {
    return testing::AssertionFailure()
           << "no session after the login: "
           << chrome.evaluate("document.getElementById('toast').textContent");
  }
  return testing::AssertionSuccess();
}

}  // namespace eboard::daemon::broadcast_test
