#include "harness/transport/json_shape.h"

namespace convcheck {

JsonShape approximateJsonShape(std::string_view body, std::size_t stopAtValues,
                               std::size_t stopAtDepth) {
  JsonShape shape;
  shape.values = 1;
  std::size_t depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      ++shape.values;
      if (++depth > shape.depth) shape.depth = depth;
    } else if (c == '}' || c == ']') {
      if (depth > 0) --depth;
    } else if (c == ',') {
      ++shape.values;
    }
    if (shape.values > stopAtValues || shape.depth > stopAtDepth) break;
  }
  return shape;
}

}  // namespace convcheck
