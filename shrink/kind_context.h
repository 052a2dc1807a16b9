// The per-kind tools that replay and minimize need outside a run: generators and validity
// checkers of every version with a schema, the schemas for shrinking, and the CaseExecutor
// settings the runner uses (versions for transitivity, validator, editor for edit-round-trip).
// Used by `convcheck replay` and `convcheck minimize`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "harness/run/case_executor.h"
#include "shrink/case_shrinker.h"

namespace convcheck {

class KindContext {
 public:
  // Errors name the CRD and version.
  // `options` as the run used them (a bundle records them), so edits are made the same way.
  static std::variant<KindContext, std::string> compile(const Crd& crd,
                                                        GeneratorOptions options = {});

  const Crd& crd() const { return crd_; }
  const std::vector<std::string>& versions() const { return versions_; }  // with a schema
  bool hasVersion(const std::string& version) const;

  const std::map<std::string, ObjectGenerator>& generators() const { return generators_; }
  const std::map<std::string, ValidityChecker>& checkers() const { return checkers_; }
  ShrinkSchemas schemas() const;

  // Violations of `object` as the object of `version` ("path: message").
  std::vector<std::string> violations(const nlohmann::json& object,
                                      const std::string& version) const;

  // A schema-valid change of `object`, as the runner makes it for edit-round-trip: the content of
  // a freshly generated object of the version under the same apiVersion, kind and metadata.
  std::optional<nlohmann::json> editedCopy(const nlohmann::json& object, const std::string& version,
                                           std::uint64_t seed) const;

  // Gives `executor` the same settings the runner gives its own. The context must outlive it.
  void configure(CaseExecutor& executor) const;
  // Objects sent without their defaults (--raw-objects), as the run sent them.
  void setRawObjects(bool raw) { raw_ = raw; }

 private:
  KindContext() = default;
  Crd crd_;
  std::vector<std::string> versions_;
  std::map<std::string, ObjectGenerator> generators_;
  std::map<std::string, ValidityChecker> checkers_;
  bool raw_ = false;
};

}  // namespace convcheck
