// Conversion of the CronTab kind (stable.example.com) between v1beta1 (spec.hostPort) and v1
// (spec.host + spec.port). Used by the example webhook's object converter and its tests.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "examples/webhook/conversion_outcome.h"
#include "examples/webhook/faults.h"

namespace convcheck::example {

inline constexpr std::string_view kCronTabGroup = "stable.example.com";
inline constexpr std::string_view kCronTabKind = "CronTab";

struct HostPort {
  std::string host;
  std::string port;
};

// "host:port" with exactly one ':' -> {host, port}; nullopt otherwise.
std::optional<HostPort> splitHostPort(std::string_view hostPort);
std::string joinHostPort(const HostPort& hostPort);

// Converts a CronTab from `fromVersion` to `toVersion` ("v1beta1" or "v1"). Everything except
// apiVersion and the host/port fields is carried unchanged, unless a fault says otherwise
// (drop-field, lossy-round-trip).
ConversionOutcome convertCronTab(const nlohmann::json& object, std::string_view fromVersion,
                                 std::string_view toVersion, const FaultSet& faults);

}  // namespace convcheck::example
