// Validity of a whole custom resource for one CRD version: valijson against a faithful
// translation of the version's schema, plus convcheck's own checks for what valijson cannot do
// as kube-apiserver does (RE2 patterns, formats, list-type set/map, metadata rules).
// Used by tests (an invalid generated object is a generator bug) and by the run before sending.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/schema_check.h"
#include "generators/schema_model.h"
#include "kube/crd/crd.h"

namespace convcheck {

class ValidityChecker {
 public:
  static std::variant<ValidityChecker, std::string> compile(const Crd& crd,
                                                            const std::string& version);
  // The same from the version's schema model as another part already parsed it (the generator's):
  // its nodes are shared, not parsed and held a second time.
  static std::variant<ValidityChecker, std::string> compile(const Crd& crd,
                                                            const std::string& version,
                                                            const ParsedSchema& parsed);
  const ParsedSchema& schema() const;

  // Every violation found, each with its field path; empty when the object is valid.
  std::vector<Violation> check(const nlohmann::json& object) const;

  // The same without valijson: convcheck's own checks cover every keyword (check_schema), and
  // valijson is the independent second opinion that costs as much again. For guards that run on
  // every object and cross-check only some with valijson.
  std::vector<Violation> checkNative(const nlohmann::json& object) const;

  // The draft-4 JSON schema handed to valijson (nullable → null allowed, int-or-string →
  // integer|string, pattern and format stripped, unknown fields forbidden where not preserved),
  // translated again on each call: the checker does not keep it.
  nlohmann::json valijsonSchema() const;

 private:
  struct State;
  explicit ValidityChecker(std::shared_ptr<const State> s) : state_(std::move(s)) {}
  std::vector<Violation> checkObject(const nlohmann::json& object, bool valijson) const;
  std::shared_ptr<const State> state_;
};

// The translation used by ValidityChecker, exposed for tests.
nlohmann::json toValijsonSchema(const SchemaNode& node, bool resourceRoot);

}  // namespace convcheck
