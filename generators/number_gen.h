// Generators for schema integers and numbers over the whole declared range: zero, negatives,
// bounds, int64 extremes, values beyond 2^53, fractional doubles. Used by schema_gen.
#pragma once

#include <cstdint>
#include <optional>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

namespace convcheck {

struct NumberBounds {
  std::optional<double> minimum, maximum;
  bool exclusiveMinimum = false, exclusiveMaximum = false;
  std::optional<double> multipleOf;
};

enum class IntegerWidth { Int32, Int64 };

// Integral JSON numbers within `bounds` (and the width's range). Shrinks toward zero, or toward
// the bound nearest to zero.
rc::Gen<nlohmann::json> integerValues(const NumberBounds& bounds, IntegerWidth width);

// JSON numbers within `bounds`: fractional doubles, integers (written as JSON integers, as
// kube-apiserver stores integral values), large and tiny magnitudes; float32-representable when
// `float32`.
rc::Gen<nlohmann::json> numberValues(const NumberBounds& bounds, bool float32);

// A double as kube-apiserver stores it: integral values within int64 become JSON integers.
nlohmann::json storedNumber(double d);

// Integer bounds of `bounds` for `width`, or nullopt when the range is empty.
std::optional<std::pair<std::int64_t, std::int64_t>> integerRange(const NumberBounds& bounds,
                                                                  IntegerWidth width);

}  // namespace convcheck
