// The metadata-immutable property: name, namespace and uid are kept (else kube-apiserver rejects
// the answer) and no other metadata but labels/annotations changes (else it silently reverts it).

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/json_diff.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kMetadataImmutableId[] = "metadata-immutable";

namespace {

using nlohmann::json;

json metadataRest(const json& object) {
  json rest = json::object();
  if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object())
    return rest;
  for (auto it = object["metadata"].begin(); it != object["metadata"].end(); ++it) {
    if (it.key() == "labels" || it.key() == "annotations") continue;
    const json& v = it.value();
    if (v.is_null() || ((v.is_object() || v.is_array()) && v.empty())) continue;
    if (v.is_string() && v.get<std::string>().empty()) continue;
    if (v.is_number() && v == json(0)) continue;
    rest[it.key()] = v;
  }
  return rest;
}

CheckResult judgeMetadataImmutable(const ExchangeView& e) {
  if (auto why = e.perObjectUnavailable(); !why.empty())
    return notEvaluable(kMetadataImmutableId, why);
  const auto& match = e.pairing();
  std::vector<std::string> rejected, reverted;
  json expected = json::array(), got = json::array();
  for (std::size_t i = 0; i < match.size(); ++i) {
    const json& sent = e.ex.sent.objects[match[i]];
    const json& back = e.view.convertedHeads[i];
    auto s = identityOf(sent), g = identityOf(back);
    if (s.name != g.name)
      rejected.push_back(fmt::format("index {}: metadata.name {} -> {}", i, json(s.name).dump(),
                                     json(g.name).dump()));
    if (s.ns != g.ns)
      rejected.push_back(fmt::format("index {}: metadata.namespace {} -> {}", i, json(s.ns).dump(),
                                     json(g.ns).dump()));
    if (s.uid != g.uid)
      rejected.push_back(fmt::format("index {}: metadata.uid {} -> {}", i, json(s.uid).dump(),
                                     json(g.uid).dump()));
    json a = metadataRest(sent), b = metadataRest(back);
    for (auto key : {"name", "namespace", "uid"}) {
      a.erase(key);
      b.erase(key);
    }
    if (a != b) {
      for (const auto& line : jsonDiff(a, b))
        reverted.push_back(fmt::format("index {}: metadata.{}", i, line.path));
      expected.push_back(a);
      got.push_back(b);
    }
  }
  if (rejected.empty() && reverted.empty()) return passed(kMetadataImmutableId);
  std::string summary;
  if (!rejected.empty())
    summary =
        "the webhook changes name, namespace or uid; kube-apiserver rejects the answer, so "
        "the object cannot be read or written at this version";
  else
    summary =
        "the webhook changes metadata other than labels and annotations; kube-apiserver "
        "silently reverts it, so whatever the conversion meant to record there is lost";
  std::vector<std::string> details = rejected;
  for (auto& r : reverted) details.push_back("silently reverted: " + r);
  return e.fail(kMetadataImmutableId, summary, details, expected, got);
}

}  // namespace

const Property& metadataImmutableProperty() {
  static const Property kProperty{
      .id = kMetadataImmutableId,
      .holdsWhen =
          "name/namespace/uid unchanged (rejected by the API server) and no other metadata except "
          "labels/annotations changed (silently reverted)",
      .scope = PropertyScope::Exchange,
      .calls = "none",
      .severity = Severity::Cosmetic,
      .aboutMetadata = true,
      .judgeExchange = &judgeMetadataImmutable};
  return kProperty;
}

}  // namespace convcheck
