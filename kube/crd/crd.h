// The CustomResourceDefinition as convcheck sees it, normalised from the v1 and v1beta1 CRD APIs.
// Produced by kube/crd/crd_loader; read by generators, the planner and the API-server model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// Where a CRD came from, for error messages and reports ("crds.yaml, document 2").
struct SourceLocation {
  std::string file;  // path as given, or "<stdin>"
  int document = 1;  // 1-based YAML document index within the file
};

struct CrdVersion {
  std::string name;  // e.g. "v1beta1"
  bool served = true;
  bool storage = false;
  bool deprecated = false;
  // openAPIV3Schema of this version (v1beta1 CRDs: per-version schema, else the top-level
  // `validation`). null when the version has no schema.
  nlohmann::json schema;
  bool hasStatusSubresource = false;
};

struct ServiceReference {
  std::string ns;
  std::string name;
  std::string path;  // may be empty
  int port = 443;
};

struct WebhookClientConfig {
  std::string url;                          // clientConfig.url, may be empty
  std::optional<ServiceReference> service;  // clientConfig.service
  std::string caBundlePem;                  // decoded caBundle (PEM text), may be empty
};

struct Crd {
  SourceLocation source;
  std::string name;  // metadata.name, "<plural>.<group>"
  std::string group;
  std::string kind;
  std::string listKind;
  std::string plural;
  bool namespaced = true;
  std::vector<CrdVersion> versions;  // in spec order
  std::string conversionStrategy;    // "None" or "Webhook"
  WebhookClientConfig clientConfig;
  std::vector<std::string> conversionReviewVersions;  // v1beta1 CRD API defaults to {"v1beta1"}
  std::vector<std::string> storedVersions;            // status.storedVersions, may be empty
  bool preserveUnknownFields = false;

  const CrdVersion* version(const std::string& name) const {
    for (const auto& v : versions)
      if (v.name == name) return &v;
    return nullptr;
  }
  std::string apiVersion(const std::string& version) const { return group + "/" + version; }
};

}  // namespace convcheck
