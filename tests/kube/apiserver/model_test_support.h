// Builders for the API-server model tests: Foo objects, the review convcheck sent, and the HTTP
// answers a webhook might give. Used by tests/properties/*_test.cpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"

namespace convcheck::modeltest {

inline constexpr const char* kRequestUid = "705ab4f5-6393-11e8-b7cc-42010a800002";
inline constexpr const char* kUrl = "https://127.0.0.1:8443/convert?timeout=30s";

// A stored-looking Foo at stable.example.com/v1 with labels, annotations, finalizers, generation.
nlohmann::json fooObject(const std::string& name = "foo-1",
                         const std::string& apiVersion = "stable.example.com/v1");

// What convcheck sent: `objects` converted to stable.example.com/v2, kind Foo, listKind FooList.
SentReview sentReview(ReviewVersion version, std::vector<nlohmann::json> objects);

// A well-behaved conversion of `original`: the same object with apiVersion stable.example.com/v2.
nlohmann::json converted(const nlohmann::json& original);

// A ConversionReview response envelope in the sent version, echoing its uid, with the given
// converted objects and result status.
nlohmann::json responseEnvelope(const SentReview& sent, const std::vector<nlohmann::json>& objects,
                                const std::string& status = "Success");

// An HTTP answer.
HttpResult answer(const std::string& body, long status = 200,
                  const std::string& contentType = "application/json");
inline HttpResult answer(const nlohmann::json& body, long status = 200,
                         const std::string& contentType = "application/json") {
  return answer(body.dump(), status, contentType);
}

}  // namespace convcheck::modeltest
