// Generators for free-form schema strings: empty where allowed, short, long, non-ASCII Unicode,
// JSON-escaping characters; and keys for maps and unknown fields. Used by schema_gen.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

namespace convcheck {

// The lengths Kubernetes' own string rules stop at: a DNS-1123 label, a label value or a name
// part (63) and a DNS-1123 subdomain (253).
inline constexpr std::size_t kKubernetesLengthLimits[] = {63, 253};

// The lengths at which a string of [minLen, maxLen] code points is at a limit: maxLength,
// minLength and the Kubernetes limits the bounds allow, each once, in that order.
std::vector<std::size_t> boundaryLengths(std::size_t minLen, std::optional<std::size_t> maxLen);

// Strings of [minLen, maxLen] code points over every printable ASCII character and some beyond:
// one in seven at one of the boundaryLengths, one in fourteen a punctuatedValue (cut or filled to
// the bounds), else mostly short, sometimes long. Shrinks by removing code points (not below
// minLen) and by replacing them with 'a'.
rc::Gen<std::string> plainStrings(std::size_t minLen, std::optional<std::size_t> maxLen);

// A value with the punctuation real ones carry: a URL with a query, a connection string, a label
// selector, KEY=VALUE lists, command-line flags, a cron line with its time zone, an e-mail
// address, an IPv6 host and port, a JSONPath, a Go template, search paths, an image by digest, a
// message with brackets and percent signs.
std::string punctuatedValue(rc::Random& r);

// Keys of additionalProperties maps: label-like keys, dotted and slashed keys, non-ASCII keys and
// rarely the empty key.
rc::Gen<std::string> mapKeys();

}  // namespace convcheck
