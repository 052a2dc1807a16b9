// JSON text byte-identical to Go's encoding/json as kube-apiserver emits it (json.Encoder
// defaults). Used by review_codec (request bodies); usable wherever convcheck must reproduce the
// API server's bytes.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace convcheck {

// Appends `value` as Go's json.Encoder (escapeHTML on) would write a map[string]interface{} holding
// it, without the trailing newline:
// - object keys sorted byte-wise at every level (as Go sorts map keys);
// - strings: `"` `\` escaped, \n \r \t \b \f short forms (Go >= 1.22), other controls and
//   < > & as \u00XX, U+2028/U+2029 as \u2028/\u2029, each invalid UTF-8 byte as \ufffd;
// - integers as decimal; unsigned values above INT64_MAX as Go's float64 (an Unstructured cannot
//   hold them as integers); floats in Go's shortest form ('f' for 1e-6 <= |x| < 1e21, else 'e'
//   with a one-digit-minimum exponent: 1e+21, 1e-7); NaN/Inf (not JSON) as null.
void appendGoJson(std::string& out, const nlohmann::json& value);

// Go's encoding of one JSON string value, quotes included.
void appendGoJsonString(std::string& out, const std::string& text);

inline std::string goJson(const nlohmann::json& value) {
  std::string out;
  appendGoJson(out, value);
  return out;
}

}  // namespace convcheck
