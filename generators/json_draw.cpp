#include "generators/json_draw.h"

#include <rapidcheck/detail/FrequencyMap.h>

namespace convcheck {

using nlohmann::json;

namespace {

// The drawn value served once more, with the tree's shrinks.
class DrawnImpl {
 public:
  DrawnImpl(json value, rc::Shrinkable<json> tree)
      : value_(std::move(value)), tree_(std::move(tree)) {}
  json value() const { return value_; }
  rc::Seq<rc::Shrinkable<json>> shrinks() const { return tree_.shrinks(); }

 private:
  json value_;
  rc::Shrinkable<json> tree_;
};

}  // namespace

JsonDraw JsonDraw::failed(std::exception_ptr e) {
  return JsonDraw{json(), e, rc::shrinkable::lambda([e]() -> json { std::rethrow_exception(e); })};
}

void JsonDraw::check() const {
  if (error) std::rethrow_exception(error);
}

JsonDrawGen::JsonDrawGen(Fn fn) : fn_(std::make_shared<const Fn>(std::move(fn))) {}

JsonDraw JsonDrawGen::operator()(const rc::Random& random, int size,
                                 const DrawOptions& draw) const noexcept {
  try {
    return (*fn_)(random, size, draw);
  } catch (...) {
    return JsonDraw::failed(std::current_exception());
  }
}

JsonDrawGen drawOf(rc::Gen<json> gen) {
  return JsonDrawGen([gen](const rc::Random& random, int size, const DrawOptions& draw) {
    auto s = gen(random, size);
    try {
      json v = s.value();
      if (!draw.trees) return JsonDraw{std::move(v), nullptr, std::nullopt};
      return JsonDraw{std::move(v), nullptr, std::move(s)};
    } catch (...) {
      return JsonDraw{json(), std::current_exception(), std::move(s)};
    }
  });
}

rc::Gen<json> genOf(JsonDrawGen gen) {
  return rc::Gen<json>([gen](const rc::Random& random, int size) {
    JsonDraw d = gen(random, size);
    if (d.error) return std::move(*d.tree);
    return rc::makeShrinkable<DrawnImpl>(std::move(d.value), std::move(*d.tree));
  });
}

JsonDrawGen pickDraw(std::vector<JsonDrawGen> gens) {
  if (gens.size() == 1) return gens.front();
  return JsonDrawGen([gens](const rc::Random& random, int size, const DrawOptions& draw) {
    rc::Random r = random;
    rc::Random pick = r.split();
    return gens[pick.next() % gens.size()](r, size, draw);
  });
}

JsonDrawGen weightedDraw(std::vector<std::pair<std::size_t, JsonDrawGen>> gens) {
  std::vector<std::size_t> weights;
  std::vector<JsonDrawGen> choices;
  for (auto& [w, g] : gens) {
    weights.push_back(w);
    choices.push_back(std::move(g));
  }
  auto map = std::make_shared<const rc::detail::FrequencyMap>(weights);
  return JsonDrawGen([map, choices](const rc::Random& random, int size, const DrawOptions& draw) {
    // As rc::gen::join(rc::gen::weightedElement(...)): the choice from the first half of a
    // split, the value from the second.
    rc::Random r1 = random;
    const rc::Random r2 = r1.split();
    if (map->sum() == 0) throw rc::GenerationFailure("Sum of weights is 0");
    const std::size_t i = map->lookup(rc::Random(r1).next() % map->sum());
    return choices[i](r2, size, draw);
  });
}

JsonDrawGen bindMode(JsonDrawGen gen, unsigned mode) {
  return JsonDrawGen([gen, mode](const rc::Random& random, int size, const DrawOptions& draw) {
    return gen(random, size, DrawOptions{draw.trees, mode});
  });
}

JsonDrawGen mapDraw(JsonDrawGen gen, std::function<json(json)> f) {
  return JsonDrawGen([gen, f](const rc::Random& random, int size, const DrawOptions& draw) {
    JsonDraw d = gen(random, size, draw);
    if (d.error) return d;
    d.value = f(std::move(d.value));
    if (d.tree) d.tree = rc::shrinkable::map(std::move(*d.tree), f);
    return d;
  });
}

JsonDrawGen justDraw(json value) {
  return JsonDrawGen([value](const rc::Random&, int, const DrawOptions& draw) {
    if (!draw.trees) return JsonDraw{value, nullptr, std::nullopt};
    return JsonDraw{value, nullptr, rc::shrinkable::just(value)};
  });
}

}  // namespace convcheck
