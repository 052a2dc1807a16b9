// A lenient, model-independent look at a webhook's answer: the raw response fields each property
// needs even when kube-apiserver stopped at an earlier check. Used by properties/checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/apiserver/http_types.h"

namespace convcheck {

struct ResponseView {
  bool decoded = false;            // 2xx and the body is a JSON object
  bool hasResponse = false;        // "response" is an object
  std::optional<std::string> uid;  // response.uid when it is a string
  std::string resultStatus;        // response.result.status when a string
  // The first convertedObjects ([] when null or missing), each as its apiVersion, kind and
  // metadata only (a non-object whole): all the per-answer properties read of them.
  std::vector<nlohmann::json> convertedHeads;
  std::size_t convertedCount = 0;  // how many convertedObjects the answer has
};

// Reads the body as Go's decoder reads JSON (a body Go rejects, e.g. nested deeper than 10000
// levels, is not decoded; invalid UTF-8 becomes U+FFFD; integers stay int64), building only what
// the properties look at: the rest (of each object all but apiVersion, kind and metadata) is
// skipped, and at most `keepObjects` convertedObjects are kept while all of them are counted.
// `validJson`: the body is already known to pass Go's syntax check (the model's verdict says so),
// which is then not run again; the view is the same either way.
ResponseView viewResponse(const HttpResult& http, std::size_t keepObjects = SIZE_MAX,
                          bool validJson = false);

// namespace/name/uid of an object's metadata ("" for missing or non-string values).
struct ObjectIdentity {
  std::string ns, name, uid;
  bool operator==(const ObjectIdentity&) const = default;
  auto operator<=>(const ObjectIdentity&) const = default;
};
ObjectIdentity identityOf(const nlohmann::json& object);
std::string describe(const ObjectIdentity& id);

}  // namespace convcheck
