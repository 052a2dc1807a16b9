// libFuzzer target: an openAPIV3Schema (JSON text) through the schema model (parseSchema, the
// structural-schema checks) and, when accepted, one generated value from the schema generator.
#include <cstddef>
#include <cstdint>
#include <string>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/pattern_strings.h"
#include "generators/schema_gen.h"
#include "generators/schema_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace convcheck;
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json schema = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (schema.is_discarded()) return 0;
  auto parsed = parseSchema(schema);
  if (auto* errors = std::get_if<std::vector<SchemaError>>(&parsed)) {
    for (const auto& e : *errors) (void)e.str();
    return 0;
  }
  const ParsedSchema& ok = std::get<ParsedSchema>(parsed);
  PatternStrings patterns;
  GenNotes notes;
  SchemaGenEnv env{GenMode{FieldCoverage::Sparse, true, {}}, &patterns, &notes};
  try {
    rc::Gen<nlohmann::json> gen = schemaGen(ok.root, env);
    auto shrinkable = gen(rc::Random(size), 8);
    (void)shrinkable.value().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const rc::GenerationFailure&) {
    // An unsatisfiable schema (e.g. minimum > maximum) may have no values: that is an answer.
  }
  return 0;
}
