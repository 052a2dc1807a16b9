#include "kube/cel/schema.h"

#include <set>

namespace convcheck::cel {

using nlohmann::json;

namespace {

const std::set<std::string>& celReserved() {
  static const std::set<std::string> words = {
      "true",     "false",   "null",      "in",       "as",  "break",  "const",
      "continue", "else",    "for",       "function", "if",  "import", "let",
      "loop",     "package", "namespace", "return",   "var", "void",   "while"};
  return words;
}

std::optional<std::int64_t> intAt(const json& s, const char* key) {
  auto it = s.find(key);
  if (it == s.end() || !it->is_number()) return std::nullopt;
  return it->get<std::int64_t>();
}

std::unique_ptr<CelSchema> build(const json& s, bool resourceRoot) {
  auto n = std::make_unique<CelSchema>();
  if (!s.is_object()) return n;
  n->type = s.value("type", "");
  n->format = s.value("format", "");
  n->intOrString = s.value("x-kubernetes-int-or-string", false);
  n->preserveUnknownFields = s.value("x-kubernetes-preserve-unknown-fields", false);
  n->embeddedResource = s.value("x-kubernetes-embedded-resource", false);
  n->nullable = s.value("nullable", false);
  n->hasDefault = s.contains("default");
  n->maxLength = intAt(s, "maxLength");
  n->maxItems = intAt(s, "maxItems");
  n->maxProperties = intAt(s, "maxProperties");
  n->listType = s.value("x-kubernetes-list-type", "");
  if (auto k = s.find("x-kubernetes-list-map-keys"); k != s.end() && k->is_array())
    for (const auto& key : *k)
      if (key.is_string()) n->listMapKeys.push_back(key.get<std::string>());
  if (auto r = s.find("required"); r != s.end() && r->is_array())
    for (const auto& key : *r)
      if (key.is_string()) n->required.push_back(key.get<std::string>());
  if (auto e = s.find("enum"); e != s.end() && e->is_array())
    for (const auto& v : *e) n->enumValues.push_back(v);
  if (auto p = s.find("properties"); p != s.end() && p->is_object())
    for (auto it = p->begin(); it != p->end(); ++it)
      n->properties[it.key()] =
          build(it.value(), it.value().value("x-kubernetes-embedded-resource", false));
  if (auto i = s.find("items"); i != s.end() && i->is_object())
    n->items = build(*i, i->value("x-kubernetes-embedded-resource", false));
  if (auto a = s.find("additionalProperties"); a != s.end() && a->is_object())
    n->additionalProperties = build(*a, a->value("x-kubernetes-embedded-resource", false));
  if (auto v = s.find("x-kubernetes-validations"); v != s.end() && v->is_array()) {
    for (const auto& r : *v) {
      if (!r.is_object()) continue;
      RuleSpec rule;
      rule.rule = r.value("rule", "");
      rule.message = r.value("message", "");
      rule.messageExpression = r.value("messageExpression", "");
      rule.reason = r.value("reason", "");
      rule.fieldPath = r.value("fieldPath", "");
      rule.optionalOldSelf = r.value("optionalOldSelf", false);
      n->rules.push_back(std::move(rule));
    }
  }
  if (resourceRoot) {
    if (n->type.empty()) n->type = "object";
    for (const char* f : {"apiVersion", "kind"})
      if (!n->properties.count(f)) {
        auto str = std::make_unique<CelSchema>();
        str->type = "string";
        n->properties[f] = std::move(str);
      }
    auto& md = n->properties["metadata"];
    if (!md) {
      md = std::make_unique<CelSchema>();
      md->type = "object";
    }
    for (const char* f : {"name", "generateName"})
      if (!md->properties.count(f)) {
        auto str = std::make_unique<CelSchema>();
        str->type = "string";
        md->properties[f] = std::move(str);
      }
  }
  return n;
}

}  // namespace

std::unique_ptr<CelSchema> buildCelSchema(const json& openAPIV3Schema) {
  return build(openAPIV3Schema, true);
}

std::optional<std::string> escapePropertyName(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (celReserved().count(name)) return "__" + name + "__";
  auto ok = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
           c == '/';
  };
  if (std::isdigit(static_cast<unsigned char>(name[0]))) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!ok(c)) return std::nullopt;
    if (c == '_' && i + 1 < name.size() && name[i + 1] == '_') {
      out += "__underscores__";
      ++i;
    } else if (c == '.') {
      out += "__dot__";
    } else if (c == '-') {
      out += "__dash__";
    } else if (c == '/') {
      out += "__slash__";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescapePropertyName(const std::string& name) {
  if (name.size() > 4 && name.compare(0, 2, "__") == 0 &&
      name.compare(name.size() - 2, 2, "__") == 0) {
    const std::string inner = name.substr(2, name.size() - 4);
    if (celReserved().count(inner)) return inner;
  }
  if (name.find("__") == std::string::npos) return name;
  static const std::pair<const char*, const char*> subs[] = {
      {"__underscores__", "__"}, {"__dot__", "."}, {"__dash__", "-"}, {"__slash__", "/"}};
  std::string out;
  for (std::size_t i = 0; i < name.size();) {
    bool replaced = false;
    for (const auto& [from, to] : subs) {
      const std::size_t len = std::char_traits<char>::length(from);
      if (name.compare(i, len, from) == 0) {
        out += to;
        i += len;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += name[i++];
  }
  return out;
}

}  // namespace convcheck::cel
