#include "engine/run/zero_value_probe.h"

#include "properties/checks/json_diff.h"

namespace convcheck {

using nlohmann::json;

namespace {

// A non-zero value of the zero value's type.
json nonZeroLike(const json& zero) {
  if (zero.is_string()) return "x";
  if (zero.is_boolean()) return true;
  return 1;
}

// The index of the case object `expected` was made from (same name and namespace), or npos.
std::size_t caseObjectOf(const SharedObjects& batch, const json& expected) {
  if (!expected.is_object() || !expected.contains("metadata")) return std::string::npos;
  const json& meta = expected["metadata"];
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const auto m = batch[i].find("metadata");
    if (m != batch[i].end() && m->is_object() && m->value("name", "") == meta.value("name", "") &&
        m->value("namespace", "") == meta.value("namespace", ""))
      return i;
  }
  return std::string::npos;
}

}  // namespace

std::optional<bool> losesOnlyZeroValues(const Finding& shrunk, const ZeroValueProbe& probe) {
  const std::size_t index = caseObjectOf(shrunk.caseObjects, shrunk.expected);
  if (index == std::string::npos) return std::nullopt;
  // Every zero value the object lost gets a non-zero one at once: a shrunk object may lose two.
  std::vector<json> batch = shrunk.caseObjects.copy();
  bool changed = false;
  for (const auto& line : jsonDiff(shrunk.expected, shrunk.got)) {
    if (!line.missing || !isZeroValue(line.expected)) continue;
    json* value = valueAtSteps(batch[index], line.steps);
    if (value == nullptr || *value != line.expected) continue;
    *value = nonZeroLike(line.expected);
    changed = true;
  }
  if (!changed || !probe.valid(batch[index])) return std::nullopt;
  return !probe.stillFails(batch);
}

}  // namespace convcheck
