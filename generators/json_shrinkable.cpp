#include "generators/json_shrinkable.h"

#include <memory>
#include <optional>

namespace convcheck {

using nlohmann::json;

namespace {

class ObjectImpl {
 public:
  ObjectImpl(std::vector<JsonMember> members, LocalValidity valid, bool lazy = false)
      : members_(std::make_shared<const std::vector<JsonMember>>(std::move(members))),
        valid_(std::move(valid)) {
    if (!lazy) value_ = build();
  }

  json value() const { return value_ ? *value_ : build(); }

  rc::Seq<rc::Shrinkable<json>> shrinks() const {
    auto members = members_;
    auto valid = valid_;
    const std::size_t n = members->size();
    // 1. Drop one removable member (optional fields go first, so minimal objects come quickly).
    auto drops =
        rc::seq::mapMaybe(rc::seq::range<std::size_t>(0, n),
                          [members, valid](std::size_t i) -> rc::Maybe<rc::Shrinkable<json>> {
                            if (!(*members)[i].removable) return rc::Nothing;
                            std::vector<JsonMember> next;
                            next.reserve(members->size() - 1);
                            for (std::size_t j = 0; j < members->size(); ++j)
                              if (j != i) next.push_back((*members)[j]);
                            return candidate(std::move(next), valid);
                          });
    // 2. Shrink one member's value.
    auto inner =
        rc::seq::mapcat(rc::seq::range<std::size_t>(0, n), [members, valid](std::size_t i) {
          return rc::seq::mapMaybe(
              (*members)[i].value.shrinks(),
              [members, valid, i](rc::Shrinkable<json>&& s) -> rc::Maybe<rc::Shrinkable<json>> {
                std::vector<JsonMember> next = *members;
                next[i].value = std::move(s);
                return candidate(std::move(next), valid);
              });
        });
    return rc::seq::concat(std::move(drops), std::move(inner));
  }

  static rc::Maybe<rc::Shrinkable<json>> candidate(std::vector<JsonMember> members,
                                                   const LocalValidity& valid) {
    auto s = rc::makeShrinkable<ObjectImpl>(std::move(members), valid);
    if (valid && !valid(s.value())) return rc::Nothing;
    return s;
  }

 private:
  std::shared_ptr<const std::vector<JsonMember>> members_;
  LocalValidity valid_;
  std::optional<json> value_;  // absent when lazy: rebuilt from the members on each value()

  json build() const {
    json v = json::object();
    for (const auto& m : *members_) v[m.key] = m.value.value();
    return v;
  }
};

using Items = std::vector<rc::Shrinkable<json>>;

class ArrayImpl {
 public:
  ArrayImpl(Items items, std::size_t minItems, LocalValidity valid, bool lazy = false)
      : items_(std::make_shared<const Items>(std::move(items))),
        minItems_(minItems),
        valid_(std::move(valid)) {
    if (!lazy) value_ = build();
  }

  json value() const { return value_ ? *value_ : build(); }

  rc::Seq<rc::Shrinkable<json>> shrinks() const {
    auto items = items_;
    auto valid = valid_;
    const std::size_t minItems = minItems_;
    auto make = [valid, minItems](Items next) -> rc::Maybe<rc::Shrinkable<json>> {
      if (next.size() < minItems) return rc::Nothing;
      auto s = rc::makeShrinkable<ArrayImpl>(std::move(next), minItems, valid);
      if (valid && !valid(s.value())) return rc::Nothing;
      return s;
    };
    // First straight to the shortest allowed prefix, then rapidcheck's chunk removal.
    rc::Seq<Items> removals = rc::shrink::removeChunks(*items);
    if (items->size() > minItems && minItems > 0)
      removals = rc::seq::concat(rc::seq::just(Items(items->begin(), items->begin() + minItems)),
                                 std::move(removals));
    auto drops = rc::seq::mapMaybe(std::move(removals), make);
    auto inner = rc::seq::mapMaybe(
        rc::shrink::eachElement(*items, [](const rc::Shrinkable<json>& s) { return s.shrinks(); }),
        make);
    return rc::seq::concat(std::move(drops), std::move(inner));
  }

 private:
  std::shared_ptr<const Items> items_;
  std::size_t minItems_;
  LocalValidity valid_;
  std::optional<json> value_;  // absent when lazy: rebuilt from the items on each value()

  json build() const {
    json v = json::array();
    for (const auto& i : *items_) v.push_back(i.value());
    return v;
  }
};

}  // namespace

rc::Shrinkable<json> objectShrinkable(std::vector<JsonMember> members, LocalValidity valid) {
  return rc::makeShrinkable<ObjectImpl>(std::move(members), std::move(valid));
}

rc::Shrinkable<json> arrayShrinkable(Items items, std::size_t minItems, LocalValidity valid) {
  return rc::makeShrinkable<ArrayImpl>(std::move(items), minItems, std::move(valid));
}

rc::Shrinkable<json> lazyObjectShrinkable(std::vector<JsonMember> members, LocalValidity valid) {
  return rc::makeShrinkable<ObjectImpl>(std::move(members), std::move(valid), true);
}

rc::Shrinkable<json> lazyArrayShrinkable(Items items, std::size_t minItems, LocalValidity valid) {
  return rc::makeShrinkable<ArrayImpl>(std::move(items), minItems, std::move(valid), true);
}

rc::Shrinkable<json> filterShrinks(rc::Shrinkable<json> s, LocalValidity valid) {
  if (!valid) return s;
  return rc::shrinkable::mapShrinks(std::move(s), [valid](rc::Seq<rc::Shrinkable<json>>&& shrinks) {
    return rc::seq::map(
        rc::seq::filter(std::move(shrinks),
                        [valid](const rc::Shrinkable<json>& c) { return valid(c.value()); }),
        [valid](rc::Shrinkable<json>&& c) { return filterShrinks(std::move(c), valid); });
  });
}

}  // namespace convcheck
