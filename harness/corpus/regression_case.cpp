#include "harness/corpus/regression_case.h"

#include <fmt/format.h>

#include "harness/corpus/case_json.h"

namespace convcheck {

using nlohmann::json;

json regressionToJson(const RegressionCase& c) {
  return json{{"format", kRegressionFormat},
              {"crd", c.crd},
              {"kind", c.kind},
              {"property", c.property},
              {"from", c.from},
              {"to", c.to},
              {"part", c.part},
              {"summary", c.summary},
              {"case", caseToJson({c.caseTo, c.seed, c.objects})}};
}

namespace {

std::string text(const json& j, const char* key, const std::string& where, std::string& error,
                 bool required = true) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (required && error.empty()) error = fmt::format("{}: {}: required", where, key);
    return "";
  }
  if (!it->is_string()) {
    if (error.empty()) error = fmt::format("{}: {}: must be a string", where, key);
    return "";
  }
  return it->get<std::string>();
}

}  // namespace

std::variant<RegressionCase, std::string> regressionFromJson(const json& j,
                                                             const std::string& where) {
  if (!j.is_object()) return where + ": must be a JSON object";
  auto format = j.find("format");
  if (format == j.end() || !format->is_number_integer())
    return where + ": format: required (an integer)";
  if (format->get<int>() != kRegressionFormat)
    return fmt::format("{}: format {} is not known to this convcheck (it reads format {})", where,
                       format->dump(), kRegressionFormat);
  RegressionCase c;
  std::string error;
  c.crd = text(j, "crd", where, error);
  c.kind = text(j, "kind", where, error);
  c.property = text(j, "property", where, error);
  c.from = text(j, "from", where, error);
  c.to = text(j, "to", where, error);
  c.part = text(j, "part", where, error, false);
  if (c.part.empty()) c.part = "forward";
  c.summary = text(j, "summary", where, error, false);
  if (!error.empty()) return error;
  auto cs = j.find("case");
  if (cs == j.end()) return where + ": case: required (an object)";
  auto read = caseFromJson(*cs, where);
  if (auto* caseError = std::get_if<std::string>(&read)) return *caseError;
  CaseJson& stored = std::get<CaseJson>(read);
  c.caseTo = std::move(stored.to);
  c.seed = stored.seed;
  c.objects = std::move(stored.objects);
  return c;
}

std::string regressionFileName(const RegressionCase& c) {
  json identity = regressionToJson(c)["case"];
  identity["property"] = c.property;
  identity["part"] = c.part;
  std::string canonical = identity.dump(-1, ' ', false, json::error_handler_t::replace);
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64
  for (unsigned char ch : canonical) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  auto safe = [](std::string s) {
    for (auto& ch : s)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.') ch = '_';
    return s;
  };
  return fmt::format("{}-{}-{}-{:016x}.json", safe(c.property), safe(c.from), safe(c.to), h);
}

}  // namespace convcheck
