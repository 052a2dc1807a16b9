// kcp's conversion of custom resources by an APIConversion, as kcp's converter (pkg/conversion)
// does it: the converted object is a copy of the original under the target apiVersion; the rules
// of the last entry whose `from` is the object's version run in order (its `to` is not
// consulted), each setting its destination to its source value or the value of its CEL
// transformation (a missing source sets null without evaluating anything; results pass through
// cel-go's JSON conversion); then the preserve annotation of the target version is restored and
// dropped, or, when there is none, the source version's preserve fields are stored in one.
// Used by the kcp target kind (harness/transport/kcp_target.h) and its tests.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/crd/crd.h"
#include "kube/kcp/api_conversion.h"

namespace convcheck::kcp {

// preserve.conversion.apis.kcp.io/<version>: the fields of <version> an object carries for the
// way back, as a JSON object from field path to value.
inline constexpr char kPreserveAnnotationPrefix[] = "preserve.conversion.apis.kcp.io/";

// What kcp refuses when the APIConversion is created for `crd` (its admission compiles the rules
// against the CRD's version schemas): an entry whose `from` has no schema, a rule field that is no
// path of object properties in it, a field whose schema CEL cannot type. "<source>: <field>: ...".
std::vector<std::string> schemaProblems(const ApiConversion& conversion, const Crd& crd);

// Why an object could not be converted: kcp's error, and where in the APIConversion it arose.
struct ConversionFailure {
  std::string where;  // "spec.conversions[1].rules[0]", "spec.conversions[1].preserve[0]", or
                      // "metadata.annotations[preserve.conversion.apis.kcp.io/v1]" (the object's)
  std::string what;   // for reports: "CEL rule `spec.conversions[1].rules[0]` (.spec.a -> .spec.b)"
  std::string message;  // kcp's: "error converting: error executing transformation: no such key: a"
};

class KcpConverter {
 public:
  // Compiles every transformation (CEL over `self`); the errors are kcp's, one per rule:
  // "<source>: spec.conversions[0].rules[1].transformation: Invalid value: ...".
  static std::variant<KcpConverter, std::vector<std::string>> compile(
      const ApiConversion& conversion);

  // `object` (a whole custom resource) converted to `apiVersion` ("group/version").
  std::variant<nlohmann::json, ConversionFailure> convert(const nlohmann::json& object,
                                                          const std::string& apiVersion) const;

  const ApiConversion& conversion() const;

 private:
  struct State;
  explicit KcpConverter(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  std::shared_ptr<const State> state_;
};

}  // namespace convcheck::kcp
