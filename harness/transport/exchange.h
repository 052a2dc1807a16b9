// One ConversionReview round: what was sent, what came back over HTTP, and the API-server verdict.
// Built by the Converter (harness/transport/converter); read by property checks, shrinking and
// reports.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "harness/transport/review_codec.h"
#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"

namespace convcheck {

struct Exchange {
  SentReview sent;  // what was POSTed: requestBodyOf gives its exact bytes
  HttpResult http;
  ModelVerdict verdict;
  std::size_t requestBytes = 0;  // the length of the body POSTed (set by the Converter)
};

// The exact bytes POSTed, encoded again from what was sent (the encoding is a function of it): an
// exchange does not hold a second copy of its batch as text while a case runs.
inline std::string requestBodyOf(const Exchange& exchange) { return encodeReview(exchange.sent); }

// An exchange as a case keeps it: made once by the case executor and shared, never copied, by every
// finding of the case that shows it (a batch of large objects is held once, not once per finding).
using ExchangeRef = std::shared_ptr<const Exchange>;

inline ExchangeRef share(Exchange exchange) {
  return std::make_shared<const Exchange>(std::move(exchange));
}

// The objects a client sees after `exchange` (its verdict's visible ones), kept alive with it: no
// copy. Sending them on (a round trip's way back, a second hop) shares them with the next call.
inline SharedObjects visibleOf(const ExchangeRef& exchange) {
  return SharedObjects::heldBy(exchange, exchange->verdict.visible);
}

}  // namespace convcheck
