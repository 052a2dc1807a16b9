#include "examples/webhook/widget_converter.h"

#include <algorithm>
#include <string>

namespace convcheck::example {
namespace {

using nlohmann::json;

constexpr std::int64_t kLossyReplicasCap = 100;

bool isWidgetVersion(std::string_view version, int release) {
  return version == "v1alpha1" || version == "v1beta1" || version == "v1" ||
         (release >= 2 && version == "v2");
}

// Moves object[section][from] to object[section][to] if present.
void rename(json& object, const char* section, const char* from, const char* to) {
  auto part = object.find(section);
  if (part == object.end() || !part->is_object()) return;
  auto field = part->find(from);
  if (field == part->end()) return;
  json value = std::move(*field);
  part->erase(from);
  (*part)[to] = std::move(value);
}

// Fails when metadata or metadata.annotations is present but not a map.
std::string checkAnnotations(const json& object) {
  auto metadata = object.find("metadata");
  if (metadata == object.end() || metadata->is_null()) return {};
  if (!metadata->is_object()) return "metadata: must be an object, got " + metadata->dump();
  auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || annotations->is_null() || annotations->is_object())
    return {};
  return "metadata.annotations: must be an object, got " + annotations->dump();
}

// Removes the stash annotation, and metadata.annotations if that leaves it empty.
void eraseStash(json& object) {
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return;
  auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || !annotations->is_object()) return;
  if (annotations->erase(std::string(kWidgetStashAnnotation)) == 0) return;
  if (annotations->empty()) metadata->erase(annotations);
}

// v1 -> hub: moves the v1-only spec fields into the stash annotation. stale-stash also copies
// spec.replicas into a stash it creates (restoreV1Fields then lets it override spec.replicas).
std::string stashV1Fields(json& object, const FaultSet& faults) {
  if (auto error = checkAnnotations(object); !error.empty()) return error;
  json stash = json::object();
  auto spec = object.find("spec");
  if (spec != object.end() && spec->is_object()) {
    for (auto field : kWidgetV1OnlyFields) {
      auto it = spec->find(std::string(field));
      if (it == spec->end()) continue;
      stash[std::string(field)] = std::move(*it);
      spec->erase(it);
    }
  }
  if (stash.empty()) {
    eraseStash(object);  // a v1 object never carries a stash of its own
    return {};
  }
  // A non-empty stash came out of spec, so spec is a map here.
  if (faults.has(Fault::StashOverflow) && stash.contains("tags") && stash["tags"].is_array() &&
      stash["tags"].size() > 8)
    stash["tags"].erase(stash["tags"].begin() + 8, stash["tags"].end());
  if (faults.has(Fault::StaleStash) && spec->contains("replicas"))
    stash["replicas"] = (*spec)["replicas"];
  if (faults.has(Fault::LimitsEmptied) && stash.contains("limits"))
    stash["limits"] = json::object();
  object["metadata"]["annotations"][std::string(kWidgetStashAnnotation)] = stash.dump();
  return {};
}

// hub -> v1: moves the stashed fields back into spec and removes the annotation. A stashed field
// wins over the same field in spec (only stale-stash stashes one that older versions have).
std::string restoreV1Fields(json& object) {
  if (auto error = checkAnnotations(object); !error.empty()) return error;
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return {};
  auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || !annotations->is_object()) return {};
  auto stashed = annotations->find(std::string(kWidgetStashAnnotation));
  if (stashed == annotations->end()) return {};

  const std::string where = "metadata.annotations[\"" + std::string(kWidgetStashAnnotation) + "\"]";
  if (!stashed->is_string()) return where + ": must be a string, got " + stashed->dump();
  json stash = json::parse(stashed->get<std::string>(), nullptr, /*allow_exceptions=*/false);
  if (!stash.is_object())
    return where + ": must hold a JSON object of v1 spec fields, got " + stashed->dump();

  auto spec = object.find("spec");
  if (spec == object.end()) spec = object.emplace("spec", json::object()).first;
  if (!spec->is_object()) return "spec: must be an object, got " + spec->dump();
  for (auto& [field, value] : stash.items()) (*spec)[field] = std::move(value);
  eraseStash(object);
  return {};
}

