// The example webhook's HTTPS server: cpp-httplib SSLServer serving the review handler.
// Used by the example-webhook executable (main.cpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

#include "examples/webhook/faults.h"
#include "examples/webhook/object_converter.h"

namespace convcheck::example {

struct WebhookServerOptions {
  std::string certFile;      // serving certificate (PEM)
  std::string keyFile;       // its private key (PEM)
  std::string clientCaFile;  // when set, clients must present a certificate signed by this CA
  std::string host = "127.0.0.1";
  int port = 8443;  // 0 = an ephemeral port
  std::string path = "/convert";
  FaultSet faults;
  KindMode kinds = KindMode::examples;  // --identity: any kind, apiVersion rewritten only
  // Added to every answer (--delay-ms): real webhooks take tens of milliseconds.
  std::chrono::milliseconds delay{0};
  // Requests with a larger body get 413 Payload Too Large (--max-body-bytes; 0 = no limit).
  std::size_t maxBodyBytes = 0;
};

// Binds to options.host only, prints "listening on https://HOST:PORT" to `out` (flushed), and
// serves POST options.path (ConversionReview) and GET /readyz until SIGTERM or SIGINT arrives.
// Returns the process exit code: 0 after a signal, 1 if the certificate or the port is unusable.
int runWebhookServer(const WebhookServerOptions& options, std::ostream& out, std::ostream& err);

}  // namespace convcheck::example
