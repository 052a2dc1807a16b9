#include "kube/apiserver/number_normalise.h"

#include <cmath>
#include <cstdint>

namespace convcheck {

using nlohmann::json;

json normaliseNumbers(const json& value) {
  switch (value.type()) {
    case json::value_t::number_float: {
      const double d = value.get<double>();
      // 2^63 is exactly representable; integral doubles in [-2^63, 2^63) fit int64.
      constexpr double kTwo63 = 9223372036854775808.0;
      if (std::isfinite(d) && std::trunc(d) == d && d >= -kTwo63 && d < kTwo63)
        return json(static_cast<std::int64_t>(d));
      return value;
    }
    case json::value_t::number_unsigned: {
      const auto u = value.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(INT64_MAX)) return json(static_cast<std::int64_t>(u));
      return json(static_cast<double>(u));
    }
    case json::value_t::array: {
      json out = json::array();
      for (const auto& e : value) out.push_back(normaliseNumbers(e));
      return out;
    }
    case json::value_t::object: {
      json out = json::object();
      for (const auto& [k, v] : value.items()) out[k] = normaliseNumbers(v);
      return out;
    }
    default:
      return value;
  }
}

}  // namespace convcheck
