// The faults that change a converted object the same way whatever its kind (name, kind,
// apiVersion, labels, finalizers, random or positional annotations, an unknown spec field).
// Used by the example webhook's object converter.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "examples/webhook/faults.h"

namespace convcheck::example {

inline constexpr std::string_view kConvertedAtAnnotation = "example.convcheck.dev/converted-at";
inline constexpr std::string_view kBatchIndexAnnotation = "example.convcheck.dev/batch-index";
inline constexpr std::string_view kFaultLabelKey = "example.convcheck.dev/converted";
inline constexpr std::string_view kFaultLabelValue = "not a valid label value!";
inline constexpr std::string_view kFaultFinalizer = "example.convcheck.dev/converted";
inline constexpr std::string_view kChangedNameSuffix = "-converted";
inline constexpr std::string_view kChangedKindSuffix = "Converted";
// unknown-field writes spec.convertedBy = "example-webhook"; no version's schema has it.
inline constexpr std::string_view kUnknownSpecField = "convertedBy";
inline constexpr std::string_view kUnknownSpecFieldValue = "example-webhook";
// owned-annotation-loss stamps this annotation (a deterministic value, as real webhooks do).
inline constexpr std::string_view kConvertedByAnnotation = "example.convcheck.dev/converted-by";
inline constexpr std::string_view kConvertedByValue = "example-webhook";

// Where a conversion happens, for the faults that depend on it.
struct ObjectFaultContext {
  std::size_t batchIndex = 0;          // the object's position in request.objects
  bool crossesStorageVersion = false;  // the source or the target is the kind's storage version
};

// Applies change-name, change-kind, wrong-api-version, invalid-label, mutate-finalizers,
// nondeterministic, batch-position and unknown-field to `converted`, the conversion of
// `original`. nondeterministic toggles the converted-at annotation: added (fresh random value)
// when absent, removed when present, so a round trip A->B->A gives A back while the same request
// never gives the same answer twice. batch-position toggles the batch-index annotation (value:
// the batch index) the same way, but only when the conversion crosses the storage version: a
// round trip crosses it twice or never, and so does A->B->C exactly when A->C does.
void applyObjectFaults(const nlohmann::json& original, nlohmann::json& converted,
                       const FaultSet& faults, const ObjectFaultContext& context);

}  // namespace convcheck::example
