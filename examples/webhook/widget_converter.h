// Conversion of the Widget kind (example.convcheck.dev): hub-and-spoke through the storage
// version v1beta1, stashing v1-only fields in an annotation. Used by the object converter, tests.
#pragma once

#include <array>
#include <string_view>

#include <nlohmann/json.hpp>

#include "examples/webhook/conversion_outcome.h"
#include "examples/webhook/faults.h"

namespace convcheck::example {

inline constexpr std::string_view kWidgetGroup = "example.convcheck.dev";
inline constexpr std::string_view kWidgetKind = "Widget";
inline constexpr std::string_view kWidgetHubVersion = "v1beta1";
// Holds, as a JSON object, the spec fields only v1 has while the object is in another version.
inline constexpr std::string_view kWidgetStashAnnotation =
    "widgets.example.convcheck.dev/v1-fields";
// The spec fields of v1 that v1alpha1 and v1beta1 lack.
inline constexpr std::array<std::string_view, 3> kWidgetV1OnlyFields = {"nickname", "tags",
                                                                        "limits"};

// Converts a Widget from `fromVersion` to `toVersion` (v1alpha1, v1beta1 or v1; and v2 in the
// second `release`, whose spec.scaling.replicas is v1's spec.replicas, converted through v1):
// first to the hub v1beta1, then from the hub to the target. v1alpha1 names
// spec.colour/spec.replicas spec.color/spec.count and status.readyReplicas status.readyCount. v1 ->
// hub moves spec.{nickname,tags,limits} into the stash annotation (only if one is present); hub ->
// v1 moves them back and removes the annotation (and metadata.annotations if it becomes empty).
// Faults: drop-field and lossy-round-trip (replicas going to v1alpha1), stale-stash (replicas
// also stashed, and restored over the older version's value), skip-hub (v1alpha1 <-> v1 directly,
// with small and large swapped); in release 2, converts-stored-differently (small and large
// swapped between v1beta1 and v1, both ways) and drops-v1alpha1 (no conversion from or to it).
ConversionOutcome convertWidget(const nlohmann::json& object, std::string_view fromVersion,
                                std::string_view toVersion, const FaultSet& faults,
                                int release = 1);

}  // namespace convcheck::example
