#include "generators/yaml_writer.h"

#include <yaml-cpp/yaml.h>

#include <re2/re2.h>

namespace convcheck {

using nlohmann::json;

namespace {

// Plain scalars that stay strings under YAML 1.1 and 1.2 resolution.
bool safePlain(const std::string& s) {
  static const RE2 plain(R"(^[A-Za-z_][A-Za-z0-9_./-]*$)");
  static const RE2 reserved(
      R"(^(?i)(y|n|yes|no|on|off|true|false|null|~|nan|inf|\.nan|\.inf|-\.inf|\+\.inf)$)");
  return RE2::FullMatch(s, plain) && !RE2::FullMatch(s, reserved) &&
         s.find("__") == std::string::npos;
}

void emitString(YAML::Emitter& e, const std::string& s) {
  if (safePlain(s))
    e << s;
  else
    e << YAML::DoubleQuoted << s;
}

void emit(YAML::Emitter& e, const json& v) {
  switch (v.type()) {
    case json::value_t::object:
      e << YAML::BeginMap;
      for (auto it = v.begin(); it != v.end(); ++it) {
        e << YAML::Key;
        emitString(e, it.key());
        e << YAML::Value;
        emit(e, it.value());
      }
      e << YAML::EndMap;
      break;
    case json::value_t::array:
      e << YAML::BeginSeq;
      for (const auto& x : v) emit(e, x);
      e << YAML::EndSeq;
      break;
    case json::value_t::string:
      emitString(e, v.get_ref<const std::string&>());
      break;
    case json::value_t::null:
      e << YAML::Null;
      break;
    case json::value_t::boolean:
      e << (v.get<bool>() ? "true" : "false");
      break;
    default:  // numbers: the JSON spelling is valid YAML and keeps int64 and doubles exact
      e << v.dump();
      break;
  }
}

}  // namespace

std::string toYaml(const json& value) {
  YAML::Emitter e;
  e.SetIndent(2);
  emit(e, value);
  std::string out = e.c_str();
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

}  // namespace convcheck
