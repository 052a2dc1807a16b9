// How convcheck calls the webhook: TLS settings, timeout, HTTP version and the caps it puts on an
// answer (convcheck's own limits; kube-apiserver has none). Used by harness/transport's client,
// the target resolution, the commands' options and bundles.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace convcheck {

struct TlsOptions {
  std::string caFile;    // --ca-file
  std::string caPem;     // CA bundle PEM text (from the CRD's caBundle), used if caFile empty
  std::string certFile;  // --cert (client certificate)
  std::string keyFile;   // --key
  bool insecureSkipVerify = false;
  std::string serverName;  // SNI / certificate name to verify; empty = URL host
};

// A conversion keeps the data of its request: an answer may hold this many times its JSON values.
inline constexpr std::size_t kResponseValuesPerRequestValue = 4;

struct TransportOptions {
  TlsOptions tls;
  std::chrono::milliseconds timeout{30000};  // whole request, like the API server's 30 s
  bool http2 = false;                        // default HTTP/1.1, as kube-apiserver
  std::size_t maxResponseBytes = 16u << 20;  // response size cap (safety; apiserver has none)
  // Response complexity cap: a body holding more JSON values (estimated, see json_shape.h)
  // than this or kResponseValuesPerRequestValue times its request's, whichever is larger, is
  // refused as "too-large" before anything parses it: judging keeps several in-memory copies of
  // every value, so memory follows what convcheck sent (safety; apiserver has none). 0 = no cap.
  std::size_t maxResponseValues = 100'000;
  // Response nesting cap: a body nested deeper than this is refused as "too-large". Go's decoder
  // allows 10000 levels; convcheck's recursive checks keep to 1000 (no conversion answer comes
  // close), which also holds under sanitizers' larger stack frames. 0 = no cap.
  std::size_t maxResponseDepth = 1000;
  std::string userAgent = "kube-apiserver-admission";
  bool appendTimeoutQuery = true;  // append ?timeout=30s like client-go
};

}  // namespace convcheck
