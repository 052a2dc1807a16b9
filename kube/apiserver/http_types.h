// What came back from a POST to the webhook: the HTTP answer, or why there was none. Used by
// harness/transport (producer), kube/apiserver/apiserver_model and reports (consumers).
#pragma once

#include <chrono>
#include <string>

namespace convcheck {

// Why a POST got no HTTP response.
enum class TransportErrorKind {
  None,      // an HTTP response arrived
  Connect,   // no connection (resolution, refused)
  Tls,       // the TLS handshake or a certificate failed
  Timeout,   // no complete response within the timeout
  TooLarge,  // beyond a response size, value or nesting cap
  Protocol,  // the server took the call, then answered not in HTTP (reset, bad reply, redirects)
  Other,
};

// The kind as reports and cause keys show it: "connect", "tls", "timeout", "too-large",
// "protocol", "other" ("" for None).
constexpr const char* transportErrorKindName(TransportErrorKind kind) {
  switch (kind) {
    case TransportErrorKind::None:
      return "";
    case TransportErrorKind::Connect:
      return "connect";
    case TransportErrorKind::Tls:
      return "tls";
    case TransportErrorKind::Timeout:
      return "timeout";
    case TransportErrorKind::TooLarge:
      return "too-large";
    case TransportErrorKind::Protocol:
      return "protocol";
    case TransportErrorKind::Other:
      return "other";
  }
  return "other";
}

// Outcome of one POST. Either the transport failed (transportError set, no status) or
// an HTTP status and body arrived.
struct HttpResult {
  std::string url;             // effective URL, including ?timeout=
  std::string transportError;  // empty when an HTTP response arrived
  TransportErrorKind transportErrorKind = TransportErrorKind::None;
  long status = 0;
  std::string contentType;  // response Content-Type, may be empty
  std::string body;         // decoded body (gzip already undone)
  std::chrono::microseconds elapsed{0};
  bool ok() const { return transportError.empty(); }
};

}  // namespace convcheck