// Whether the stash annotation of `object` holds `field` (crash-no-nickname reads it unchecked).
bool stashHolds(const json& object, const char* field) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return false;
  const auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || !annotations->is_object()) return false;
  const auto stashed = annotations->find(std::string(kWidgetStashAnnotation));
  if (stashed == annotations->end() || !stashed->is_string()) return false;
  const json stash = json::parse(stashed->get<std::string>(), nullptr, false);
  return stash.is_object() && stash.contains(field);
}

void applyReplicasFaults(json& object, const FaultSet& faults) {
  auto spec = object.find("spec");
  if (spec == object.end() || !spec->is_object()) return;
  auto replicas = spec->find("replicas");
  if (replicas == spec->end()) return;
  if (faults.has(Fault::DropField)) {
    spec->erase(replicas);
    return;
  }
  if (faults.has(Fault::LossyRoundTrip) && replicas->is_number_integer() &&
      replicas->get<std::int64_t>() > kLossyReplicasCap)
    *replicas = kLossyReplicasCap;
}

// truthy-copy: `if (value)` copies take a 0 for absent.
void dropZero(json& object, const char* section, const char* field) {
  auto part = object.find(section);
  if (part == object.end() || !part->is_object()) return;
  auto value = part->find(field);
  if (value != part->end() && value->is_number() && *value == 0) part->erase(value);
}

// legacy-version-loss, owned-annotation-loss and truthy-copy: what a conversion to v1alpha1
// loses.
void applyAlphaFaults(json& object, const FaultSet& faults) {
  if (faults.has(Fault::TruthyCopy)) {
    dropZero(object, "spec", "replicas");
    dropZero(object, "status", "readyReplicas");
  }
  if (faults.has(Fault::LegacyVersionLoss))
    if (auto spec = object.find("spec"); spec != object.end() && spec->is_object())
      spec->erase("size");
  if (faults.has(Fault::OwnedAnnotationLoss))
    if (auto status = object.find("status"); status != object.end() && status->is_object())
      status->erase("phase");
}

void renameFromAlpha(json& object) {
  rename(object, "spec", "color", "colour");
  rename(object, "spec", "count", "replicas");
  rename(object, "status", "readyCount", "readyReplicas");
}

void renameToAlpha(json& object) {
  rename(object, "spec", "colour", "color");
  rename(object, "spec", "replicas", "count");
  rename(object, "status", "readyReplicas", "readyCount");
}

void mapSizeOnDirectPath(json& object);

// Release 2's v2 keeps v1's spec.replicas as spec.scaling.replicas.
void scalingFromReplicas(json& object) {
  auto spec = object.find("spec");
  if (spec == object.end() || !spec->is_object() || !spec->contains("replicas")) return;
  json replicas = std::move((*spec)["replicas"]);
  spec->erase("replicas");
  (*spec)["scaling"] = json{{"replicas", std::move(replicas)}};
}

void replicasFromScaling(json& object) {
  auto spec = object.find("spec");
  if (spec == object.end() || !spec->is_object()) return;
  auto scaling = spec->find("scaling");
  if (scaling == spec->end()) return;
  json moved = std::move(*scaling);
  spec->erase("scaling");
  if (moved.is_object() && moved.contains("replicas")) (*spec)["replicas"] = moved["replicas"];
}

std::string toHub(json& object, std::string_view fromVersion, const FaultSet& faults) {
  if (fromVersion == "v2") replicasFromScaling(object);
  if (fromVersion == "v1alpha1") {
    renameFromAlpha(object);
  } else if (fromVersion == "v1" || fromVersion == "v2") {
    if (faults.has(Fault::ConvertsStoredDifferently)) mapSizeOnDirectPath(object);
    return stashV1Fields(object, faults);
  }
  return {};
}

std::string fromHub(json& object, std::string_view toVersion, const FaultSet& faults) {
  if (toVersion == "v1alpha1") {
    applyReplicasFaults(object, faults);
    applyAlphaFaults(object, faults);
    renameToAlpha(object);
  } else if (toVersion == "v1" || toVersion == "v2") {
    if (faults.has(Fault::CrashNoNickname) && toVersion == "v1" && !stashHolds(object, "nickname"))
      return "Cannot read properties of undefined (reading 'length')";
    if (auto error = restoreV1Fields(object); !error.empty()) return error;
    if (faults.has(Fault::ConvertsStoredDifferently)) mapSizeOnDirectPath(object);
    if (toVersion == "v2") scalingFromReplicas(object);
  }
  return {};
}

