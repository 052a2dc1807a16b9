// Small CRD manifests for the loader tests, and a helper to vary them one line at a time.
// Used by the tests in tests/crd only.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "kube/crd/crd_loader.h"

namespace convcheck::testing {

// A valid apiextensions.k8s.io/v1 CRD with two versions and a conversion webhook by URL.
inline const std::string kV1WebhookCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
    subresources:
      status: {}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: ["v1", "v1beta1"]
      clientConfig:
        url: https://127.0.0.1:9443/convert
)";

// A valid apiextensions.k8s.io/v1beta1 CRD: top-level validation and subresources, a webhook
// by service, no conversionReviewVersions (defaults to v1beta1).
inline const std::string kV1beta1WebhookCrd = R"(apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names:
    kind: Gadget
    plural: gadgets
  scope: Cluster
  preserveUnknownFields: false
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
  subresources:
    status: {}
  versions:
  - name: v1beta1
    served: true
    storage: false
  - name: v1
    served: true
    storage: true
  conversion:
    strategy: Webhook
    webhookClientConfig:
      service:
        namespace: gadgets
        name: gadget-webhook
        path: /convert
)";

// `text` with the single occurrence of `from` replaced by `to` (fails the test if `from` is
// missing), so that each test states exactly what it changes.
inline std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << "fixture does not contain: " << from;
  if (pos == std::string::npos) return text;
  EXPECT_EQ(text.find(from, pos + 1), std::string::npos) << "fixture contains twice: " << from;
  return text.replace(pos, from.size(), to);
}

// Every error and warning of `r`, one per line, for failure messages.
inline std::string describe(const LoadResult& r) {
  std::string out;
  for (const auto& e : r.errors) out += "error: " + e.text() + "\n";
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  return out;
}

// The first error about `field`, or nullptr.
inline const LoadError* errorAt(const LoadResult& r, const std::string& field) {
  for (const auto& e : r.errors)
    if (e.field == field) return &e;
  return nullptr;
}

// Whether some warning contains `part`.
inline bool warned(const LoadResult& r, const std::string& part) {
  for (const auto& w : r.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

// Loads `text` that must be valid and hold exactly one CRD.
inline Crd loadOne(const std::string& text) {
  LoadResult r = loadCrdText(text, "crds.yaml");
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.crds.size(), 1u) << describe(r);
  return r.crds.empty() ? Crd{} : r.crds.front();
}

}  // namespace convcheck::testing
