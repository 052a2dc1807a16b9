// The in-process target kind: the shapes of C++ conversion function a target may be, and the
// ReviewTarget that answers each ConversionReview with one, in this process, without a socket.
// Used by the target kinds table (engine) and the in-process harness.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/transport/review_target.h"

namespace convcheck {

// A whole webhook handler: a ConversionReview request (v1 or v1beta1, as kube-apiserver sends it)
// in, the ConversionReview answer out.
using ReviewFunction = std::function<nlohmann::json(const nlohmann::json& review)>;

// What an object-level conversion gives back: the converted object, or why it cannot be converted
// (the answer's result is then Failure with this message, as controller-runtime's handler does).
struct ConvertedObject {
  nlohmann::json object;
  std::string error;
};

// One object to `desiredAPIVersion` ("group/version"): the shape of most converters (a
// controller-runtime ConvertTo/ConvertFrom pair wrapped in one function).
using ObjectFunction = std::function<ConvertedObject(const nlohmann::json& object,
                                                     const std::string& desiredAPIVersion)>;

// The review handler around `convert`: every object converted in order, the request uid echoed,
// the answer in the request's review version; the first error fails the whole review.
ReviewFunction reviewFunctionOf(ObjectFunction convert);

// A target that calls `convert` for every review posted: HTTP 200 with its answer as JSON, HTTP
// 400 for a body that is not JSON, HTTP 500 naming the exception when `convert` throws; without a
// function, a connect error. The time `convert` takes is the exchange's latency (the timeout
// property). `url` names it in reports.
std::unique_ptr<ReviewTarget> functionTarget(ReviewFunction convert, std::string url);

}  // namespace convcheck
