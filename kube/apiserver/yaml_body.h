// The YAML fallback of apimachinery's universal deserializer: a response body that does not start
// with '{' is converted from YAML to JSON (sigs.k8s.io/yaml.YAMLToJSON) before decoding. Used by
// review_decode.
#pragma once

#include <string>
#include <string_view>

namespace convcheck {

// apimachinery's IsJSONBuffer: after leading white space the body starts with '{'.
bool looksLikeJson(std::string_view body);

struct YamlAsJson {
  std::string json;   // JSON text of the first YAML document ("null" when empty)
  std::string error;  // non-empty when the YAML does not parse
};

// YAMLToJSON of the first document. Scalars resolve by go-yaml v2's table for interface{}, the
// one the CRD reader uses (kube/crd/yaml_scalar.h); map keys become strings as
// sigs.k8s.io/yaml makes them; a value JSON cannot hold (.inf, .nan) fails as json.Marshal fails
// ("json: unsupported value: +Inf"). The text is read by go-yaml's parser (libyaml,
// kube/go/yaml_events.h), so the same bodies are refused, with go-yaml's wording after
// "error converting YAML to JSON: yaml: ". Bounded against hostile bodies: go-yaml v2's
// excessive-aliasing rule ("document contains excessive aliasing"), and convcheck's own limits of
// 1000 nesting levels ("exceeded max depth of 1000") and 1,000,000 values with aliases expanded
// ("document too large").
YamlAsJson yamlToJson(std::string_view body);

}  // namespace convcheck
