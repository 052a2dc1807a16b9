// A drawn JSON value together with its shrink tree: the schema fold moves each value up into its
// parent once, and the tree (which rebuilds values only when walked) serves shrinking. Used by
// schema_gen and object_gen; everything else sees rc::Gen<json> through genOf.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

namespace convcheck {

struct JsonDraw {
  nlohmann::json value;      // meaningful only when `error` is null
  std::exception_ptr error;  // generation failed; `tree` rethrows it on value()
  // Absent when drawn without trees (only the values are wanted), except for a failed draw,
  // which always carries its rethrowing tree.
  std::optional<rc::Shrinkable<nlohmann::json>> tree;

  // A failed draw whose tree rethrows `e` and has no shrinks (what rc::Gen makes of a throw).
  static JsonDraw failed(std::exception_ptr e);
  // Rethrows `error` when set.
  void check() const;
};

// How to draw, passed down unchanged through every JsonDrawGen of a composed generator.
struct DrawOptions {
  // false: the draws carry values only (the same values; failed draws keep their tree).
  bool trees = true;
  // The caller's choice of what to generate, for generators compiled to serve several (schema_gen
  // keeps the field coverage and the unknown-fields choice there; see bindMode).
  unsigned mode = 0;
};

// A generator of JsonDraws. Like rc::Gen, a call never throws: an exception becomes a failed draw.
class JsonDrawGen {
 public:
  using Fn = std::function<JsonDraw(const rc::Random&, int size, const DrawOptions& draw)>;
  explicit JsonDrawGen(Fn fn);
  JsonDraw operator()(const rc::Random& random, int size,
                      const DrawOptions& draw = {}) const noexcept;

 private:
  std::shared_ptr<const Fn> fn_;
};

// The draws of an rc::Gen: its Shrinkable is the tree, its value() the value.
JsonDrawGen drawOf(rc::Gen<nlohmann::json> gen);

// The rc::Gen of a JsonDrawGen: Shrinkables whose value() is the drawn value and whose shrinks
// are the tree's.
rc::Gen<nlohmann::json> genOf(JsonDrawGen gen);

// One of `gens`, picked by the first half of a split (the draw uses the second); a single
// generator is returned as it is.
JsonDrawGen pickDraw(std::vector<JsonDrawGen> gens);

// rc::gen::weightedOneOf over draws: the same random choice, value and shrinks.
JsonDrawGen weightedDraw(std::vector<std::pair<std::size_t, JsonDrawGen>> gens);

// rc::gen::just over draws: always `value`, no shrinks.
JsonDrawGen justDraw(nlohmann::json value);

// rc::gen::map over draws: `f` of the value, and of every value in the tree.
JsonDrawGen mapDraw(JsonDrawGen gen, std::function<nlohmann::json(nlohmann::json)> f);

// `gen` drawn with DrawOptions::mode set to `mode`, whatever the caller passes.
JsonDrawGen bindMode(JsonDrawGen gen, unsigned mode);

}  // namespace convcheck
