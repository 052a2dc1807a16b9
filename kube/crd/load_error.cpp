#include "kube/crd/load_error.h"

namespace convcheck {

std::string LoadError::text() const {
  std::string out = where.file;
  auto add = [&out](const std::string& part) {
    if (!out.empty()) out += ", ";
    out += part;
  };
  if (where.document > 0) add("document " + std::to_string(where.document));
  if (line > 0) add("line " + std::to_string(line));
  if (column > 0) add("column " + std::to_string(column));
  if (!field.empty()) add(field);
  return out.empty() ? message : out + ": " + message;
}

}  // namespace convcheck
