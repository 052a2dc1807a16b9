// kcp's APIConversion (apis.kcp.io/v1alpha1) as written: per ordered pair of versions, rules that
// set a destination field from a source field (through an optional CEL transformation of it), and
// the source version's fields to preserve across a lossy round trip. Read from YAML or JSON and
// checked as kube-apiserver checks the APIConversion CRD; used by the kcp converter
// (kcp_converter.h) and the command line (--conversion).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck::kcp {

struct ConversionRule {
  std::string field;           // in the source version, from the root: ".spec.firstName"
  std::string destination;     // in the target version: ".spec.name.first"
  std::string transformation;  // CEL over `self` (the source value); "" copies the value
};

struct VersionConversion {
  std::string from, to;
  std::vector<ConversionRule> rules;
  std::vector<std::string> preserve;  // source fields kept in an annotation: ".spec.someNewField"
};

struct ApiConversion {
  std::string name;    // metadata.name: kcp pairs it with the APIResourceSchema of that name
  std::string source;  // the file it was read from, for messages
  std::vector<VersionConversion> conversions;
};

// `object` read as an APIConversion. The errors are kube-apiserver's for the APIConversion CRD
// (required fields, the version pattern, the list-map keys (from, to) and destination), each as
// "<source>: <field>: <message>".
std::variant<ApiConversion, std::vector<std::string>> decodeApiConversion(
    const nlohmann::json& object, const std::string& source);

// The APIConversion in the file at `path` (YAML or JSON; other kinds of document are skipped, a
// second APIConversion is an error). The error names the file.
std::variant<ApiConversion, std::string> loadApiConversion(const std::string& path);

// "spec.conversions[1].rules[0]": where a rule is written, as reports name it.
std::string rulePath(std::size_t conversion, std::size_t rule);

}  // namespace convcheck::kcp
