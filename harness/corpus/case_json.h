// A test case as JSON — `{"to": VERSION, "seed": "DECIMAL", "objects": [...]}` — the "case" of
// regression files and of reproduction bundles, written and read in one way. Used by
// harness/corpus/regression_case and reports/bundle_writer, bundle_reader.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

struct CaseJson {
  std::string to;                       // desired version of the case's first request
  std::uint64_t seed = 0;               // written as a decimal string (above 2^53 too)
  std::vector<nlohmann::json> objects;  // the batch, each object with apiVersion and kind
};

// {"to", "seed", "objects"}; callers may add fields of their own.
nlohmann::json caseToJson(const CaseJson& c);

// Reads the fields caseToJson writes (a seed may also be a JSON number; other fields are
// ignored). Errors name `where` and the field: "DIR/x.json: case.objects[0]: must be an object
// with apiVersion".
std::variant<CaseJson, std::string> caseFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace convcheck
