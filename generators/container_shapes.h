// How many members generated lists and maps get, and which list items share a key field: mostly
// a handful, sometimes as many as real controllers keep (dozens of conditions or ports, lists at
// their maxItems, maps of many keys), and items of a list that repeat their `type` or `name` where
// the schema lets them. Used by schema_gen and json_gen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/schema_model.h"

namespace convcheck {

enum class FieldCoverage;

// Sizes shrink with depth, so deep optional structure thins out and objects stay finite.
inline int childSize(int size) { return size * 9 / 10; }
inline int elementSize(int size) { return size * 7 / 10; }

// In the long-shapes mode and from this RapidCheck size on, one list (or map) in kLongOneIn is
// long; the members of a long one are drawn at kLongMemberSize at most, below kLongFromSize, so
// long containers never nest.
inline constexpr int kLongFromSize = 20;
inline constexpr std::uint64_t kLongOneIn = 6;
inline constexpr int kLongMemberSize = 19;
// A long list without maxItems gets up to this many items (and a long map as many keys); a
// maxItems up to kLongestList is reached exactly half the times a list is long.
inline constexpr std::size_t kLongUnbounded = 48;
inline constexpr std::size_t kLongestList = 128;

struct ContainerSize {
  std::size_t members = 0;
  int memberSize = 0;  // the RapidCheck size members are drawn at
};

// The items of a list of [minItems, maxItems] drawn at `size` and `coverage` (minItems for
// Minimal), long ones only with `longShapes`, taking the decisions from `dec`.
ContainerSize listLength(rc::Random& dec, FieldCoverage coverage, bool longShapes, int size,
                         std::size_t minItems, std::optional<std::uint64_t> maxItems);

// The extra keys of a map (beyond its minProperties) drawn at `size` and `coverage`, many only
// with `longShapes`; the caller trims to maxProperties.
ContainerSize mapEntries(rc::Random& dec, FieldCoverage coverage, bool longShapes, int size);

// The item fields of `list` that items may share: `type` and `name`, and each field of a
// composite x-kubernetes-list-map-keys, unless the field alone keys the list.
std::vector<std::string> repeatableKeyFields(const SchemaNode& list);

// With one chance in kRepeatOneIn (for a list of two or more objects and some `fields`), a few
// items take the value of one field from another item: conditions that share a `type`, ports
// that share a `name`. A change is kept only when the item stays `itemValid` and the list
// `listValid`; `trees` (one per item, or null when drawn without trees) follow the values.
inline constexpr std::uint64_t kRepeatOneIn = 3;
void repeatKeyFields(rc::Random& dec, const std::vector<std::string>& fields, nlohmann::json& items,
                     std::vector<rc::Shrinkable<nlohmann::json>>* trees,
                     const std::function<bool(const nlohmann::json&)>& itemValid,
                     const std::function<bool(const nlohmann::json&)>& listValid);

// A tree whose values are `tree`'s with member `key` set to `value` where present, without
// shrinks that change nothing; `valid` filters the shrinks.
rc::Shrinkable<nlohmann::json> pinnedMember(rc::Shrinkable<nlohmann::json> tree, std::string key,
                                            nlohmann::json value,
                                            std::function<bool(const nlohmann::json&)> valid);

}  // namespace convcheck
