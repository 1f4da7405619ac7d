#include "daemon/sinks/console_auth.h"

#include <sys/random.h>

#include <algorithm>

namespace eboard::daemon {
namespace {

// Compares without an early exit, so the time taken does not tell how much matched.
bool same_secret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return diff == 0;
}

std::string system_random(std::size_t bytes) {
  std::string out(bytes, '\0');
  std::size_t filled = 0;
  while (filled < bytes) {
    const ssize_t n = ::getrandom(out.data() + filled, bytes - filled, 0);
    if (n > 0) filled += static_cast<std::size_t>(n);
  }
  return out;
}

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equal_no_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

ConsoleAuth::ConsoleAuth(std::string token, std::chrono::seconds lifetime, Random random)
    : token_(std::move(token)),
      lifetime_(lifetime),
      random_(random ? std::move(random) : Random(system_random)) {}

LoginResult ConsoleAuth::login(std::string_view token, const std::string& peer_address,
                               ConsoleTime now) {
  LoginResult result;
  if (token_.empty()) return result;  // kNoControl
  forget_old_strikes(now);
  auto strikes = strikes_.find(peer_address);
  if (strikes != strikes_.end() && now < strikes->second.locked_until) {
    result.outcome = LoginOutcome::kLockedOut;
    result.wait = std::chrono::ceil<std::chrono::milliseconds>(strikes->second.locked_until - now);
    return result;
  }
  if (!same_secret(token, token_)) {
    if (strikes == strikes_.end()) {
      if (strikes_.size() >= kMaxAddresses) {
        strikes_.erase(std::min_element(strikes_.begin(), strikes_.end(), [](auto& a, auto& b) {
          return a.second.last < b.second.last;
        }));
      }
      strikes = strikes_.emplace(peer_address, Strikes{}).first;
    }
    Strikes& s = strikes->second;
    s.count = std::min<std::uint32_t>(s.count + 1, 16);
    result.wait = std::min(kMaxLockout, kFirstLockout * (std::int64_t{1} << (s.count - 1)));
    s.locked_until = now + result.wait;
    s.last = now;
    result.outcome = LoginOutcome::kWrongToken;
    return result;
  }
  if (strikes != strikes_.end()) strikes_.erase(strikes);
  sessions_.erase(std::remove_if(sessions_.begin(), sessions_.end(),
                                 [now](const ConsoleSession& s) { return s.expires <= now; }),
                  sessions_.end());
  if (sessions_.size() >= kMaxSessions) {
    sessions_.erase(std::min_element(
        sessions_.begin(), sessions_.end(),
        [](const ConsoleSession& a, const ConsoleSession& b) { return a.expires < b.expires; }));
  }
  sessions_.push_back({new_session_id(), peer_address, now + lifetime_});
  result.outcome = LoginOutcome::kOk;
  result.session_id = sessions_.back().id;
  result.lifetime = lifetime_;
  return result;
}

std::optional<ConsoleSession> ConsoleAuth::find(std::string_view cookie_header, ConsoleTime now) {
  const auto id = cookie_value(cookie_header, kSessionCookie);
  if (!id || id->empty()) return std::nullopt;
  std::optional<ConsoleSession> found;
  // Every session is compared in full, so the time taken tells nothing about the ids.
  for (const ConsoleSession& s : sessions_) {
    if (same_secret(*id, s.id) && now < s.expires) found = s;
  }
  return found;
}

void ConsoleAuth::logout(std::string_view cookie_header) {
  const auto id = cookie_value(cookie_header, kSessionCookie);
  if (!id) return;
  sessions_.erase(std::remove_if(sessions_.begin(), sessions_.end(),
                                 [&](const ConsoleSession& s) { return same_secret(*id, s.id); }),
                  sessions_.end());
}

void ConsoleAuth::forget_old_strikes(ConsoleTime now) {
  for (auto it = strikes_.begin(); it != strikes_.end();) {
    it = now - it->second.last > kStrikeMemory ? strikes_.erase(it) : std::next(it);
  }
}

std::string ConsoleAuth::new_session_id() { return hex(random_(32)); }

std::string session_cookie(std::string_view id, std::chrono::seconds lifetime) {
  return std::string(kSessionCookie) + "=" + std::string(id) +
         "; Path=/; Max-Age=" + std::to_string(lifetime.count()) +
         "; HttpOnly; Secure; SameSite=Strict";
}

std::string expired_session_cookie() { return session_cookie("", std::chrono::seconds(0)); }

std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const auto semicolon = header.find(';');
    const std::string_view pair = trim(header.substr(0, semicolon));
    header =
        semicolon == std::string_view::npos ? std::string_view{} : header.substr(semicolon + 1);
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos || trim(pair.substr(0, eq)) != name) continue;
    return trim(pair.substr(eq + 1));
  }
  return std::nullopt;
}

bool same_origin(std::string_view origin, std::string_view host, bool tls) {
  const std::string_view scheme = tls ? "https://" : "http://";
  if (host.empty() || origin.size() != scheme.size() + host.size()) return false;
  return equal_no_case(origin.substr(0, scheme.size()), scheme) &&
         equal_no_case(origin.substr(scheme.size()), host);
}

bool is_loopback_host(std::string_view host) {
  // Without the port: "[::1]:8080" -> "[::1]", "127.0.0.1:80" -> "127.0.0.1".
  if (host.starts_with("[")) {
    const auto close = host.find(']');
    if (close == std::string_view::npos) return false;
    const std::string_view rest = host.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(":")) return false;
    return host.substr(0, close + 1) == "[::1]";
  }
  host = host.substr(0, host.find(':'));
  if (equal_no_case(host, "localhost")) return true;
  if (!host.starts_with("127.")) return false;
  int dots = 0;
  for (char c : host) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

std::string session_label(std::string_view id) { return std::string(id.substr(0, 8)); }

}  // namespace eboard::daemon
