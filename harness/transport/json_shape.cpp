#include "harness/transport/json_shape.h"

#include "kube/go/byte_runs.h"

namespace convcheck {

JsonShape approximateJsonShape(std::string_view body, std::size_t stopAtValues,
                               std::size_t stopAtDepth) {
  JsonShape shape;
  shape.values = 1;
  std::size_t depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (inString) {
      // Plain string bytes change nothing here: passed over eight at a time.
      i = plainStringRunEnd(body, i);
      if (i == body.size()) break;
      if (body[i] == '\\')
        ++i;
      else if (body[i] == '"')
        inString = false;
      continue;
    }
    const char c = body[i];
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
