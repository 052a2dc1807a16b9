#include "properties/checks/json_diff.h"

#include <fmt/format.h>

namespace convcheck {

std::string diffChildPath(const std::string& parent, const std::string& key) {
  bool plain = !key.empty() && key.find_first_of(".[]\" ") == std::string::npos;
  if (plain) return parent.empty() ? key : parent + "." + key;
  return parent + "[" + nlohmann::json(key).dump() + "]";
}

namespace {

void diffInto(const nlohmann::json& a, const nlohmann::json& b, const std::string& path,
              std::vector<DiffLine>& out) {
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end())
        out.push_back({diffChildPath(path, it.key()), it.value(), nullptr, true, false});
      else
        diffInto(it.value(), *other, diffChildPath(path, it.key()), out);
    }
    for (auto it = b.begin(); it != b.end(); ++it)
      if (!a.contains(it.key()))
        out.push_back({diffChildPath(path, it.key()), nullptr, it.value(), false, true});
    return;
  }
  if (a.is_array() && b.is_array()) {
    std::size_t common = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < common; ++i)
      diffInto(a[i], b[i], fmt::format("{}[{}]", path, i), out);
    for (std::size_t i = common; i < a.size(); ++i)
      out.push_back({fmt::format("{}[{}]", path, i), a[i], nullptr, true, false});
    for (std::size_t i = common; i < b.size(); ++i)
      out.push_back({fmt::format("{}[{}]", path, i), nullptr, b[i], false, true});
    return;
  }
  if (a != b) out.push_back({path, a, b, false, false});
}

std::string shortDump(const nlohmann::json& value) {
  std::string s = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

}  // namespace

std::vector<DiffLine> jsonDiff(const nlohmann::json& expected, const nlohmann::json& got) {
  std::vector<DiffLine> out;
  diffInto(expected, got, "", out);
  return out;
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
