// client-go's `r := restClient.Post().Body(request).Do(ctx); r.Into(response)` for a conversion
// webhook: transport error, Content-Type, HTTP status, empty body, body decoding — in that order,
// with client-go's error texts. Used by the API-server model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"
#include "kube/apiserver/review_decode.h"

namespace convcheck {

struct ReceivedReview {
  ModelStage stage = ModelStage::Accepted;  // Accepted: `review` holds the decoded envelope
  std::string error;  // the error text, before webhook_converter.go's "conversion webhook for G
                      // failed: " prefix
  std::optional<DecodedReview> review;
  bool validJsonBody = false;  // as ReviewDecode's: the body was found to be JSON Go accepts
};

// - transport failure: Transport, `Post "<url>": <transportError>` (Go's url.Error);
// - Content-Type (absent = application/json) that mime.ParseMediaType rejects: Decode,
//   "Internal error occurred: mime: …";
// - status outside 200-206 (101 is let through, as client-go does): HttpStatus, the Status body's
//   message when the body is a metav1.Status with status "Failure", else client-go's generic text
//   for the code (see status_messages.h);
// - empty 2xx body: EmptyBody, "0-length response with status code: N and content type: CT";
// - body that does not decode into the sent ConversionReview version: Decode (review_decode.h).
// The Content-Type of a 2xx answer is otherwise ignored. client-go's retries of 429/5xx answers
// carrying Retry-After are not modelled: each HttpResult is judged as the final answer.
// `keepObjects` is passed to decodeReviewBody (how many convertedObjects to keep).
ReceivedReview receiveReview(ReviewVersion sent, const HttpResult& http,
                             std::size_t keepObjects = SIZE_MAX);

}  // namespace convcheck
