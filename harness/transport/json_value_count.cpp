#include "harness/transport/json_value_count.h"

namespace convcheck {

std::size_t approximateJsonValues(std::string_view body, std::size_t stopAt) {
  std::size_t values = 1;
  bool inString = false;
  for (std::size_t i = 0; i < body.size() && values <= stopAt; ++i) {
    const char c = body[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '{' || c == '[' || c == ',')
      ++values;
  }
  return values;
}

}  // namespace convcheck
