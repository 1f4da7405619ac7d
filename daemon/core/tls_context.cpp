#include "daemon/core/tls_context.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace eboard::daemon {
namespace {

namespace ssl = boost::asio::ssl;

// OpenSSL's own words for the last error ("PEM routines::no start line"), else Asio's.
std::string why(const boost::system::error_code& error) {
  const unsigned long code = ::ERR_peek_last_error();
  ::ERR_clear_error();
  if (code == 0) return error.message();
  char text[256];
  ::ERR_error_string_n(code, text, sizeof text);
  return text;
}

}  // namespace

Result<std::shared_ptr<ssl::context>> make_server_tls(const TlsFiles& files) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  boost::system::error_code error;
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                           ssl::context::no_sslv3 | ssl::context::single_dh_use,
                       error);
  if (::SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION) != 1) {
    return Error{"TLS: cannot require TLS 1.2"};
  }
  context->use_certificate_chain_file(files.cert_file, error);
  if (error) return Error{"--tls-cert " + files.cert_file + ": " + why(error)};
  context->use_private_key_file(files.key_file, ssl::context::pem, error);
  if (error) return Error{"--tls-key " + files.key_file + ": " + why(error)};
  if (::SSL_CTX_check_private_key(context->native_handle()) != 1) {
    ::ERR_clear_error();
    return Error{"--tls-key " + files.key_file + ": does not belong to the certificate in " +
                 files.cert_file};
  }
  return context;
}

}  // namespace eboard::daemon
