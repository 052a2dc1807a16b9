// Composite Shrinkables for JSON objects and arrays: the value is built once from its children;
// shrinks drop removable members first, then shrink each member, and keep only candidates that
// pass the caller's local validity predicate. Used by schema_gen and metadata_gen.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

namespace convcheck {

// Returns true when a shrink candidate still satisfies the constraints of its own node.
using LocalValidity = std::function<bool(const nlohmann::json&)>;

struct JsonMember {
  std::string key;
  rc::Shrinkable<nlohmann::json> value;
  bool removable = false;  // optional field, map entry or unknown field
};

rc::Shrinkable<nlohmann::json> objectShrinkable(std::vector<JsonMember> members,
                                                LocalValidity valid);

// Arrays shrink by dropping items (never below `minItems`), then by shrinking items.
rc::Shrinkable<nlohmann::json> arrayShrinkable(std::vector<rc::Shrinkable<nlohmann::json>> items,
                                               std::size_t minItems, LocalValidity valid);

// The same Shrinkables, but the value is built from the children only when value() is called (and
// again on each call): for trees whose value the caller already holds (see json_draw.h).
rc::Shrinkable<nlohmann::json> lazyObjectShrinkable(std::vector<JsonMember> members,
                                                    LocalValidity valid);
rc::Shrinkable<nlohmann::json> lazyArrayShrinkable(
    std::vector<rc::Shrinkable<nlohmann::json>> items, std::size_t minItems, LocalValidity valid);

// A Shrinkable with this value whose shrinks are `s`'s shrinks that satisfy `valid`, recursively.
rc::Shrinkable<nlohmann::json> filterShrinks(rc::Shrinkable<nlohmann::json> s, LocalValidity valid);

}  // namespace convcheck
