// Where encoded ConversionReviews go: the interface every kind of target implements (the webhook
// over HTTPS here; in-process conversion in tests), and the HTTPS implementation.
#pragma once

#include <memory>
#include <string>

#include "harness/transport/https_client.h"
#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"

namespace convcheck {

class ReviewTarget {
 public:
  virtual ~ReviewTarget() = default;
  // POSTs one encoded ConversionReview and returns the answer as the transport saw it. Never
  // throws for a misbehaving webhook: failures are HttpResult::transportError. One call at a
  // time; a run makes one target per concurrent caller.
  virtual HttpResult post(const std::string& body) = 0;
};

// The webhook at `url`, over one kept-alive HTTPS connection (HttpsClient).
class HttpsTarget : public ReviewTarget {
 public:
  HttpsTarget(std::string url, TransportOptions options)
      : url_(std::move(url)), client_(std::move(options)) {}
  HttpResult post(const std::string& body) override { return client_.post(url_, body); }

 private:
  std::string url_;
  HttpsClient client_;
};

}  // namespace convcheck
