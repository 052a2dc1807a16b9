// Generators for the string formats kube-apiserver validates (date-time, date, duration, byte,
// ipv4, ipv6, cidr, mac, uuid*, uri, email, hostname, isbn*, creditcard, ssn, colors, …).
// Used by schema_gen; every generated string passes formatAccepts().
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <rapidcheck.h>

namespace convcheck {

struct FormatOptions {
  // Only RFC 3339 UTC seconds ("2024-05-01T12:00:00Z") for date-time: what Go's metav1.Time and
  // the API server write, so a Go webhook's re-encoding is no finding. false: fractions and
  // offsets appear too (`--date-times any`).
  bool canonicalDateTimes = true;
};

// Generator for strings of `format`, or nullopt when the format does not constrain strings.
std::optional<rc::Gen<std::string>> formatStrings(std::string_view format,
                                                  FormatOptions options = {});

// An RFC 3339 UTC timestamp with seconds precision, between 1970 and 2099.
rc::Gen<std::string> rfc3339Seconds();

}  // namespace convcheck
