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

const json& metadataOf(const json& object) {
  static const json kNone = json::object();
  if (!object.is_object()) return kNone;
  auto meta = object.find("metadata");
  return meta != object.end() && meta->is_object() ? *meta : kNone;
}

// A metadata member the property compares: not labels or annotations (which may change), not
// name, namespace or uid (compared on their own), and not empty (null, "", 0, {} or []).
bool restMember(const std::string& key, const json& v) {
  if (key == "labels" || key == "annotations" || key == "name" || key == "namespace" ||
      key == "uid")
    return false;
  if (v.is_null() || ((v.is_object() || v.is_array()) && v.empty())) return false;
  if (v.is_string() && v.get_ref<const std::string&>().empty()) return false;
  if (v.is_number() && v == json(0)) return false;
  return true;
}

// The metadata the property compares, as a value of its own (for a finding's expected and got).
json metadataRest(const json& object) {
  json rest = json::object();
  const json& meta = metadataOf(object);
  for (auto it = meta.begin(); it != meta.end(); ++it)
    if (restMember(it.key(), it.value())) rest[it.key()] = it.value();
  return rest;
}

// metadataRest(a) == metadataRest(b), read in place: most answers keep the metadata, and this
// runs on every answer, so nothing is copied unless they differ.
bool sameMetadataRest(const json& a, const json& b) {
  const json& x = metadataOf(a);
  const json& y = metadataOf(b);
  auto i = x.begin(), j = y.begin();
  auto skip = [](auto& it, const json& meta) {
    while (it != meta.end() && !restMember(it.key(), it.value())) ++it;
  };
  for (skip(i, x), skip(j, y); i != x.end() && j != y.end(); ++i, ++j, skip(i, x), skip(j, y))
    if (i.key() != j.key() || i.value() != j.value()) return false;
  return i == x.end() && j == y.end();
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
    if (!sameMetadataRest(sent, back)) {
      json a = metadataRest(sent), b = metadataRest(back);
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
