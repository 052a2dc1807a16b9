// The stable property ids of SPEC §4 with a one-line description each: the single registry.
// Used by the runner (--properties selection), the checks, and every report.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace convcheck {

struct PropertyInfo {
  std::string_view id;
  std::string_view holdsWhen;  // SPEC §4 wording, shown in reports and --help
};

// In SPEC order. Ids are stable: they appear in JUnit, JSON and --properties.
inline const std::vector<PropertyInfo>& propertyCatalogue() {
  static const std::vector<PropertyInfo> kCatalogue = {
      {"response-envelope",
       "HTTP 200-206, a parseable ConversionReview of the version sent, response present, "
       "result.status = Success"},
      {"uid-echo", "response.uid equals request.uid"},
      {"object-count", "as many converted objects as sent"},
      {"order", "converted object i is the conversion of sent object i"},
      {"target-version", "every converted object has apiVersion = desiredAPIVersion"},
      {"kind-unchanged", "kind equals the original kind"},
      {"metadata-immutable",
       "name/namespace/uid unchanged and no other metadata field except labels/annotations "
       "changed"},
      {"labels-annotations-valid",
       "labels/annotations are string maps, valid as the API server validates them"},
      {"converts-valid-input", "every schema-valid object converts to every other version"},
      {"round-trip", "A->B->A returns A, after the API-server model"},
      {"edit-round-trip", "A->B, schema-valid change of B, B'->A->B returns B'"},
      {"transitivity", "A->B->C equals A->C"},
      {"determinism", "the same request gives the same converted objects"},
      {"batch-independence", "a batch converts as each object alone, in any order"},
      {"schema-valid", "each converted object validates against the target version's schema"},
      {"no-pruned-fields", "no field of a converted object is pruned by the target schema"},
      {"tls", "the serving certificate would be accepted by kube-apiserver's client"},
      {"timeout", "every response arrives within --timeout (the API server's 30 s)"},
  };
  return kCatalogue;
}

inline bool isKnownProperty(std::string_view id) {
  for (const auto& p : propertyCatalogue())
    if (p.id == id) return true;
  return false;
}

}  // namespace convcheck
