// One ConversionReview round: what was sent, what came back over HTTP, and the API-server verdict.
// Built by the Converter (harness/transport/converter); read by property checks, shrinking and
// reports.
#pragma once

#include <memory>
#include <string>

#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"

namespace convcheck {

struct Exchange {
  SentReview sent;
  std::string requestBody;  // the exact bytes POSTed
  HttpResult http;
  ModelVerdict verdict;
};

// An exchange as a case keeps it: made once by the case executor and shared, never copied, by every
// finding of the case that shows it (a batch of large objects is held once, not once per finding).
using ExchangeRef = std::shared_ptr<const Exchange>;

inline ExchangeRef share(Exchange exchange) {
  return std::make_shared<const Exchange>(std::move(exchange));
}

}  // namespace convcheck
