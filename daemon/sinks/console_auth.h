// Who may act through the arbiter console (docs/interfaces.md §6.3): a login with the control
// token (the contents of --control-token-file) opens a session, named by a random id that
// travels only in an HttpOnly, Secure, SameSite=Strict cookie with an expiry. Nothing
// else the browser sends is trusted: every state-changing request is a POST carrying that
// cookie and an Origin header naming this very site (same_origin), so another site's page
// can neither read the console nor make it act.
//
// Wrong logins are slowed down per client address: each one locks that address out for
// twice as long as the one before (2 s, 4 s, 8 s ... up to a minute, counted from the
// wrong login, whose answer the server holds back for a second of it), and a locked-out
// address is refused without its token being looked at. A good login clears the address.
// A long random token cannot be guessed anyway; the lock-out keeps a script from trying.
//
// Time is an argument (tests never sleep) and randomness is injected; the token is never
// kept anywhere but here, and never logged.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::daemon {

using ConsoleTime = std::chrono::steady_clock::time_point;

struct ConsoleSession {
  std::string id;    // 64 hex digits (256 random bits)
  std::string peer;  // the client address it logged in from
  ConsoleTime expires;
};

enum class LoginOutcome : std::uint8_t {
  kOk,
  kWrongToken,  // refused; the address is locked out for `wait`
  kLockedOut,   // refused without looking at the token; retry after `wait`
  kNoControl,   // this daemon has no control token: the console is read-only
};

struct LoginResult {
  LoginOutcome outcome = LoginOutcome::kNoControl;
  std::string session_id;            // kOk
  std::chrono::seconds lifetime{};   // kOk: the cookie's Max-Age
  std::chrono::milliseconds wait{};  // kWrongToken, kLockedOut
};

class ConsoleAuth {
 public:
  // Fills `bytes` random bytes (getrandom(2) by default).
  using Random = std::function<std::string(std::size_t bytes)>;
  static constexpr std::chrono::seconds kSessionLifetime{12 * 3600};  // a playing day
  static constexpr std::size_t kMaxSessions = 64;
  static constexpr std::chrono::milliseconds kFirstLockout{2000};
  static constexpr std::chrono::milliseconds kMaxLockout{60'000};
  // An address's count of wrong logins is forgotten after this long without one.
  static constexpr std::chrono::minutes kStrikeMemory{15};
  static constexpr std::size_t kMaxAddresses = 1024;

  explicit ConsoleAuth(std::string token, std::chrono::seconds lifetime = kSessionLifetime,
                       Random random = {});

  bool control_possible() const { return !token_.empty(); }
  LoginResult login(std::string_view token, const std::string& peer_address, ConsoleTime now);
  // The live session the Cookie header names, or nullopt (none, unknown, expired).
  std::optional<ConsoleSession> find(std::string_view cookie_header, ConsoleTime now);
  void logout(std::string_view cookie_header);
  std::size_t session_count() const { return sessions_.size(); }

 private:
  struct Strikes {
    std::uint32_t count = 0;
    ConsoleTime locked_until;
    ConsoleTime last;
  };
  void forget_old_strikes(ConsoleTime now);
  std::string new_session_id();

  std::string token_;
  std::chrono::seconds lifetime_;
  Random random_;
  std::vector<ConsoleSession> sessions_;
  std::map<std::string, Strikes> strikes_;  // by client address
};

// The cookie's name: the __Host- prefix makes a browser keep it only when it came over a
// secure connection, for this host alone and the whole path (RFC 6265bis 4.1.3.2).
inline constexpr std::string_view kSessionCookie = "__Host-eboard-console";

// Set-Cookie values: the session, and one that deletes it.
std::string session_cookie(std::string_view id, std::chrono::seconds lifetime);
std::string expired_session_cookie();
// The value of cookie `name` in a Cookie header ("a=1; b=2"), if there.
std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name);
// Whether an Origin header names the site a request came to: "http(s)://" + its Host
// header, compared without case. A missing or "null" Origin is not the same origin.
bool same_origin(std::string_view origin, std::string_view host, bool tls);
// Whether a Host header names the loopback (127.0.0.0/8, [::1], localhost), with or
// without a port: on a loopback listener a page reached under another name (a DNS
// rebinding) is not ours.
bool is_loopback_host(std::string_view host);
// The session id shortened for audit records and logs (never the whole id).
std::string session_label(std::string_view id);

}  // namespace eboard::daemon
