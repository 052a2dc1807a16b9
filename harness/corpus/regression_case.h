// A stored regression case: a shrunk failure as convcheck writes it into --corpus DIR and replays
// it first on every later run. The on-disk format (format 1) is stable and documented in the
// README ("On-disk formats"). Used by the corpus store, the runner and the CLI.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

inline constexpr int kRegressionFormat = 1;

struct RegressionCase {
  std::string crd;       // CRD name, e.g. "crontabs.stable.example.com"
  std::string kind;      // e.g. "CronTab"
  std::string property;  // the SPEC §4 id that failed
  std::string from;      // the reported version pair
  std::string to;
  std::string part;    // "forward", "backward" or "composite"
  std::string caseTo;  // desired version of the case's first request
  std::uint64_t seed = 0;
  std::vector<nlohmann::json> objects;  // the batch, each object with apiVersion and kind
  std::string summary;                  // what failed, for people reading the file
};

nlohmann::json regressionToJson(const RegressionCase& c);

// Errors name `where` and the field: "DIR/x.json: case.objects[0]: must be an object".
std::variant<RegressionCase, std::string> regressionFromJson(const nlohmann::json& j,
                                                             const std::string& where);

// "<property>-<from>-<to>-<16 hex digits>.json": the digits hash the property, part and case,
// so storing the same shrunk case twice gives the same file.
std::string regressionFileName(const RegressionCase& c);

}  // namespace convcheck
