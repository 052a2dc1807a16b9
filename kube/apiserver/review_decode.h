// A webhook's response body decoded as kube-apiserver's webhook client decodes it (client-go
// Result.Into with LegacyCodec(v1, v1beta1) over a scheme of apiextensions v1 and v1beta1).
// Used by the API-server model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kube/apiserver/review.h"

namespace convcheck {

// The fields of the ConversionReview the model needs, as Go's decoder left them.
struct DecodedReview {
  std::string apiVersion, kind;  // TypeMeta: case-sensitive keys, may be empty
  bool hasResponse = false;      // response != nil
  std::string responseUid;
  std::string resultStatus, resultMessage;
  // convertedObjects as RawExtensions: the exact JSON text of each element (valid JSON: the whole
  // body passed the syntax scan), nullopt for a JSON null (an empty Raw). Empty for null, missing
  // or []. At most `keepObjects` of them (see decodeReviewBody); convertedObjectCount is the length
  // Go sees.
  std::vector<std::optional<std::string>> convertedObjects;
  std::size_t convertedObjectCount = 0;
};

struct ReviewDecode {
  std::optional<DecodedReview> review;
  std::string error;  // the decoder's error text when review is empty
  // The body itself (not YAML converted) is JSON Go's decoder accepts: its syntax was checked on
  // the way, and a reader of the same bytes need not check it again.
  bool validJsonBody = false;
};

// Decodes a 2xx body (non-empty) in the context of the review version that was sent:
// - a body starting with '{' (after white space) is JSON, anything else is YAML first;
// - apiVersion/kind are read case-insensitively (json parse errors prefixed "couldn't get
//   version/kind; json parse error: "), missing ones default to the sent ConversionReview;
// - any other registered kind fails ("converting (v1beta1.ConversionReview) to
//   (v1.ConversionReview): unknown conversion"), unregistered ones with "no kind … is registered";
// - the review itself is decoded non-strictly: unknown fields ignored, case-sensitive keys,
//   duplicate keys last wins, wrong JSON types of known fields are Go's UnmarshalTypeErrors
//   ("json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type
//   types.UID").
// `keepObjects` bounds how many convertedObjects are kept (the model passes the number sent:
// beyond it only the count matters), so an answer with millions of objects stays cheap.
ReviewDecode decodeReviewBody(ReviewVersion sent, std::string_view body,
                              std::size_t keepObjects = SIZE_MAX);

// client-go Result.Error() for a non-2xx answer: when the body decodes as a metav1.Status (kind
// "Status", apiVersion defaulting to v1) whose status is exactly "Failure", its message (which
// replaces the generic HTTP status text); otherwise nullopt.
std::optional<std::string> failureStatusMessage(std::string_view body);

}  // namespace convcheck
