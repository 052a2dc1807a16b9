#include "engine/run/sibling_evidence.h"

#include <cstddef>
#include <vector>

#include "properties/checks/json_diff.h"
#include "properties/checks/problem_identity.h"

namespace convcheck {

using nlohmann::json;

namespace {

bool sameStep(const PathStep& a, const PathStep& b) {
  return a.isIndex == b.isIndex && (a.isIndex ? a.index == b.index : a.key == b.key);
}

bool hasWildcard(const std::vector<PathStep>& steps) {
  for (const auto& s : steps)
    if (!s.isIndex && s.key == "*") return true;
  return false;
}

// The items two paths share, searched for one that lost the first path and either kept the
// second as it was or (`bothLost`) lost it too.
struct Walk {
  std::vector<PathStep> parent, first, second;  // the shared part and what follows it
  bool bothLost = false;

  // Visits the parents `parent` names in `expected`, with the same item of `got` beside each.
  bool itemBelow(const json& expected, const json& got, std::size_t step) const {
    if (step == parent.size()) return itemAt(expected, got);
    const PathStep& s = parent[step];
    if (!s.isIndex && s.key == "*") {
      if (expected.is_array() && got.is_array()) {
        for (std::size_t i = 0; i < expected.size() && i < got.size(); ++i)
          if (itemBelow(expected[i], got[i], step + 1)) return true;
      } else if (expected.is_object() && got.is_object()) {
        for (const auto& [key, value] : expected.items())
          if (auto it = got.find(key); it != got.end() && itemBelow(value, *it, step + 1))
            return true;
      }
      return false;
    }
    const std::vector<PathStep> one{s};
    const json* e = valueAtSteps(expected, one);
    const json* g = valueAtSteps(got, one);
    return e != nullptr && g != nullptr && itemBelow(*e, *g, step + 1);
  }

  bool itemAt(const json& expected, const json& got) const {
    const json* secondBefore = valueAtSteps(expected, second);
    if (valueAtSteps(expected, first) == nullptr || secondBefore == nullptr ||
        valueAtSteps(got, first) != nullptr)
      return false;
    const json* secondAfter = valueAtSteps(got, second);
    if (bothLost) return secondAfter == nullptr;
    return secondAfter != nullptr && *secondAfter == *secondBefore;
  }
};

}  // namespace

namespace {

// Walks the parents `a` and `b` share for an item `bothLost` asks for.
bool anyItem(const json& expected, const json& got, const std::string& a, const std::string& b,
             bool bothLost) {
  if (!expected.is_object() || !got.is_object()) return false;
  const std::vector<PathStep> x = pathSteps(a), y = pathSteps(b);
  std::size_t shared = 0;
  while (shared < x.size() && shared < y.size() && sameStep(x[shared], y[shared])) ++shared;
  if (shared == x.size() || shared == y.size()) return false;  // one inside the other
  const auto split = [shared](const std::vector<PathStep>& steps) {
    return std::vector<PathStep>(steps.begin() + static_cast<std::ptrdiff_t>(shared), steps.end());
  };
  Walk walk{
      {x.begin(), x.begin() + static_cast<std::ptrdiff_t>(shared)}, split(x), split(y), bothLost};
  if (hasWildcard(walk.first) || hasWildcard(walk.second)) return false;
  return walk.itemBelow(expected, got, 0);
}

}  // namespace

bool lostApart(const json& expected, const json& got, const std::string& lostPath,
               const std::string& keptPath) {
  return anyItem(expected, got, lostPath, keptPath, false);
}

bool lostTogether(const json& expected, const json& got, const std::string& onePath,
                  const std::string& otherPath) {
  return anyItem(expected, got, onePath, otherPath, true);
}

}  // namespace convcheck
