// Decoding one CustomResourceDefinition object (apiextensions.k8s.io v1 or v1beta1, already JSON)
// into the normalised Crd, with the API's defaults applied and type errors named by field.
// Used by crd_loader; crd_validate checks the result against kube-apiserver's rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/crd/crd.h"
#include "kube/crd/load_error.h"

namespace convcheck {

// How the conversion settings were written, for validation and for messages that name the field
// as the user wrote it (v1: spec.conversion.webhook.clientConfig, v1beta1:
// spec.conversion.webhookClientConfig).
struct CrdLayout {
  std::string apiVersion;  // "apiextensions.k8s.io/v1" or "apiextensions.k8s.io/v1beta1"
  std::string prefix;      // prepended to every field path: "" or "items[2]." inside a List
  bool v1beta1 = false;
  bool hasWebhookBlock = false;                  // v1: spec.conversion.webhook present
  bool hasClientConfig = false;                  // clientConfig / webhookClientConfig present
  bool hasReviewVersions = false;                // conversionReviewVersions written (not defaulted)
  bool hasUrl = false;                           // clientConfig.url present (possibly empty)
  std::string specVersion;                       // v1beta1 spec.version as written
  std::vector<std::string> versionSchemaFields;  // per version: where its schema came from

  std::string field(const std::string& path) const { return prefix + path; }
  std::string clientConfigField() const;    // with prefix
  std::string reviewVersionsField() const;  // with prefix
};

struct CrdDecodeResult {
  std::optional<Crd> crd;  // absent when `errors` is not empty
  CrdLayout layout;
  std::vector<LoadError> errors;
  std::vector<LoadError> warnings;
};

// Decodes `object`, whose apiVersion/kind say it is a CustomResourceDefinition. Field paths in
// errors start with `prefix` ("items[2]." for an item of a List). Applies the API's defaults:
// v1beta1 `spec.version` becomes the only version when `versions` is absent, top-level
// `validation` and `subresources` apply to every version, `conversionReviewVersions` defaults to
// ["v1beta1"] and `preserveUnknownFields` to true; listKind defaults to kind + "List"; service
// port to 443. `caBundle` is base64-decoded (whitespace-only counts as empty).
CrdDecodeResult decodeCrd(const nlohmann::json& object, const SourceLocation& where,
                          const std::string& prefix = "");

}  // namespace convcheck
