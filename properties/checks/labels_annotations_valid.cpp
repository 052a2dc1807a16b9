// The labels-annotations-valid property: returned labels and annotations are string maps the API
// server accepts. Judged on every answer; listed in property_registry.cpp.
#include <algorithm>

#include <fmt/format.h>

#include "kube/apiserver/label_validation.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kLabelsAnnotationsValidId[] = "labels-annotations-valid";

namespace {

using nlohmann::json;

CheckResult judgeLabelsAnnotationsValid(const ExchangeView& e) {
  if (e.ex.verdict.stage == ModelStage::Metadata)
    return e.fail(kLabelsAnnotationsValidId,
                  "kube-apiserver rejects the labels or annotations the webhook returned, so the "
                  "object cannot be read at this version",
                  {e.ex.verdict.message});
  if (auto why = e.perObjectUnavailable(); !why.empty())
    return notEvaluable(kLabelsAnnotationsValidId, why);
  const auto& match = e.pairing();
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < match.size(); ++i) {
    const json& back = e.view.convertedHeads[i];
    const json& sent = e.ex.sent.objects[match[i]];
    if (!back.is_object() || !back.contains("metadata") || !back["metadata"].is_object()) continue;
    for (const char* field : {"labels", "annotations"}) {
      const json& meta = back["metadata"];
      if (!meta.contains(field) || meta[field].is_null()) continue;
      const json& map = meta[field];
      if (!map.is_object()) {
        problems.push_back(fmt::format("index {}: metadata.{} is a {}", i, field, map.type_name()));
        continue;
      }
      bool strings =
          std::all_of(map.begin(), map.end(), [](const json& v) { return v.is_string(); });
      if (!strings) {
        problems.push_back(fmt::format("index {}: metadata.{} has non-string values", i, field));
        continue;
      }
      json original = sent["metadata"].value(field, json::object());
      if (original == map) continue;
      auto errors = std::string(field) == "labels" ? validateLabels(map) : validateAnnotations(map);
      for (auto& e : errors) problems.push_back(fmt::format("index {}: {}", i, e));
    }
  }
  if (problems.empty()) return passed(kLabelsAnnotationsValidId);
  return e.fail(kLabelsAnnotationsValidId,
                "the webhook returns labels or annotations the API server does not accept; "
                "reads at this version fail",
                problems);
}

}  // namespace

const Property& labelsAnnotationsValidProperty() {
  static const Property kProperty{
      .id = kLabelsAnnotationsValidId,
      .holdsWhen = "labels/annotations are string maps valid as the API server validates them",
      .scope = PropertyScope::Exchange,
      .calls = "none",
      .severity = Severity::Outage,
      .judgeExchange = &judgeLabelsAnnotationsValid};
  return kProperty;
}

}  // namespace convcheck
