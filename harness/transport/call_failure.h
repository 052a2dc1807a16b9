// The one reading of a call that got no HTTP answer (HttpResult::transportErrorKind, made by
// https_client.cpp): whether the webhook took the call, whether it may have refused the request for
// its size, whether nothing could be tested. Used by the call ledger, the batch size limit, the
// fuzz session, replay and minimize.
#pragma once

#include "kube/apiserver/http_types.h"

namespace convcheck {

// The webhook accepted the connection and the request, then failed it: too late (Timeout), too
// much (TooLarge), or not in HTTP (Protocol: the connection closed or reset mid-request, a reply
// that is not HTTP). Such a webhook was tested: its answer is a finding.
constexpr bool webhookTookTheCall(TransportErrorKind kind) {
  return kind == TransportErrorKind::Timeout || kind == TransportErrorKind::TooLarge ||
         kind == TransportErrorKind::Protocol;
}

// Nothing reached the webhook: no connection, the TLS handshake (or a TLS alert after it, such as
// a refused client certificate) failed, or the call could not be made at all (Other). Every failed
// call is either this or webhookTookTheCall. When every call fails so, nothing could be tested.
constexpr bool webhookNotReached(TransportErrorKind kind) {
  return kind != TransportErrorKind::None && !webhookTookTheCall(kind);
}

// The connection closed or was reset while the request was being sent or before any answer: how a
// server that stops reading at a body size cap refuses a request (the other way is HTTP 413).
constexpr bool closedBeforeAnswering(TransportErrorKind kind) {
  return kind == TransportErrorKind::Protocol;
}

}  // namespace convcheck
