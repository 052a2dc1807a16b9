// How one YAML scalar becomes a JSON value, as Kubernetes reads YAML (sigs.k8s.io/yaml's go-yaml
// v2). Used by yaml_json (values and map keys); tests pin the resolution table down directly.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kube/go/yaml_events.h"

namespace convcheck {

// Floats that JSON cannot hold. go-yaml resolves them; JSON encoding then fails on them as
// values, while map keys turn them into ".inf", "-.inf" and ".nan".
enum class NonFiniteFloat { None, PositiveInfinity, NegativeInfinity, NaN };

struct ResolvedScalar {
  nlohmann::json value;  // string, boolean, null, integer (int64 or uint64) or float
  NonFiniteFloat nonFinite = NonFiniteFloat::None;  // when set, `value` is null
  std::string error;  // non-empty: the scalar cannot be decoded (e.g. `!!int abc`)
};

// Resolves `text` under its tag: "?" for a plain scalar, "!" for a quoted or block scalar, or an
// explicit tag such as "tag:yaml.org,2002:str". Plain scalars follow
// go-yaml v2: y/yes/on/true (any of its three spellings) are true, n/no/off/false are false, ~/null
// and empty are null, integers via Go's ParseInt(s, 0, 64) after removing '_' (then ParseUint),
// YAML-style floats and .inf/.nan; everything else is a string. Quoted scalars, `!!str`, `!!value`
// and unknown tags give strings; `!!int`, `!!float`, `!!bool`, `!!null` must resolve to their type;
// `!!binary` is base64-decoded.
ResolvedScalar resolveYamlScalar(std::string_view tag, std::string_view text);
// The same for a scalar event of go-yaml's parser (its explicit tag, else "?" or "!" by style).
ResolvedScalar resolveYamlScalar(const YamlEvent& scalar);

// A resolved value as it reaches the API server through JSON: integral floats within int64
// become integers (Go's json.Marshal writes 1.0 as 1) and integers beyond int64 become floats
// (unstructured JSON holds only int64 and float64).
nlohmann::json normaliseJsonNumber(nlohmann::json value);

// The JSON object key sigs.k8s.io/yaml makes of a resolved scalar key: strings as they are,
// integers in decimal, booleans as "true"/"false", floats as Go's FormatFloat(f, 'g', -1, 32).
// Returns false (with `why`) for keys JSON cannot have (null).
bool yamlKeyToString(const ResolvedScalar& key, std::string& out, std::string& why);

// Go's strconv.FormatFloat(v, 'g', -1, 32), used for float map keys.
std::string goFormatFloat32(double v);

}  // namespace convcheck
