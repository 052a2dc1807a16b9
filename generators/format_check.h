// String formats as kube-apiserver validates them (kube-openapi strfmt default registry, limited to
// the formats apiextensions-apiserver keeps). Used by schema_model, schema_check and format_gen
// tests.
#pragma once

#include <string>
#include <string_view>

namespace convcheck {

// "date-time" → "datetime": go-openapi compares format names without dashes.
std::string normalizedFormat(std::string_view format);

// True for formats that kube-apiserver validates on strings (uri, email, hostname, ipv4, ipv6,
// cidr, mac, uuid*, isbn*, creditcard, ssn, hexcolor, rgbcolor, byte, password, date, duration,
// datetime, bsonobjectid, k8s-short-name, k8s-long-name) and the numeric ones it ignores
// (int32, int64, float, double).
bool isKnownFormat(std::string_view format);

// True when `format` constrains strings (a validated string format).
bool isStringFormat(std::string_view format);

// Whether kube-apiserver accepts `value` for `format`. Formats it does not validate accept all.
bool formatAccepts(std::string_view format, std::string_view value);

}  // namespace convcheck
