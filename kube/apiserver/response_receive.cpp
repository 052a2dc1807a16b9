#include "kube/apiserver/response_receive.h"

#include "kube/apiserver/media_type.h"
#include "kube/apiserver/status_messages.h"
#include "kube/go/go_format.h"

namespace convcheck {

ReceivedReview receiveReview(ReviewVersion sent, const HttpResult& http, std::size_t keepObjects) {
  ReceivedReview out;
  auto fail = [&](ModelStage stage, std::string error) {
    out.stage = stage;
    out.error = std::move(error);
    return out;
  };
  if (!http.ok())
    return fail(ModelStage::Transport, "Post " + goQuote(http.url) + ": " + http.transportError);

  // transformResponse: the Content-Type must parse (an absent one means the client's default).
  const std::string rawContentType = goTrimSpace(http.contentType);
  const std::string contentType = rawContentType.empty() ? "application/json" : rawContentType;
  if (MediaType media = parseMediaType(contentType); !media.error.empty())
    return fail(ModelStage::Decode, "Internal error occurred: " + media.error);

  const long code = http.status;
  if (code != 101 && (code < 200 || code > 206)) {
    if (auto message = failureStatusMessage(http.body))
      return fail(ModelStage::HttpStatus, *message);
    return fail(
        ModelStage::HttpStatus,
        genericServerResponseMessage(code, unstructuredServerMessage(http.body, rawContentType)));
  }

  // Result.Into
  if (http.body.empty())
    return fail(ModelStage::EmptyBody,
                "0-length response with status code: " + std::to_string(code) +
                    " and content type: " + contentType);
  ReviewDecode decoded = decodeReviewBody(sent, http.body, keepObjects);
  out.validJsonBody = decoded.validJsonBody;
  if (!decoded.review) return fail(ModelStage::Decode, decoded.error);
  out.review = std::move(decoded.review);
  return out;
}

}  // namespace convcheck
