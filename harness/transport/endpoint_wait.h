// Waiting for a webhook that is still starting: connection attempts (with the TLS handshake for
// https://) until one succeeds or the time is up. Used by --wait of run, replay and minimize.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"

namespace convcheck {

struct EndpointWait {
  bool ready = false;  // a connection (and TLS handshake) succeeded
  int attempts = 0;
  std::chrono::milliseconds waited{0};
  std::string lastError;  // why the last attempt failed (libcurl's words), when !ready
};

// Connects to the URL's host and port every 100-500 ms until a connection succeeds (for https://
// the TLS handshake too, presenting tls's client certificate; the serving certificate is not
// verified here: the run judges it), `limit` has passed, or `keepWaiting` (when set) returns
// false. Never throws for network conditions.
EndpointWait waitForEndpoint(const std::string& url, const TlsOptions& tls,
                             std::chrono::milliseconds limit,
                             const std::function<bool()>& keepWaiting = {});

// "the webhook did not answer TLS at URL within 30s (61 attempts; last: ...)", for exit code 3.
std::string describeWaitFailure(const std::string& url, const EndpointWait& wait,
                                std::chrono::milliseconds limit);

}  // namespace convcheck
