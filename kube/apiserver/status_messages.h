// client-go's error text for a webhook answer outside HTTP 200-206 (rest.Request.transformResponse,
// newUnstructuredResponseError, errors.NewGenericServerResponse). Used by the API-server model.
#pragma once

#include <string>
#include <string_view>

namespace convcheck {

// The serverMessage client-go derives from an error body: the body capped at 2048 bytes and
// trimmed (strings.TrimSpace) when the raw Content-Type header is empty or text/*, else "unknown".
std::string unstructuredServerMessage(std::string_view body, std::string_view rawContentType);

// errors.NewGenericServerResponse(code, "POST", {}, "", serverMessage, …).Error(), e.g.
// 404 "the server could not find the requested resource", 422 "the server rejected our request
// due to an error in our request", 500 "an error on the server (\"<msg>\") has prevented the
// request from succeeding", 403/415 the server message itself.
std::string genericServerResponseMessage(long code, std::string_view serverMessage);

}  // namespace convcheck
