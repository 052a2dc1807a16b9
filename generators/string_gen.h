// Generators for free-form schema strings: empty where allowed, short, long, non-ASCII Unicode,
// JSON-escaping characters; and keys for maps and unknown fields. Used by schema_gen.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <rapidcheck.h>

namespace convcheck {

// Strings of [minLen, maxLen] code points. Shrinks by removing code points (not below minLen)
// and by replacing them with 'a'.
rc::Gen<std::string> plainStrings(std::size_t minLen, std::optional<std::size_t> maxLen);

// Keys of additionalProperties maps: label-like keys, dotted and slashed keys, non-ASCII keys and
// rarely the empty key.
rc::Gen<std::string> mapKeys();

// UTF-8 encoding of a code point.
std::string utf8Encode(char32_t cp);

}  // namespace convcheck
