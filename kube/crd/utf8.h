// UTF-8 validity, as Go's YAML reader and JSON encoder require it.
// Used by yaml_json (whole input) and yaml_scalar (`!!binary` payloads).
#pragma once

#include <cstddef>
#include <string_view>

namespace convcheck {

// Offset of the first byte that does not start a well-formed UTF-8 sequence (overlong forms,
// surrogates and code points above U+10FFFF are ill-formed), or npos when `text` is valid.
std::size_t firstInvalidUtf8(std::string_view text);

}  // namespace convcheck
