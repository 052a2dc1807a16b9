#include "harness/corpus/case_json.h"

#include <fmt/format.h>

namespace convcheck {

using nlohmann::json;

json caseToJson(const CaseJson& c) {
  return json{{"to", c.to}, {"seed", std::to_string(c.seed)}, {"objects", json(c.objects)}};
}

std::variant<CaseJson, std::string> caseFromJson(const json& j, const std::string& where) {
  if (!j.is_object()) return where + ": case: required (an object)";
  CaseJson c;
  auto to = j.find("to");
  if (to == j.end() || to->is_null()) return where + ": case.to: required";
  if (!to->is_string()) return where + ": case.to: must be a string";
  c.to = to->get<std::string>();
  auto seed = j.find("seed");
  if (seed == j.end()) return where + ": case.seed: required";
  if (seed->is_number_integer()) {
    // A negative number would wrap to another seed.
    if (!seed->is_number_unsigned() && seed->get<std::int64_t>() < 0)
      return where + ": case.seed: must be a decimal unsigned 64-bit integer";
    c.seed = seed->get<std::uint64_t>();
  } else if (seed->is_string()) {
    const std::string& text = seed->get_ref<const std::string&>();
    try {
      std::size_t pos = 0;
      if (text.empty() || text[0] < '0' || text[0] > '9') throw std::invalid_argument("sign");
      c.seed = std::stoull(text, &pos);
      if (pos != text.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      return where + ": case.seed: must be a decimal unsigned 64-bit integer";
    }
  } else {
    return where + ": case.seed: must be a decimal string or a number";
  }
  auto objects = j.find("objects");
  if (objects == j.end() || !objects->is_array() || objects->empty())
    return where + ": case.objects: required (a non-empty list)";
  for (std::size_t i = 0; i < objects->size(); ++i) {
    const json& o = (*objects)[i];
    if (!o.is_object() || !o.contains("apiVersion") || !o["apiVersion"].is_string())
      return fmt::format("{}: case.objects[{}]: must be an object with apiVersion", where, i);
    c.objects.push_back(o);
  }
  return c;
}

}  // namespace convcheck
