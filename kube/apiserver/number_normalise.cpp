#include "kube/apiserver/number_normalise.h"

#include <cmath>
#include <cstdint>

namespace convcheck {

using nlohmann::json;

namespace {

void normaliseInPlace(json& value) {
  switch (value.type()) {
    case json::value_t::number_float: {
      const double d = value.get<double>();
      // 2^63 is exactly representable; integral doubles in [-2^63, 2^63) fit int64.
      constexpr double kTwo63 = 9223372036854775808.0;
      if (std::isfinite(d) && std::trunc(d) == d && d >= -kTwo63 && d < kTwo63)
        value = static_cast<std::int64_t>(d);
      return;
    }
    case json::value_t::number_unsigned: {
      const auto u = value.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(INT64_MAX))
        value = static_cast<std::int64_t>(u);
      else
        value = static_cast<double>(u);
      return;
    }
    case json::value_t::array:
    case json::value_t::object:
      for (auto& child : value) normaliseInPlace(child);
      return;
    default:
      return;
  }
}

}  // namespace

json normaliseNumbers(json value) {
  normaliseInPlace(value);
  return value;
}

}  // namespace convcheck
