// One ConversionReview round: what was sent, what came back over HTTP, and the API-server verdict.
// Built by the runner (harness/run/converter); read by property checks, shrinking and reports.
#pragma once

#include <string>

#include "harness/transport/http_types.h"
#include "properties/review.h"

namespace convcheck {

struct Exchange {
  SentReview sent;
  std::string requestBody;  // the exact bytes POSTed
  HttpResult http;
  ModelVerdict verdict;
};

}  // namespace convcheck
