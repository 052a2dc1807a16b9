#include "kube/kcp/api_conversion.h"

#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "kube/crd/yaml_json.h"
#include "kube/go/go_format.h"

namespace convcheck::kcp {

using nlohmann::json;

namespace {

// ^v[1-9][0-9]*([a-z]+[1-9][0-9]*)?$, the pattern of from and to.
bool isVersionName(const std::string& s) {
  std::size_t i = 0;
  auto digits = [&](std::size_t& at) {
    if (at >= s.size() || s[at] < '1' || s[at] > '9') return false;
    ++at;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') ++at;
    return true;
  };
  if (s.empty() || s[i++] != 'v' || !digits(i)) return false;
  if (i == s.size()) return true;
  const std::size_t letters = i;
  while (i < s.size() && s[i] >= 'a' && s[i] <= 'z') ++i;
  return i > letters && digits(i) && i == s.size();
}

std::string typeOf(const json& v) {
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
  if (v.is_number()) return "number";
  return "null";
}

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  void error(const std::string& field, const std::string& message) {
    errors_.push_back(source_ + ": " + field + ": " + message);
  }

  // The member `key` of `holder` when it has the JSON type `type`; errors for a wrong type, and
  // for a missing member when `required`.
  const json* member(const json* holder, const char* key, const std::string& field,
                     const std::string& type, bool required) {
    if (!holder || !holder->is_object()) return nullptr;
    auto it = holder->find(key);
    if (it == holder->end() || it->is_null()) {
      if (required) error(field, "Required value");
      return nullptr;
    }
    if (typeOf(*it) != type) {
      error(field, "Invalid value: \"" + typeOf(*it) + "\": " + field +
                       " in body must be of type " + type + ": \"" + typeOf(*it) + "\"");
      return nullptr;
    }
    return &*it;
  }

  std::string string(const json* holder, const char* key, const std::string& field, bool required,
                     bool nonEmpty) {
    const json* v = member(holder, key, field, "string", required);
    if (!v) return "";
    std::string s = v->get<std::string>();
    if (nonEmpty && s.empty())
      error(field, "Invalid value: \"\": " + field + " in body should be at least 1 chars long");
    return s;
  }

  std::string version(const json* holder, const char* key, const std::string& field) {
    std::string s = string(holder, key, field, true, true);
    if (!s.empty() && !isVersionName(s))
      error(field, "Invalid value: " + goQuote(s) + ": " + field +
                       " in body should match '^v[1-9][0-9]*([a-z]+[1-9][0-9]*)?$'");
    return s;
  }

  // Whether the list item `item` at `path` is an object; an error when it is not.
  bool isObject(const json& item, const std::string& path) {
    if (item.is_object()) return true;
    error(path, "Invalid value: \"" + typeOf(item) + "\": " + path +
                    " in body must be of type object: \"" + typeOf(item) + "\"");
    return false;
  }

  std::vector<std::string>& errors() { return errors_; }

 private:
  std::string source_;
  std::vector<std::string> errors_;
};

ConversionRule readRule(Reader& r, const json& item, const std::string& path) {
  ConversionRule rule;
  if (!r.isObject(item, path)) return rule;
  rule.field = r.string(&item, "field", path + ".field", true, true);
  rule.destination = r.string(&item, "destination", path + ".destination", true, true);
  rule.transformation = r.string(&item, "transformation", path + ".transformation", false, false);
  return rule;
}

VersionConversion readConversion(Reader& r, const json& item, const std::string& path) {
  VersionConversion c;
  if (!r.isObject(item, path)) return c;
  c.from = r.version(&item, "from", path + ".from");
  c.to = r.version(&item, "to", path + ".to");
  if (const json* rules = r.member(&item, "rules", path + ".rules", "array", true)) {
    std::set<std::string> destinations;
    for (std::size_t j = 0; j < rules->size(); ++j) {
      const std::string at = path + ".rules[" + std::to_string(j) + "]";
      c.rules.push_back(readRule(r, (*rules)[j], at));
      const std::string& d = c.rules.back().destination;
      if (!d.empty() && !destinations.insert(d).second)
        r.error(at, "Duplicate value: map[string]interface {}{\"destination\":" + goQuote(d) + "}");
    }
  }
  if (const json* preserve = r.member(&item, "preserve", path + ".preserve", "array", false))
    for (std::size_t j = 0; j < preserve->size(); ++j) {
      const std::string at = path + ".preserve[" + std::to_string(j) + "]";
      const json& p = (*preserve)[j];
      if (!p.is_string())
        r.error(at, "Invalid value: \"" + typeOf(p) + "\": " + at +
                        " in body must be of type string: \"" + typeOf(p) + "\"");
      else
        c.preserve.push_back(p.get<std::string>());
    }
  return c;
}

}  // namespace

std::string rulePath(std::size_t conversion, std::size_t rule) {
  return "spec.conversions[" + std::to_string(conversion) + "].rules[" + std::to_string(rule) + "]";
}

std::variant<ApiConversion, std::vector<std::string>> decodeApiConversion(
    const json& object, const std::string& source) {
  Reader r(source);
  ApiConversion out;
  out.source = source;
  if (const json* metadata = r.member(&object, "metadata", "metadata", "object", true))
    out.name = r.string(metadata, "name", "metadata.name", true, true);
  const json* spec = r.member(&object, "spec", "spec", "object", true);
  if (const json* list = r.member(spec, "conversions", "spec.conversions", "array", true)) {
    std::set<std::pair<std::string, std::string>> pairs;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string at = "spec.conversions[" + std::to_string(i) + "]";
      out.conversions.push_back(readConversion(r, (*list)[i], at));
      const auto& c = out.conversions.back();
      if (!c.from.empty() && !c.to.empty() && !pairs.insert({c.from, c.to}).second)
        r.error(at, "Duplicate value: map[string]interface {}{\"from\":" + goQuote(c.from) +
                        ", \"to\":" + goQuote(c.to) + "}");
    }
  }
  if (!r.errors().empty()) return std::move(r.errors());
  return out;
}

std::variant<ApiConversion, std::string> loadApiConversion(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot read the file";
  std::stringstream text;
  text << in.rdbuf();
  YamlStream stream = parseYamlStream(text.str());
  if (stream.fatal) return path + ": " + stream.fatal->text();
  std::optional<ApiConversion> found;
  for (const auto& doc : stream.documents) {
    if (!doc.errors.empty()) return path + ": " + doc.errors.front().text();
    const json& v = doc.value;
    if (!v.is_object() || v.value("kind", json()) != "APIConversion") continue;
    const std::string where = path + ", document " + std::to_string(doc.index);
    if (v.value("apiVersion", json()) != "apis.kcp.io/v1alpha1")
      return where + ": apiVersion: Unsupported value: " + v.value("apiVersion", json()).dump() +
             ": supported values: \"apis.kcp.io/v1alpha1\"";
    if (found) return where + ": a second APIConversion; give one per --conversion";
    auto decoded = decodeApiConversion(v, where);
    if (auto* errors = std::get_if<std::vector<std::string>>(&decoded)) {
      std::string all;
      for (const auto& e : *errors) all += (all.empty() ? "" : "\n") + e;
      return all;
    }
    found = std::get<ApiConversion>(std::move(decoded));
    found->source = path;
  }
  if (!found) return path + ": no APIConversion (apis.kcp.io/v1alpha1) in the file";
  return std::move(*found);
}

}  // namespace convcheck::kcp
