#include "examples/webhook/object_faults.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

namespace convcheck::example {
namespace {

using nlohmann::json;

// A value that differs on every call: wall-clock nanoseconds and 64 random bits.
std::string freshRandomValue() {
  std::random_device device;
  std::uint64_t random = (std::uint64_t{device()} << 32) | device();
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%lld-%016llx", static_cast<long long>(nanos),
                static_cast<unsigned long long>(random));
  return buffer;
}

// metadata as a map, creating it if absent or null; nullptr if it is something else.
json* metadataOf(json& object) {
  auto& metadata = object["metadata"];
  if (metadata.is_null()) metadata = json::object();
  return metadata.is_object() ? &metadata : nullptr;
}

json* mapIn(json& metadata, const char* key) {
  auto& map = metadata[key];
  if (map.is_null()) map = json::object();
  return map.is_object() ? &map : nullptr;
}

// Removes annotation `key` when present (and the annotations if that empties them), else adds
// it with `value`.
void toggleAnnotation(json& object, std::string_view key, const std::string& value) {
  json* metadata = metadataOf(object);
  if (!metadata) return;
  const std::string name(key);
  auto annotations = metadata->find("annotations");
  if (annotations != metadata->end() && annotations->is_object() && annotations->contains(name)) {
    annotations->erase(name);
    if (annotations->empty()) metadata->erase(annotations);
    return;
  }
  if (json* map = mapIn(*metadata, "annotations")) (*map)[name] = value;
}

void addUnknownSpecField(json& object) {
  auto spec = object.find("spec");
  if (spec == object.end() || !spec->is_object()) return;
  (*spec)[std::string(kUnknownSpecField)] = std::string(kUnknownSpecFieldValue);
}

void addFinalizer(json& object) {
  json* metadata = metadataOf(object);
  if (!metadata) return;
  auto& finalizers = (*metadata)["finalizers"];
  if (finalizers.is_null()) finalizers = json::array();
  if (!finalizers.is_array()) return;
  for (const auto& f : finalizers)
    if (f == kFaultFinalizer) return;
  finalizers.push_back(std::string(kFaultFinalizer));
}

// Every integer of `value` through a double, as JSON.parse and JSON.stringify do: those beyond
// 2^53 come back rounded, written as integers while they fit.
void throughFloat64(json& value) {
  if (value.is_object() || value.is_array()) {
    for (auto& v : value) throughFloat64(v);
    return;
  }
  if (!value.is_number_integer()) return;
  const double d = value.is_number_unsigned() ? static_cast<double>(value.get<std::uint64_t>())
                                              : static_cast<double>(value.get<std::int64_t>());
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
    value = static_cast<std::int64_t>(d);
  else if (d >= 0 && d < 18446744073709551616.0)
    value = static_cast<std::uint64_t>(d);
  else
    value = d;
}

}  // namespace

void applyObjectFaults(const json& original, json& converted, const FaultSet& faults,
                       const ObjectFaultContext& context) {
  if (faults.has(Fault::WrongApiVersion) && original.contains("apiVersion"))
    converted["apiVersion"] = original["apiVersion"];
  if (faults.has(Fault::ChangeKind) && converted.value("kind", json()).is_string())
    converted["kind"] = converted["kind"].get<std::string>() + std::string(kChangedKindSuffix);
  if (faults.has(Fault::ChangeName)) {
    if (json* metadata = metadataOf(converted)) {
      auto name = metadata->value("name", json(""));
      if (name.is_string())
        (*metadata)["name"] = name.get<std::string>() + std::string(kChangedNameSuffix);
    }
  }
  if (faults.has(Fault::InvalidLabel)) {
    if (json* metadata = metadataOf(converted))
      if (json* labels = mapIn(*metadata, "labels"))
        (*labels)[std::string(kFaultLabelKey)] = std::string(kFaultLabelValue);
  }
  if (faults.has(Fault::MutateFinalizers)) addFinalizer(converted);
  if (faults.has(Fault::Nondeterministic))
    toggleAnnotation(converted, kConvertedAtAnnotation, freshRandomValue());
  if (faults.has(Fault::BatchPosition) && context.crossesStorageVersion)
    toggleAnnotation(converted, kBatchIndexAnnotation, std::to_string(context.batchIndex));
  if (faults.has(Fault::UnknownField)) addUnknownSpecField(converted);
  if (faults.has(Fault::OwnedAnnotationLoss))
    if (json* metadata = metadataOf(converted))
      if (json* annotations = mapIn(*metadata, "annotations"))
        (*annotations)[std::string(kConvertedByAnnotation)] = std::string(kConvertedByValue);
  if (faults.has(Fault::Float64Numbers)) throughFloat64(converted);
}

}  // namespace convcheck::example
