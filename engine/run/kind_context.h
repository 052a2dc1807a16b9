// One CRD kind compiled for testing: generators and validity checkers of every version with a
// schema, the versions two-hop paths go through, and the settings every CaseExecutor gets.
// Built once per kind by `run`, `replay` and `minimize` alike, so the three judge a case the same
// way.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "properties/case_executor.h"
#include "properties/config/ack_config.h"
#include "shrink/case_shrinker.h"

namespace convcheck {

// What shaped a run's cases besides the seed; a bundle records them so replay uses the same.
struct KindSettings {
  GeneratorOptions generation;      // --date-times
  bool rawObjects = false;          // --raw-objects: objects sent without their schema defaults
  const AckConfig* acks = nullptr;  // .convcheck.yaml; must outlive the context
};

class KindContext {
 public:
  struct Error {
    std::string version;  // the version whose schema could not be compiled
    std::string message;
  };
  static std::variant<KindContext, Error> compile(const Crd& crd, KindSettings settings = {});

  const Crd& crd() const { return crd_; }
  const std::vector<std::string>& versions() const { return versions_; }  // with a schema
  // The versions objects can be in (not warning-only): the API server converts only through them.
  const std::vector<std::string>& vias() const { return vias_; }
  bool hasVersion(const std::string& version) const;
  // Versions without a schema, generator approximations, … ("version v1: …").
  const std::vector<std::string>& notes() const { return notes_; }
  const KindSettings& settings() const { return settings_; }

  const std::map<std::string, ObjectGenerator>& generators() const { return generators_; }
  const std::map<std::string, ValidityChecker>& checkers() const { return checkers_; }
  ShrinkSchemas schemas() const;

  // Violations of `object` as the object of `version` ("path: message").
  std::vector<std::string> violations(const nlohmann::json& object,
                                      const std::string& version) const;

  // A schema-valid change of `object` for edit-round-trip: the content of a freshly generated
  // object of the version under the same apiVersion, kind and metadata.
  std::optional<nlohmann::json> editedCopy(const nlohmann::json& object, const std::string& version,
                                           std::uint64_t seed) const;

  // The kind's rules for a CaseExecutor (validator, editor, versions, raw objects,
  // acknowledgements); the caller adds its hooks. The context must outlive the executor.
  CaseSettings caseSettings() const;

 private:
  KindContext() = default;
  Crd crd_;
  KindSettings settings_;
  std::vector<std::string> versions_;
  std::vector<std::string> vias_;
  std::vector<std::string> notes_;
  std::map<std::string, ObjectGenerator> generators_;
  std::map<std::string, ValidityChecker> checkers_;
};

}  // namespace convcheck
