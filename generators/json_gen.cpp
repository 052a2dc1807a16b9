#include "generators/json_gen.h"

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

rc::Gen<json> arbitraryJson(int maxDepth, bool allowNull) {
  return rc::Gen<json>([maxDepth, allowNull](const rc::Random& random,
                                             int size) -> rc::Shrinkable<json> {
    rc::Random r = random;
    rc::Random choice = r.split();
    const auto c = choice.next() % 100;
    const bool containers = maxDepth > 0;
    if (c < 25)
      return rc::shrinkable::map(plainStrings(0, 40)(r.split(), size),
                                 [](std::string s) { return json(s); });
    if (c < 40) return integerValues({}, IntegerWidth::Int64)(r.split(), size);
    if (c < 50) return numberValues({}, false)(r.split(), size);
    if (c < 60) return rc::shrinkable::just(json(choice.next() % 2 == 0));
    if (c < 65 && allowNull) return rc::shrinkable::just(json(nullptr));
    if (c < 82 && containers) {
      std::vector<JsonMember> members;
      const auto n = choice.next() % 4;
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::string key = unknownFieldNames()(r.split(), size).value() + std::to_string(i);
        members.push_back({key, arbitraryJson(maxDepth - 1, true)(r.split(), size / 2), true});
      }
      return objectShrinkable(std::move(members), nullptr);
    }
    if (containers) {
      std::vector<rc::Shrinkable<json>> items;
      const auto n = choice.next() % 4;
      for (std::uint64_t i = 0; i < n; ++i)
        items.push_back(arbitraryJson(maxDepth - 1, true)(r.split(), size / 2));
      return arrayShrinkable(std::move(items), 0, nullptr);
    }
    return rc::shrinkable::just(json("opaque"));
  });
}

}  // namespace convcheck
