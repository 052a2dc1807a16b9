#include "properties/checks/json_diff.h"
#include "kube/go/utf8.h"

#include <fmt/format.h>

namespace convcheck {

std::string diffChildPath(const std::string& parent, const std::string& key) {
  bool plain = !key.empty() && key.find_first_of(".[]\" ") == std::string::npos;
  if (plain) return parent.empty() ? key : parent + "." + key;
  return parent + "[" +
         nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "]";
}

namespace {

void diffInto(const nlohmann::json& a, const nlohmann::json& b, const std::string& path,
              std::vector<PathStep>& steps, std::vector<DiffLine>& out) {
  auto line = [&](std::string at, const nlohmann::json& x, const nlohmann::json& y, bool missing,
                  bool added) {
    out.push_back({std::move(at), steps, x, y, missing, added});
  };
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      steps.push_back({it.key()});
      auto other = b.find(it.key());
      if (other == b.end())
        line(diffChildPath(path, it.key()), it.value(), nullptr, true, false);
      else
        diffInto(it.value(), *other, diffChildPath(path, it.key()), steps, out);
      steps.pop_back();
    }
    for (auto it = b.begin(); it != b.end(); ++it)
      if (!a.contains(it.key())) {
        steps.push_back({it.key()});
        line(diffChildPath(path, it.key()), nullptr, it.value(), false, true);
        steps.pop_back();
      }
    return;
  }
  if (a.is_array() && b.is_array()) {
    std::size_t common = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      steps.push_back({"", i, true});
      std::string at = fmt::format("{}[{}]", path, i);
      if (i < common)
        diffInto(a[i], b[i], at, steps, out);
      else if (i < a.size())
        line(at, a[i], nullptr, true, false);
      else
        line(at, nullptr, b[i], false, true);
      steps.pop_back();
    }
    return;
  }
  if (a != b) line(path, a, b, false, false);
}

std::string shortDump(const nlohmann::json& value) {
  std::string s = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return shortenUtf8(s, 160);
}

}  // namespace

std::vector<DiffLine> jsonDiff(const nlohmann::json& expected, const nlohmann::json& got) {
  std::vector<DiffLine> out;
  std::vector<PathStep> steps;
  diffInto(expected, got, "", steps, out);
  return out;
}

bool isZeroValue(const nlohmann::json& value) {
  if (value.is_string()) return value.get_ref<const std::string&>().empty();
  if (value.is_boolean()) return !value.get<bool>();
  if (value.is_number()) return value == 0;
  return false;
}

namespace {

template <typename Json>
Json* stepInto(Json* node, const std::vector<PathStep>& steps) {
  for (const auto& step : steps) {
    if (step.isIndex) {
      if (!node->is_array() || step.index >= node->size()) return nullptr;
      node = &(*node)[step.index];
    } else {
      if (!node->is_object()) return nullptr;
      auto it = node->find(step.key);
      if (it == node->end()) return nullptr;
      node = &*it;
    }
  }
  return node;
}

}  // namespace

const nlohmann::json* valueAtSteps(const nlohmann::json& value,
                                   const std::vector<PathStep>& steps) {
  return stepInto(&value, steps);
}

nlohmann::json* valueAtSteps(nlohmann::json& value, const std::vector<PathStep>& steps) {
  return stepInto(&value, steps);
}

std::string renderDiff(const std::vector<DiffLine>& diff, std::size_t maxLines) {
  std::string out;
  std::size_t shown = 0;
  for (const auto& line : diff) {
    if (shown == maxLines) {
      out += fmt::format("  ... {} more differences\n", diff.size() - shown);
      break;
    }
    std::string path = line.path.empty() ? "(root)" : line.path;
    if (!line.added) out += fmt::format("- {}: {}\n", path, shortDump(line.expected));
    if (!line.missing) out += fmt::format("+ {}: {}\n", path, shortDump(line.got));
    ++shown;
  }
  return out;
}

}  // namespace convcheck
