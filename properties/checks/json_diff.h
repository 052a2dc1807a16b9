// A readable structural diff of two JSON values, as dotted paths with old and new values.
// Used by the property checks (finding details) and by the console and JUnit reports.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// One step of a path: an object key, or an array index (`isIndex`).
struct PathStep {
  std::string key;
  std::size_t index = 0;
  bool isIndex = false;
};

struct DiffLine {
  std::string path;             // e.g. "spec.ports[1].name", "" for the root
  std::vector<PathStep> steps;  // the same path, step by step
  nlohmann::json expected;      // null when the path is only in `got`
  nlohmann::json got;           // null when the path is only in `expected`
  bool missing = false;         // present in expected, absent in got
  bool added = false;           // absent in expected, present in got
};

std::vector<DiffLine> jsonDiff(const nlohmann::json& expected, const nlohmann::json& got);

// "", 0, 0.0 and false: what `if (value)` copies in JavaScript and Python take for absent.
bool isZeroValue(const nlohmann::json& value);

// The value at `steps` of `value` (a DiffLine's path in another object), or nullptr when a step
// is not there.
const nlohmann::json* valueAtSteps(const nlohmann::json& value, const std::vector<PathStep>& steps);
nlohmann::json* valueAtSteps(nlohmann::json& value, const std::vector<PathStep>& steps);

// "- spec.image: \"a\"" / "+ spec.image: \"b\"" lines, at most maxLines (then "… N more").
std::string renderDiff(const std::vector<DiffLine>& diff, std::size_t maxLines = 40);

// Dotted path of a child key; keys with dots or brackets are quoted like spec["a.b"].
std::string diffChildPath(const std::string& parent, const std::string& key);

}  // namespace convcheck
