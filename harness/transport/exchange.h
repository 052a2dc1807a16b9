// One ConversionReview round: what was sent, what came back over HTTP, and the API-server verdict.
// Built by the Converter (harness/transport/converter); read by property checks, shrinking and
// reports.
#pragma once

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

}  // namespace convcheck
