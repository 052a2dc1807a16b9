// The result of converting one object: the converted object, or an error naming the field.
// Produced by the example webhook's converters; consumed by its review handler and tests.
#pragma once

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace convcheck::example {

struct ConversionOutcome {
  nlohmann::json object;  // the converted object; null when error is set
  std::string error;      // why the object could not be converted, with its JSON path

  bool ok() const { return error.empty(); }

  static ConversionOutcome success(nlohmann::json object) { return {std::move(object), {}}; }
  static ConversionOutcome failure(std::string error) { return {nullptr, std::move(error)}; }
};

}  // namespace convcheck::example
