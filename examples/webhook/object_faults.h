// The faults that change a converted object the same way whatever its kind (name, kind,
// apiVersion, labels, finalizers, a random annotation). Used by the example webhook's object
// converter.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "examples/webhook/faults.h"

namespace convcheck::example {

inline constexpr std::string_view kConvertedAtAnnotation = "example.convcheck.dev/converted-at";
inline constexpr std::string_view kFaultLabelKey = "example.convcheck.dev/converted";
inline constexpr std::string_view kFaultLabelValue = "not a valid label value!";
inline constexpr std::string_view kFaultFinalizer = "example.convcheck.dev/converted";
inline constexpr std::string_view kChangedNameSuffix = "-converted";
inline constexpr std::string_view kChangedKindSuffix = "Converted";

// Applies change-name, change-kind, wrong-api-version, invalid-label, mutate-finalizers and
// nondeterministic to `converted`, the conversion of `original`. nondeterministic toggles the
// converted-at annotation: added (fresh random value) when absent, removed when present, so a
// round trip A->B->A gives A back while the same request never gives the same answer twice.
void applyObjectFaults(const nlohmann::json& original, nlohmann::json& converted,
                       const FaultSet& faults);

}  // namespace convcheck::example
