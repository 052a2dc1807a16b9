#include "properties/checks/schema_fix_hint.h"

#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "kube/go/utf8.h"
#include "properties/checks/json_diff.h"
#include "properties/checks/problem_identity.h"

namespace convcheck {

using nlohmann::json;

namespace {

// Whether a value can stand at `steps` under `schema`: a declared property, an item, a key of
// additionalProperties, or anything below x-kubernetes-preserve-unknown-fields.
bool schemaHolds(const json& schema, const std::vector<PathStep>& steps) {
  const json* node = &schema;
  for (const auto& step : steps) {
    if (!node->is_object()) return false;
    if (node->value("x-kubernetes-preserve-unknown-fields", false) == true) return true;
    if (step.isIndex) {
      auto items = node->find("items");
      if (items == node->end()) return false;
      node = &*items;
      continue;
    }
    auto props = node->find("properties");
    if (props != node->end() && props->is_object() && props->contains(step.key)) {
      node = &(*props)[step.key];
      continue;
    }
    auto extra = node->find("additionalProperties");
    if (extra != node->end() && extra->is_object()) {
      node = &*extra;
      continue;
    }
    // metadata and the resource's own fields are there whatever the schema says
    if (node == &schema &&
        (step.key == "metadata" || step.key == "apiVersion" || step.key == "kind"))
      return true;
    return false;
  }
  return true;
}

// A field name without case or punctuation: "backendHost", "backend_host" -> "backendhost".
std::string folded(const std::string& name) {
  std::string out;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The first field of `node` (below `path`, outside metadata) that may hold what `name` names
// under another path: a key spelled the same, or a key under a parent that together spell it
// ("backend" + "host" for "backendHost"). Its path and value, or nullopt.
std::optional<std::pair<std::string, json>> lookalike(const json& node, const std::string& path,
                                                      const std::string& parentKey,
                                                      const std::string& name) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (path.empty() && it.key() == "metadata") continue;
      const std::string at = diffChildPath(path, it.key());
      const std::string key = folded(it.key());
      if (!it->is_object() && !it->is_array() &&
          (key == name || (!parentKey.empty() && parentKey + key == name)))
        return std::make_pair(at, *it);
      if (auto found = lookalike(*it, at, key, name)) return found;
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      if (auto found = lookalike(node[i], path + "[" + std::to_string(i) + "]", parentKey, name))
        return found;
  }
  return std::nullopt;
}

std::string shown(const json& value) {
  return shortenUtf8(value.dump(-1, ' ', false, json::error_handler_t::replace), 60);
}

}  // namespace

std::optional<std::string> schemaFixHint(const SchemaViolationSite& site, const json& sent,
                                         const json& converted, const json* sourceSchema) {
  if (site.from.empty() || site.from == site.to) return std::nullopt;
  const std::vector<PathStep> steps = pathSteps(site.path);
  const json* before = valueAtSteps(sent, steps);
  if (site.message.rfind("Required value", 0) == 0) {
    if (before != nullptr)
      return fmt::format(
          "the {} object had {} ({}) and the converted object has none: likelier fix: the webhook",
          site.from, site.path, shown(*before));
    const std::string leaf = steps.empty() || steps.back().isIndex ? "" : folded(steps.back().key);
    if (sourceSchema != nullptr && !schemaHolds(*sourceSchema, steps) && !leaf.empty())
      if (auto found = lookalike(sent, "", "", leaf))
        return fmt::format(
            "{} has no field {}, but the {} object holds {} = {}: likelier fix: the webhook (write "
            "it to {})",
            site.from, site.path, site.from, found->first, shown(found->second), site.path);
    if (sourceSchema != nullptr && !schemaHolds(*sourceSchema, steps))
      return fmt::format(
          "{} has no field {}, so no {} object can give it a value, yet {} requires it: likelier "
          "fix: the CRD schema ({} should not require it, or should default it), unless the "
          "webhook can derive it from other fields",
          site.from, site.path, site.from, site.to, site.to);
    if (sourceSchema != nullptr)
      return fmt::format(
          "{} is optional in {} but required in {}, and this {} object has none: likelier fix: "
          "the CRD schema (make the versions agree), or the webhook must fill in a default",
          site.path, site.from, site.to, site.from);
    return std::nullopt;
  }
  const json* after = valueAtSteps(converted, steps);
  if (after == nullptr) return std::nullopt;  // about a parent: nothing to compare
  if (before == nullptr)
    return fmt::format(
        "the webhook wrote {} = {} (the {} object had nothing there): likelier fix: the webhook",
        site.path, shown(*after), site.from);
  if (*before != *after)
    return fmt::format(
        "the webhook wrote {} = {} (the {} object had {}): likelier fix: the webhook", site.path,
        shown(*after), site.from, shown(*before));
  return fmt::format(
      "{} = {} is the {} object's value unchanged: {}'s schema allows what {}'s forbids, so "
      "likelier fix: the CRD schema (make the versions agree), or the webhook must convert the "
      "value",
      site.path, shown(*after), site.from, site.from, site.to);
}

}  // namespace convcheck
