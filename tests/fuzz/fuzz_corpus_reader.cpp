// libFuzzer target: the --corpus readers: a stored regression case (JSON, format 1) and user
// sample objects (YAML or JSON, one or many documents, `kind: List`).
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/corpus/regression_case.h"
#include "harness/corpus/sample_objects.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace convcheck;
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) {
    auto c = regressionFromJson(j, "fuzz.json");
    if (auto* ok = std::get_if<RegressionCase>(&c)) {
      (void)regressionToJson(*ok);
      (void)regressionFileName(*ok);
    }
  }
  ObjectDocuments documents = readObjects(text, "fuzz.yaml");
  (void)documents;
  return 0;
}
