#include "generators/json_gen.h"

#include <algorithm>

#include "generators/container_shapes.h"
#include "generators/json_shrinkable.h"
#include "generators/number_gen.h"
#include "generators/string_gen.h"
#include "kube/go/utf8.h"

namespace convcheck {

using nlohmann::json;

rc::Gen<std::string> unknownFieldNames() {
  return rc::Gen<std::string>([](const rc::Random& random, int) {
    rc::Random r = random;
    static constexpr const char* kWords[] = {"extra",  "legacy", "vendor",          "future",
                                             "note",   "debug",  "annotationsCopy", "spec2",
                                             "opaque", "custom"};
    std::string w = kWords[r.next() % (sizeof(kWords) / sizeof(*kWords))];
    switch (r.next() % 6) {
      case 0:
        return rc::shrinkable::just("x-" + w);
      case 1:
        return rc::shrinkable::just(w + "." + std::to_string(r.next() % 10));
      case 2:
        return rc::shrinkable::just(w + encodeRune(0x00E9));
      default:
        return rc::shrinkable::just(w + std::to_string(r.next() % 100));
    }
  });
}

namespace {

// The members of a free-form container: up to 3, or (`wide` allowed, from kLongFromSize on, one
// in kLongOneIn) 4 to 24; at least one on a deep value's path.
std::uint64_t freeMembers(rc::Random& choice, int size, bool wide, bool onDeepPath) {
  std::uint64_t n = wide && size >= kLongFromSize && choice.next() % kLongOneIn == 0
                        ? 4 + choice.next() % 21
                        : choice.next() % 4;
  return onDeepPath ? std::max<std::uint64_t>(n, 1) : n;
}

// A free-form value with at most `depth` containers nested; on a deep value's path (`deepPath`)
// a container whose first member is again on the path, down to `depth`.
rc::Shrinkable<json> freeValue(const rc::Random& random, int size, int depth, bool allowNull,
                               bool wide, bool deepPath) {
  rc::Random r = random;
  rc::Random choice = r.split();
  const bool containers = depth > 0;
  const auto c = deepPath && containers ? 65 + choice.next() % 35 : choice.next() % 100;
  if (c < 25)
    return rc::shrinkable::map(plainStrings(0, 40)(r.split(), size),
                               [](std::string s) { return json(s); });
  if (c < 40) return integerValues({}, IntegerWidth::Int64)(r.split(), size);
  if (c < 50) return numberValues({}, false)(r.split(), size);
  if (c < 60) return rc::shrinkable::just(json(choice.next() % 2 == 0));
  if (c < 65 && allowNull) return rc::shrinkable::just(json(nullptr));
  if (c < 82 && containers) {
    std::vector<JsonMember> members;
    const auto n = freeMembers(choice, size, wide, deepPath);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::string key = unknownFieldNames()(r.split(), size).value() + std::to_string(i);
      members.push_back(
          {key, freeValue(r.split(), size / 2, depth - 1, true, wide, deepPath && i == 0), true});
    }
    return objectShrinkable(std::move(members), nullptr);
  }
  if (containers) {
    std::vector<rc::Shrinkable<json>> items;
    const auto n = freeMembers(choice, size, wide, deepPath);
    for (std::uint64_t i = 0; i < n; ++i)
      items.push_back(freeValue(r.split(), size / 2, depth - 1, true, wide, deepPath && i == 0));
    return arrayShrinkable(std::move(items), 0, nullptr);
  }
  return rc::shrinkable::just(json("opaque"));
}

}  // namespace

rc::Gen<json> arbitraryJson(int maxDepth, bool allowNull, bool longShapes) {
  return rc::Gen<json>([maxDepth, allowNull, longShapes](const rc::Random& random, int size) {
    rc::Random r = random;
    rc::Random pick = r.split();
    if (longShapes && maxDepth > 0 && size >= kLongFromSize && pick.next() % 4 == 0)
      return freeValue(r, size, maxDepth + 2 + static_cast<int>(pick.next() % 4), allowNull, true,
                       true);
    return freeValue(r, size, maxDepth, allowNull, longShapes, false);
  });
}

}  // namespace convcheck
