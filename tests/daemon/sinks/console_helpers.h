// Real parts for the arbiter console's end-to-end tests: a venue CA and a server
// certificate made with the openssl command line exactly as README "The arbiter console"
// tells an organiser to (EC P-256 keys, so it takes milliseconds), an HTTPS/1.1 client on
// Boost.Beast that verifies the daemon against a CA file and the host name, and the
// scripted games whose proposals the arbiter rules on.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/daemon/sinks/broadcast_helpers.h"

namespace eboard::daemon::broadcast_test {

// docs/rules.md §4 scenario 7 the other way round, without auto-applied penalties: White's
// second completed illegal move (a knight to g3) makes the daemon propose 0-1 (and a
// penalty before it); the arbiter rules.
inline std::string illegal_moves_script(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name + ".ebs";
  std::ofstream(path) << "rules fide-standard\n"
                         "clock 5400+30\n"
                         "tag White \"Carlsen, Magnus\"\n"
                         "tag Black \"Nepomniachtchi, Ian Alexandrovich\"\n"
                         "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n"
                         "1.000 lift g1\n1.200 put g3 N\n1.500 lever white\n"
                         "2.000 lift g3\n2.200 put g1 N\n3.000 lever black\n"
                         "4.000 lift g1\n4.200 put g3 N\n4.500 lever white\n";
  return path;
}

// A game that waits at its start position (nothing moves), for command tests.
inline std::string idle_script(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name + ".ebs";
  std::ofstream(path) << "rules fide-standard\nclock 5400+30\n"
                         "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n";
  return path;
}

struct Certificates {
  std::string ca;    // the venue CA's certificate
  std::string cert;  // the daemon's certificate, for localhost and 127.0.0.1
  std::string key;
  std::string spki;      // base64 SHA-256 of the daemon's public key (Chromium's pin)
  std::string other_ca;  // a CA that signed nothing of ours
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool run(const std::string& command) { return std::system(command.c_str()) == 0; }

inline Certificates make_certificates(const std::string& dir) {
  const std::string d = dir + "/";
  Certificates c{d + "ca.pem", d + "server.pem", d + "server.key", "", d + "other-ca.pem"};
  const std::string quiet = " 2>>" + d + "openssl.log";
  const bool made =
      run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " + d +
          "ca.key -out " + c.ca + " -days 3650 -subj '/CN=Venue CA'" + quiet) &&
      run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " + c.key +
          " -out " + d + "server.csr -subj '/CN=localhost'" + quiet) &&
      run("printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' "
          ">" +
          d + "server.ext") &&
      run("openssl x509 -req -in " + d + "server.csr -CA " + c.ca + " -CAkey " + d +
          "ca.key -CAcreateserial -out " + c.cert + " -days 825 -extfile " + d + "server.ext" +
          quiet) &&
      run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " + d +
          "other.key -out " + c.other_ca + " -days 3650 -subj '/CN=Venue CA'" + quiet) &&
      run("openssl x509 -in " + c.cert +
          " -pubkey -noout | openssl pkey -pubin -outform der "
          "| openssl dgst -sha256 -binary | base64 >" +
          d + "spki.txt");
  if (!made) return {};
  std::ifstream in(d + "spki.txt");
  std::getline(in, c.spki);
  return c;
}

struct HttpsReply {
  int status = 0;  // 0: no answer (the TLS handshake or the connection failed)
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string error;
};

// One request over a fresh TLS connection that checks the server against `ca` and the
// host name 127.0.0.1. `headers`: "Name: value\r\n" lines.
inline HttpsReply https_request(std::uint16_t port, const std::string& ca,
                                const std::string& method, const std::string& target,
                                const std::string& headers = "", const std::string& body = "") {
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  namespace http = beast::http;
  HttpsReply reply;
  asio::io_context io;
  asio::ssl::context tls(asio::ssl::context::tls_client);
  beast::error_code error;
  tls.load_verify_file(ca, error);
  tls.set_verify_mode(asio::ssl::verify_peer);
  beast::ssl_stream<beast::tcp_stream> stream(io, tls);
  stream.set_verify_callback(asio::ssl::host_name_verification("127.0.0.1"));
  beast::get_lowest_layer(stream).expires_after(10s);
  beast::get_lowest_layer(stream).connect({asio::ip::make_address("127.0.0.1"), port}, error);
  if (!error) stream.handshake(asio::ssl::stream_base::client, error);
  if (error) {
    reply.error = error.message();
    return reply;
  }
  std::string text = method + " " + target +
                     " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                     "\r\nConnection: close\r\n" + headers;
  if (!body.empty() || method == "POST") {
    text += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  }
  text += "\r\n" + body;
  asio::write(stream, asio::buffer(text), error);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  if (!error) http::read(stream, buffer, response, error);
  if (error) {
    reply.error = error.message();
    return reply;
  }
  reply.status = static_cast<int>(response.result_int());
  for (const auto& field : response) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    reply.headers[name] = std::string(field.value());
  }
  reply.body = response.body();
  return reply;
}

// One plain HTTP request over a fresh loopback connection (any method, with a body).
inline HttpReply http_request(std::uint16_t port, const std::string& method,
                              const std::string& target, const std::string& headers,
                              const std::string& body, std::string host = "") {
  if (host.empty()) host = "127.0.0.1:" + std::to_string(port);
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  namespace http = beast::http;
  HttpReply reply;
  asio::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code error;
  stream.expires_after(10s);
  stream.connect({asio::ip::make_address("127.0.0.1"), port}, error);
  const std::string text = method + " " + target + " HTTP/1.1\r\nHost: " + host +
                           "\r\nConnection: close\r\n" + headers +
                           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  if (!error) asio::write(stream, asio::buffer(text), error);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  if (!error) http::read(stream, buffer, response, error);
  if (error) return reply;
  reply.status = static_cast<int>(response.result_int());
  for (const auto& field : response) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    reply.headers[name] = std::string(field.value());
  }
  reply.body = response.body();
  return reply;
}

// A POST of a JSON body with the Origin of the daemon's own HTTPS site.
inline std::string same_site(std::uint16_t port) {
  return "Origin: https://127.0.0.1:" + std::to_string(port) +
         "\r\nContent-Type: application/json\r\n";
}

inline std::string cookie_header(const std::string& set_cookie) {
  return "Cookie: " + set_cookie.substr(0, set_cookie.find(';')) + "\r\n";
}

}  // namespace eboard::daemon::broadcast_test
