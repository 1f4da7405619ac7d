// The daemon's TLS server side (docs/interfaces.md §6.3: --https, --listen tls:), one context
// for every TLS listener: the certificate chain of --tls-cert (the server's certificate
// first, then any intermediate ones) and the private key of --tls-key, both PEM. TLS 1.2
// or newer only; the client checks the server against its CA and host name (the daemon
// asks no client certificate: control needs the token or a console login on top).
// README "The arbiter console" tells how to make a venue CA and a certificate.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <string>

#include "daemon/core/sink_config.h"
#include "util/result.h"

namespace eboard::daemon {

// The context, or one line naming the file and what is wrong with it.
Result<std::shared_ptr<boost::asio::ssl::context>> make_server_tls(const TlsFiles& files);

}  // namespace eboard::daemon
