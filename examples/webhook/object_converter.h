// Converting one object of any kind the example webhook serves (CronTab, Widget) to the desired
// apiVersion, faults included. Used by the review handler and by the converter tests.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "examples/webhook/conversion_outcome.h"
#include "examples/webhook/faults.h"

namespace convcheck::example {

// Which kinds the webhook converts: the example CRDs' (CronTab, Widget) with their real
// conversions, as the first release of the examples or the second (--release 2: Widget's v2
// too); or any kind of any CRD by rewriting apiVersion only (--identity: the correct webhook of
// a CRD whose versions share one schema, for benchmarks on the corpus CRDs).
enum class KindMode { examples, release2, identity };

// Dispatches on the object's group and kind. Fails for objects without a string apiVersion and
// kind, for an object already in the desired version (as the agnhost webhook does: "conversion
// from a version to itself should not call the webhook"), for a group other than the desired
// one, and for kinds it does not know. `batchIndex` is the object's position in the review;
// only the batch-position fault looks at it. In KindMode::identity every kind is converted by
// setting apiVersion to the desired one (the other checks stay), faults still applied.
ConversionOutcome convertObject(const nlohmann::json& object, std::string_view desiredApiVersion,
                                const FaultSet& faults, std::size_t batchIndex = 0,
                                KindMode kinds = KindMode::examples);

}  // namespace convcheck::example
