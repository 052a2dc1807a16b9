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
inline constexpr std::string_view kCronTabStorageVersion = "v1";
// schema-invalid-output marks, on v1beta1 objects converted from v1, that the v1 port had no
// padding, so that converting back does not pad it (see convertCronTab).
inline constexpr std::string_view kUnpaddedPortAnnotation = "example.convcheck.dev/port-unpadded";

struct HostPort {
  std::string host;
  std::string port;
};

// "host:port" with exactly one ':' -> {host, port}; nullopt otherwise.
std::optional<HostPort> splitHostPort(std::string_view hostPort);
std::string joinHostPort(const HostPort& hostPort);

// Converts a CronTab from `fromVersion` to `toVersion` ("v1beta1" or "v1"). Everything except
// apiVersion and the host/port fields is carried unchanged, unless a fault says otherwise
// (drop-field, lossy-round-trip, schema-invalid-output). schema-invalid-output writes the v1
// port as " " + port, unless the v1beta1 object carries the port-unpadded annotation (which is
// then removed); going to v1beta1 it removes that space, or adds the annotation when there was
// none. Both round trips stay exact: a v1 port without the space comes back without it.
ConversionOutcome convertCronTab(const nlohmann::json& object, std::string_view fromVersion,
                                 std::string_view toVersion, const FaultSet& faults);

}  // namespace convcheck::example
