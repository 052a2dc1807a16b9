// Standard base64 decoding with padding, as Go's base64.StdEncoding decodes []byte fields in JSON.
// Used by the CRD decoder (clientConfig.caBundle) and yaml_scalar (`!!binary`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace convcheck {

// Decodes `text` (RFC 4648 alphabet, '=' padding required; '\r' and '\n' are skipped as Go does).
// On failure returns nullopt and sets `why` to "illegal base64 data at input byte N".
std::optional<std::string> decodeBase64(std::string_view text, std::string* why = nullptr);

}  // namespace convcheck
