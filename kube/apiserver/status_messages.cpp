#include "kube/apiserver/status_messages.h"

#include "kube/apiserver/media_type.h"
#include "kube/go/go_format.h"

namespace convcheck {

std::string unstructuredServerMessage(std::string_view body, std::string_view rawContentType) {
  constexpr std::size_t kMaxUnstructuredResponseTextBytes = 2048;
  if (body.size() > kMaxUnstructuredResponseTextBytes)
    body = body.substr(0, kMaxUnstructuredResponseTextBytes);
  // isTextResponse: no Content-Type at all, or a parsable text/* one.
  bool isText = rawContentType.empty();
  if (!isText) {
    MediaType media = parseMediaType(rawContentType);
    isText = media.error.empty() && media.mediaType.rfind("text/", 0) == 0;
  }
  return isText ? goTrimSpace(body) : "unknown";
}

std::string genericServerResponseMessage(long code, std::string_view serverMessage) {
  switch (code) {
    case 409:
      return "the server reported a conflict";
    case 404:
      return "the server could not find the requested resource";
    case 400:
      return "the server rejected our request for an unknown reason";
    case 401:
      return "the server has asked for the client to provide credentials";
    case 403:
      return std::string(serverMessage);
    case 406:
      if (serverMessage.empty() || serverMessage == "unknown")
        return "the server was unable to respond with a content type that the client supports";
      return std::string(serverMessage);
    case 415:
      return std::string(serverMessage);
    case 405:
      return "the server does not allow this method on the requested resource";
    case 422:
      return "the server rejected our request due to an error in our request";
    case 503:
      return "the server is currently unable to handle the request";
    case 504:
      return "the server was unable to return a response in the time allotted, but may still be "
             "processing the request";
    case 429:
      return "the server has received too many requests and has asked us to try again later";
    default:
      if (code >= 500)
        return "an error on the server (" + goQuote(serverMessage) +
               ") has prevented the request from succeeding";
      return "the server responded with the status code " + std::to_string(code) +
             " but did not return more information";
  }
}

}  // namespace convcheck
