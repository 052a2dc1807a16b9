#include "generators/container_shapes.h"

#include <algorithm>

#include "generators/schema_gen.h"

namespace convcheck {

using nlohmann::json;

namespace {

// The members of a long container: up to `cap`, at least 6 (more than a handful) when allowed.
std::size_t longCount(rc::Random& dec, std::size_t cap) {
  if (cap <= 6) return cap;
  return 6 + static_cast<std::size_t>(dec.next() % (cap - 5));
}

bool longOne(rc::Random& dec, FieldCoverage coverage, bool longShapes, int size) {
  return longShapes && coverage != FieldCoverage::Minimal && size >= kLongFromSize &&
         dec.next() % kLongOneIn == 0;
}

class PinnedImpl {
 public:
  PinnedImpl(rc::Shrinkable<json> tree, std::string key, json pinned,
             std::function<bool(const json&)> valid)
      : tree_(std::move(tree)),
        key_(std::move(key)),
        pinned_(std::move(pinned)),
        valid_(std::move(valid)) {}

  json value() const {
    json v = tree_.value();
    if (v.is_object() && v.contains(key_)) v[key_] = pinned_;
    return v;
  }

  rc::Seq<rc::Shrinkable<json>> shrinks() const {
    const json mine = value();
    auto key = key_;
    auto pinned = pinned_;
    auto valid = valid_;
    return rc::seq::mapMaybe(
        tree_.shrinks(),
        [mine, key, pinned, valid](rc::Shrinkable<json>&& s) -> rc::Maybe<rc::Shrinkable<json>> {
          auto p = rc::makeShrinkable<PinnedImpl>(std::move(s), key, pinned, valid);
          const json v = p.value();
          if (v == mine || (valid && !valid(v))) return rc::Nothing;
          return p;
        });
  }

 private:
  rc::Shrinkable<json> tree_;
  std::string key_;
  json pinned_;
  std::function<bool(const json&)> valid_;
};

}  // namespace

ContainerSize listLength(rc::Random& dec, FieldCoverage coverage, bool longShapes, int size,
                         std::size_t minItems, std::optional<std::uint64_t> maxItems) {
  ContainerSize out{minItems, elementSize(size)};
  if (longOne(dec, coverage, longShapes, size)) {
    const std::size_t cap =
        maxItems ? std::min<std::uint64_t>(*maxItems, kLongestList) : kLongUnbounded;
    out.members = maxItems && *maxItems <= kLongestList && dec.next() % 2 == 0
                      ? static_cast<std::size_t>(*maxItems)
                      : std::max(minItems, longCount(dec, cap));
    out.memberSize = std::min(out.memberSize, kLongMemberSize);
  } else if (coverage != FieldCoverage::Minimal) {
    const std::size_t extra =
        static_cast<std::size_t>(size) / 20 + (coverage == FieldCoverage::Full ? 1 : 0);
    out.members += dec.next() % (extra + 1);
  }
  if (maxItems && out.members > *maxItems) out.members = static_cast<std::size_t>(*maxItems);
  return out;
}

ContainerSize mapEntries(rc::Random& dec, FieldCoverage coverage, bool longShapes, int size) {
  ContainerSize out{0, elementSize(size)};
  if (coverage == FieldCoverage::Minimal) return out;
  if (longOne(dec, coverage, longShapes, size)) {
    out.members = longCount(dec, kLongUnbounded);
    out.memberSize = std::min(out.memberSize, kLongMemberSize);
  } else {
    out.members = dec.next() % (1 + static_cast<std::size_t>(size) / 25);
  }
  return out;
}

std::vector<std::string> repeatableKeyFields(const SchemaNode& list) {
  std::vector<std::string> out;
  if (!list.items || list.items->type != SchemaType::Object) return out;
  auto add = [&](const std::string& field) {
    if (!list.items->property(field) || std::find(out.begin(), out.end(), field) != out.end())
      return;
    if (list.listType == "map" && list.listMapKeys == std::vector<std::string>{field}) return;
    out.push_back(field);
  };
  add("type");
  add("name");
  if (list.listType == "map" && list.listMapKeys.size() > 1)
    for (const auto& k : list.listMapKeys) add(k);
  return out;
}

void repeatKeyFields(rc::Random& dec, const std::vector<std::string>& fields, json& items,
                     std::vector<rc::Shrinkable<json>>* trees,
                     const std::function<bool(const json&)>& itemValid,
                     const std::function<bool(const json&)>& listValid) {
  if (fields.empty() || items.size() < 2 || dec.next() % kRepeatOneIn != 0) return;
  const std::string& field = fields[dec.next() % fields.size()];
  std::vector<std::size_t> with;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].is_object() && items[i].contains(field)) with.push_back(i);
  if (with.size() < 2) return;
  const json shared = items[with[dec.next() % with.size()]][field];
  const std::size_t copies = 1 + dec.next() % std::min<std::size_t>(3, with.size() - 1);
  for (std::size_t c = 0; c < copies; ++c) {
    const std::size_t i = with[dec.next() % with.size()];
    if (items[i][field] == shared) continue;
    json item = items[i];
    item[field] = shared;
    if (!itemValid(item)) continue;
    json list = items;
    list[i] = item;
    if (!listValid(list)) continue;
    items[i] = std::move(item);
    if (trees) (*trees)[i] = pinnedMember(std::move((*trees)[i]), field, shared, itemValid);
  }
}

rc::Shrinkable<json> pinnedMember(rc::Shrinkable<json> tree, std::string key, json value,
                                  std::function<bool(const json&)> valid) {
  return rc::makeShrinkable<PinnedImpl>(std::move(tree), std::move(key), std::move(value),
                                        std::move(valid));
}

}  // namespace convcheck
