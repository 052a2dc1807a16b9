// Shrinking stays inside the schema: walking the shrink trees of generated objects (zoo CRDs and
// synthetic schemas) only ever meets valid objects, and greedy shrinking reaches small objects
// that keep their required fields.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <deque>
#include <map>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "tests/generators/gen_fixtures.h"
#include "tests/generators/zoo.h"

namespace convcheck {
namespace {

using nlohmann::json;

struct Target {
  Crd crd;
  std::string version;
};

// Visits up to `budget` nodes of the shrink tree breadth-first, then follows the first shrink
// greedily to the bottom; returns the greedy minimum. Every visited value must be valid.
json walk(const rc::Shrinkable<json>& root, const ValidityChecker& checker, std::size_t budget) {
  std::deque<rc::Shrinkable<json>> queue{root};
  std::size_t visited = 0;
  while (!queue.empty() && visited < budget) {
    auto s = queue.front();
    queue.pop_front();
    const json v = s.value();
    ++visited;
    const auto problems = checker.check(v);
    RC_ASSERT(problems.empty());
    auto shrinks = s.shrinks();
    for (std::size_t i = 0; i < 8; ++i) {
      auto next = shrinks.next();
      if (!next) break;
      queue.push_back(*next);
    }
  }
  rc::Shrinkable<json> cur = root;
  for (int steps = 0; steps < 10000; ++steps) {
    auto next = cur.shrinks().next();
    if (!next) break;
    cur = *next;
    RC_ASSERT(checker.check(cur.value()).empty());
  }
  return cur.value();
}

// JSON values in a document (objects, arrays and scalars): shrinking never adds any.
std::size_t valueCount(const json& v) {
  std::size_t n = 1;
  if (v.is_structured())
    for (const auto& c : v) n += valueCount(c);
  return n;
}

std::vector<Target> zooTargets() {
  std::vector<Target> out;
  for (auto& z : testing::loadZoo(nullptr))
    for (const auto& v : z.crd.versions) out.push_back({z.crd, v.name});
  return out;
}

const std::vector<Target>& targets() {
  static const std::vector<Target> t = zooTargets();
  return t;
}

struct Compiled {
  ObjectGenerator gen;
  ValidityChecker checker;
};

// Compiled once per zoo version, on first use.
const Compiled& compiledTarget(std::size_t index) {
  static std::map<std::size_t, Compiled> cache;
  auto it = cache.find(index);
  if (it == cache.end()) {
    const Target& t = targets()[index];
    it = cache
             .emplace(
                 index,
                 Compiled{std::get<ObjectGenerator>(ObjectGenerator::compile(t.crd, t.version)),
                          std::get<ValidityChecker>(ValidityChecker::compile(t.crd, t.version))})
             .first;
  }
  return it->second;
}

RC_GTEST_PROP(Shrink, EveryShrinkOfAZooObjectIsValid, ()) {
  const auto index = *rc::gen::inRange<std::size_t>(0, targets().size());
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Compiled& t = compiledTarget(index);
  const auto root = t.gen.objects()(rc::Random(seed), 60);
  const json minimum = walk(root, t.checker, 60);
  RC_ASSERT(valueCount(minimum) <= valueCount(root.value()));
}

RC_GTEST_PROP(Shrink, GreedyShrinkingKeepsRequiredFieldsAndDropsOptionalOnes, ()) {
  const json schema = {
      {"type", "object"},
      {"required", {"spec"}},
      {"properties",
       {{"spec",
         {{"type", "object"},
          {"required", {"name", "ports"}},
          {"properties",
           {{"name",
             {{"type", "string"}, {"pattern", "^[a-z]([-a-z0-9]*[a-z0-9])?$"}, {"minLength", 3}}},
            {"ports",
             {{"type", "array"},
              {"minItems", 1},
              {"x-kubernetes-list-type", "map"},
              {"x-kubernetes-list-map-keys", {"port"}},
              {"items",
               {{"type", "object"},
                {"required", {"port"}},
                {"properties",
                 {{"port", {{"type", "integer"}, {"minimum", 1}, {"maximum", 65535}}},
                  {"name", {{"type", "string"}}}}}}}}},
            {"note", {{"type", "string"}}},
            {"limits",
             {{"type", "object"},
              {"additionalProperties", {{"x-kubernetes-int-or-string", true}}}}}}}}},
        {"status", {{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}}}}}};
  const Crd crd = testing::crdWithSchema(schema);
  auto g = std::get<ObjectGenerator>(ObjectGenerator::compile(crd, "v1"));
  auto c = std::get<ValidityChecker>(ValidityChecker::compile(crd, "v1"));
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const json minimum =
      walk(g.shaped({FieldCoverage::Full, true, true, true})(rc::Random(seed), 100), c, 100);
  RC_ASSERT(minimum["spec"].size() == 2u);                             // name and ports only
  RC_ASSERT(minimum["spec"]["ports"].size() == 1u);                    // minItems
  RC_ASSERT(minimum["spec"]["ports"][0].size() == 1u);                 // the map key only
  RC_ASSERT(minimum["spec"]["name"].get<std::string>().size() == 3u);  // shortened to minLength
  RC_ASSERT(!minimum.contains("status"));
  RC_ASSERT(!minimum["metadata"].contains("labels"));
}

}  // namespace
}  // namespace convcheck