// skip-hub: the direct v1alpha1 <-> v1 path was written against its own size table, on which
// small and large trade places. The table is its own inverse, so each direct round trip is exact;
// only the path through the hub (which keeps sizes) disagrees with it.
void mapSizeOnDirectPath(json& object) {
  auto spec = object.find("spec");
  if (spec == object.end() || !spec->is_object()) return;
  auto size = spec->find("size");
  if (size == spec->end() || !size->is_string()) return;
  if (*size == "small") {
    *size = "large";
  } else if (*size == "large") {
    *size = "small";
  }
}

bool isDirectPair(std::string_view from, std::string_view to) {
  return (from == "v1alpha1" && to == "v1") || (from == "v1" && to == "v1alpha1");
}

// skip-hub: v1alpha1 <-> v1 without visiting v1beta1.
std::string convertDirectly(json& object, std::string_view toVersion, const FaultSet& faults) {
  if (toVersion == "v1") {
    renameFromAlpha(object);
    mapSizeOnDirectPath(object);
    return restoreV1Fields(object);
  }
  if (auto error = stashV1Fields(object, faults); !error.empty()) return error;
  applyReplicasFaults(object, faults);
  applyAlphaFaults(object, faults);
  renameToAlpha(object);
  mapSizeOnDirectPath(object);
  return {};
}

}  // namespace

ConversionOutcome convertWidget(const json& object, std::string_view fromVersion,
                                std::string_view toVersion, const FaultSet& faults, int release) {
  const bool dropsAlpha = release >= 2 && faults.has(Fault::DropsV1alpha1);
  for (auto version : {fromVersion, toVersion})
    if (!isWidgetVersion(version, release) || (dropsAlpha && version == "v1alpha1"))
      return ConversionOutcome::failure(
          "unexpected conversion version " + std::string(kWidgetGroup) + "/" +
          std::string(version) +
          (release >= 2 ? dropsAlpha ? " (Widget release 2 converts v1beta1, v1 and v2)"
                                     : " (Widget release 2 has v1alpha1, v1beta1, v1 and v2)"
                        : " (Widget has v1alpha1, v1beta1 and v1)"));

  json out = object;
  out["apiVersion"] = std::string(kWidgetGroup) + "/" + std::string(toVersion);
  if (fromVersion == toVersion) return ConversionOutcome::success(std::move(out));
  if (faults.has(Fault::CrashNoStatus) && toVersion == "v1alpha1" && !out.contains("status"))
    return ConversionOutcome::failure("Cannot read properties of undefined (reading 'phase')");
  if (faults.has(Fault::NeedsDefault)) {
    auto spec = out.find("spec");
    if (spec == out.end() || !spec->is_object() || !spec->contains("size"))
      return ConversionOutcome::failure(
          "panic: runtime error: invalid memory address or nil pointer dereference (spec.size "
          "is nil: the schema defaults it, so the API server never sends it without)");
  }

  auto spec = out.find("spec");
  if (spec != out.end() && !spec->is_object())
    return ConversionOutcome::failure("spec: must be an object, got " + spec->dump());
  auto status = out.find("status");
  if (status != out.end() && !status->is_object() && !status->is_null())
    return ConversionOutcome::failure("status: must be an object, got " + status->dump());

  if (faults.has(Fault::SkipHub) && isDirectPair(fromVersion, toVersion)) {
    if (auto error = convertDirectly(out, toVersion, faults); !error.empty())
      return ConversionOutcome::failure(std::move(error));
    return ConversionOutcome::success(std::move(out));
  }
  if (auto error = toHub(out, fromVersion, faults); !error.empty())
    return ConversionOutcome::failure(std::move(error));
  if (auto error = fromHub(out, toVersion, faults); !error.empty())
    return ConversionOutcome::failure(std::move(error));
  return ConversionOutcome::success(std::move(out));
}

}  // namespace convcheck::example
