// Go's mime.ParseMediaType as client-go applies it to a webhook's Content-Type header. Used by the
// API-server model (response decoding and the text/* rule for error messages).
#pragma once

#include <string>
#include <string_view>

namespace convcheck {

struct MediaType {
  std::string mediaType;  // lower-cased "type/subtype" (or a bare "type"), empty on error
  std::string error;      // Go's error text ("mime: no media type", "mime: invalid media
                          // parameter", …), empty when the header parses
};

// mime.ParseMediaType, without RFC 2231 parameter continuations (treated as plain parameters).
MediaType parseMediaType(std::string_view header);

}  // namespace convcheck
