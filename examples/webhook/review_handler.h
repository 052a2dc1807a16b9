// Answering one ConversionReview POST (v1 or v1beta1) without any socket: body in, HTTP reply out.
// Used by the example webhook's HTTPS server and by its unit tests.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "examples/webhook/faults.h"
#include "examples/webhook/object_converter.h"

namespace convcheck::example {

// What the server sends back; the server waits `delay` first (fault delay-3s).
struct HttpReply {
  int status = 200;
  std::string contentType = "application/json";
  std::string body;
  std::chrono::milliseconds delay{0};
};

// Decodes the review (400 for a body that is not a ConversionReview, 415 for a Content-Type
// other than application/json), converts every object in order, and answers in the review
// version received with response.uid = request.uid and result.status Success. A conversion
// error gives HTTP 200 with result {status: Failure, message} naming the object's index.
// Review-level faults (uid-not-echoed, reverse-objects, drop-last-object, failure-result,
// http500-over-8, delay-3s) are applied here; object-level ones by the converters. `kinds`
// picks the converters (see KindMode).
HttpReply handleConversionReview(std::string_view contentType, std::string_view body,
                                 const FaultSet& faults, KindMode kinds = KindMode::examples);

}  // namespace convcheck::example
