#include "properties/config/ack_config.h"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "properties/checks/json_diff.h"
#include "properties/checks/property_registry.h"

namespace convcheck {

namespace {

// The path an acknowledgement covers, quoted as json_diff quotes keys.
std::string coveredPath(const Acknowledgement& a) {
  switch (a.kind) {
    case Acknowledgement::Kind::Annotation:
      return diffChildPath("metadata.annotations", a.key);
    case Acknowledgement::Kind::Label:
      return diffChildPath("metadata.labels", a.key);
    case Acknowledgement::Kind::Path:
      return a.key;
  }
  return a.key;
}

// `path` is `covered` or lies below it; "*" in `covered` stands for any one key.
bool covers(const std::string& covered, const std::string& path) {
  std::size_t i = 0, j = 0;
  while (i < covered.size()) {
    if (covered[i] == '*' &&
        (i + 1 == covered.size() || covered[i + 1] == '.' || covered[i + 1] == '[') &&
        (i == 0 || covered[i - 1] == '.')) {
      // a whole key: skip a plain key or a quoted ["..."] step of `path`
      if (j < path.size() && path[j] == '[') return false;
      while (j < path.size() && path[j] != '.' && path[j] != '[') ++j;
      ++i;
      continue;
    }
    if (j >= path.size() || covered[i] != path[j]) return false;
    ++i;
    ++j;
  }
  return j == path.size() || path[j] == '.' || path[j] == '[';
}

// The `run:` or `fuzz:` map (`section`): option name -> a scalar or a list of scalars.
std::string readCommandOptions(const YAML::Node& run, const std::string& source,
                               const std::string& section,
                               std::vector<std::pair<std::string, std::vector<std::string>>>& out) {
  if (!run || run.IsNull()) return "";
  if (!run.IsMap())
    return fmt::format(
        "{}: {}: expected a map of option names (as --help shows them, without "
        "the dashes) to values",
        source, section);
  for (const auto& entry : run) {
    const std::string name = entry.first.as<std::string>();
    std::vector<std::string> values;
    if (entry.second.IsScalar()) {
      values.push_back(entry.second.as<std::string>());
    } else if (entry.second.IsSequence()) {
      for (const auto& item : entry.second) {
        if (!item.IsScalar())
          return fmt::format("{}: {}.{}: expected a value or a list of values", source, section,
                             name);
        values.push_back(item.as<std::string>());
      }
    } else {
      return fmt::format("{}: {}.{}: expected a value or a list of values", source, section, name);
    }
    out.emplace_back(name, std::move(values));
  }
  return "";
}

}  // namespace

const Acknowledgement* AckConfig::match(const std::string& path, const std::string& from,
                                        const std::string& to, const std::string& property) const {
  for (const auto& a : items) {
    if (!a.from.empty() && a.from != from) continue;
    if (!a.to.empty() && a.to != to) continue;
    if (!a.property.empty() && a.property != property) continue;
    if (covers(coveredPath(a), path)) return &a;
  }
  return nullptr;
}

const std::vector<std::pair<std::string, std::vector<std::string>>>& AckConfig::optionsOf(
    const std::string& command) const {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kNone;
  return command == "run"       ? runOptions
         : command == "fuzz"    ? fuzzOptions
         : command == "upgrade" ? upgradeOptions
         : command == "diff"    ? diffOptions
                                : kNone;
}

std::vector<AcknowledgedCause> AckConfig::acknowledge(std::vector<Cause>& causes,
                                                      const std::string& from,
                                                      const std::string& to,
                                                      const std::string& property) const {
  std::vector<AcknowledgedCause> acknowledged;
  std::vector<Cause> kept;
  for (auto& c : causes) {
    const Acknowledgement* a = c.path.empty() ? nullptr : match(c.path, from, to, property);
    if (a)
      acknowledged.push_back({std::move(c), a->reason, a->where});
    else
      kept.push_back(std::move(c));
  }
  causes = std::move(kept);
  return acknowledged;
}

std::variant<AckConfig, std::string> parseAckConfig(const std::string& text,
                                                    const std::string& source) {
  AckConfig config;
  config.source = source;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return fmt::format("{}: line {}: {}", source, e.mark.line + 1, e.msg);
  }
  if (!root || root.IsNull()) return config;
  if (!root.IsMap())
    return fmt::format("{}: expected a map with the keys run, fuzz, upgrade, diff and acknowledge",
                       source);
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    if (key != "acknowledge" && key != "run" && key != "fuzz" && key != "upgrade" && key != "diff")
      return fmt::format("{}: {}: unknown key (expected run, fuzz, upgrade, diff or acknowledge)",
                         source, key);
  }
  for (auto [section, options] :
       {std::pair{"run", &config.runOptions}, std::pair{"fuzz", &config.fuzzOptions},
        std::pair{"upgrade", &config.upgradeOptions}, std::pair{"diff", &config.diffOptions}})
    if (auto error = readCommandOptions(root[section], source, section, *options); !error.empty())
      return error;
  const YAML::Node list = root["acknowledge"];
  if (!list || list.IsNull()) return config;
  if (!list.IsSequence()) return fmt::format("{}: acknowledge: expected a list", source);
  static const std::set<std::string> kKeys = {"annotation", "label",    "path",  "from",
                                              "to",         "property", "reason"};
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    const std::string at = fmt::format("{}: acknowledge[{}]", source, i);
    if (!item.IsMap()) return at + ": expected a map";
    Acknowledgement a;
    a.where = at;
    int kinds = 0;
    for (const auto& field : item) {
      const std::string name = field.first.as<std::string>();
      if (!kKeys.count(name))
        return fmt::format(
            "{}.{}: unknown key (expected one of annotation, label, path, from, "
            "to, property, reason)",
            at, name);
      if (!field.second.IsScalar()) return fmt::format("{}.{}: expected a string", at, name);
      const std::string value = field.second.as<std::string>();
      if (value.empty()) return fmt::format("{}.{}: must not be empty", at, name);
      if (name == "annotation" || name == "label" || name == "path") {
        ++kinds;
        a.kind = name == "annotation" ? Acknowledgement::Kind::Annotation
                 : name == "label"    ? Acknowledgement::Kind::Label
                                      : Acknowledgement::Kind::Path;
        a.key = value;
      } else if (name == "from") {
        a.from = value;
      } else if (name == "to") {
        a.to = value;
      } else if (name == "property") {
        if (!isKnownProperty(value))
          return fmt::format("{}.property: unknown property id '{}' (see `convcheck properties`)",
                             at, value);
        a.property = value;
      } else {
        a.reason = value;
      }
    }
    if (kinds != 1) return at + ": needs exactly one of annotation, label or path";
    if (a.reason.empty()) return at + ".reason: required (say why the difference is intended)";
    config.items.push_back(std::move(a));
  }
  return config;
}

std::variant<AckConfig, std::string> loadAckConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fmt::format("{}: cannot read the config file", path);
  std::stringstream text;
  text << in.rdbuf();
  return parseAckConfig(text.str(), path);
}

}  // namespace convcheck
