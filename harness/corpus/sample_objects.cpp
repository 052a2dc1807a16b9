#include "harness/corpus/sample_objects.h"

#include <random>
#include <set>

#include <fmt/format.h>

#include "harness/plan/seed_salts.h"
#include "harness/transport/review_codec.h"
#include "kube/crd/yaml_json.h"

namespace convcheck {

using nlohmann::json;

ObjectDocuments readObjects(const std::string& text, const std::string& file) {
  ObjectDocuments out;
  YamlStream stream = parseYamlStream(text);
  for (const auto& doc : stream.documents) {
    for (const auto& e : doc.errors) out.errors.push_back(fmt::format("{}: {}", file, e.text()));
    if (!doc.errors.empty() || doc.value.is_null()) continue;
    const std::string where = fmt::format("{}, document {}", file, doc.index);
    if (!doc.value.is_object()) {
      out.errors.push_back(where + ": not an object");
      continue;
    }
    if (doc.value.contains("kind") && doc.value["kind"] == "List" && doc.value.contains("items") &&
        doc.value["items"].is_array()) {
      for (std::size_t i = 0; i < doc.value["items"].size(); ++i)
        out.objects.push_back({fmt::format("{}, items[{}]", where, i), doc.value["items"][i]});
      continue;
    }
    out.objects.push_back({where, doc.value});
  }
  if (stream.fatal) out.errors.push_back(fmt::format("{}: {}", file, stream.fatal->text()));
  return out;
}

json asStoredObject(json object, const Crd& crd, std::uint64_t seed) {
  if (!object.is_object()) return object;
  json& meta = object["metadata"];
  if (!meta.is_object()) meta = json::object();
  if (!meta.contains("name") || !meta["name"].is_string() ||
      meta["name"].get<std::string>().empty())
    meta["name"] = (meta.contains("generateName") && meta["generateName"].is_string()
                        ? meta["generateName"].get<std::string>()
                        : std::string()) +
                   "sample";
  if (crd.namespaced) {
    if (!meta.contains("namespace")) meta["namespace"] = "default";
  } else {
    meta.erase("namespace");
  }
  if (!meta.contains("uid")) {
    std::mt19937_64 rng(salted(seed, SeedSalt::SampleUid));
    meta["uid"] = newRequestUid(rng);
  }
  if (!meta.contains("creationTimestamp") || meta["creationTimestamp"].is_null())
    meta["creationTimestamp"] = "2024-01-01T00:00:00Z";
  if (!meta.contains("generation")) meta["generation"] = 1;
  return object;
}

namespace {

struct FieldSpot {
  json::json_pointer at;
  std::string genPath;  // ObjectGenerator::valueFor syntax: "spec.ports[*].name"
};

void collectSpots(const json& value, const SchemaNode* node, const json::json_pointer& at,
                  const std::string& genPath, std::vector<FieldSpot>& out) {
  if (!node) return;
  out.push_back({at, genPath});
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (const SchemaNode* p = node->property(it.key()))
        collectSpots(it.value(), p, at / it.key(), genPath + "." + it.key(), out);
      else if (node->additionalProperties)
        collectSpots(it.value(), node->additionalProperties.get(), at / it.key(), genPath + "[*]",
                     out);
    }
  } else if (value.is_array() && node->items) {
    for (std::size_t i = 0; i < value.size(); ++i)
      collectSpots(value[i], node->items.get(), at / std::to_string(i), genPath + "[*]", out);
  }
}

}  // namespace

std::vector<json> sampleVariants(const json& sample, const ObjectGenerator& gen,
                                 const ValidityChecker& checker, std::uint64_t seed, int count) {
  std::vector<json> out;
  if (!sample.is_object() || count <= 0) return out;
  const SchemaNode* root = gen.schema().root.get();
  std::vector<FieldSpot> spots;
  for (auto it = sample.begin(); it != sample.end(); ++it) {
    if (it.key() == "apiVersion" || it.key() == "kind" || it.key() == "metadata") continue;
    collectSpots(it.value(), root ? root->property(it.key()) : nullptr,
                 json::json_pointer() / it.key(), it.key(), spots);
  }
  if (spots.empty()) return out;
  std::mt19937_64 rng(seed);
  std::set<std::string> seen{sample.dump()};
  for (int attempt = 0; attempt < count * 4 && static_cast<int>(out.size()) < count; ++attempt) {
    const FieldSpot& spot = spots[rng() % spots.size()];
    json value;
    try {
      value = gen.valueFor(spot.genPath)(rc::Random(rng()), 30).value();
    } catch (const std::exception&) {
      continue;  // the generator cannot make this field on its own
    }
    json variant = sample;
    variant.at(spot.at) = value;
    if (!checker.check(variant).empty()) continue;
    if (seen.insert(variant.dump()).second) out.push_back(std::move(variant));
  }
  return out;
}

}  // namespace convcheck
