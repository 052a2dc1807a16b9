#include "examples/webhook/crontab_converter.h"

namespace convcheck::example {
namespace {

using nlohmann::json;

constexpr std::size_t kLossyImageLength = 8;

bool isCronTabVersion(std::string_view version) { return version == "v1beta1" || version == "v1"; }

std::string quoted(const json& value) { return value.dump(); }

// v1beta1 spec.hostPort -> v1 spec.host + spec.port.
std::string hostPortToHostAndPort(json& spec) {
  auto it = spec.find("hostPort");
  if (it == spec.end()) return {};
  if (!it->is_string()) return "spec.hostPort: must be a string, got " + quoted(*it);
  auto split = splitHostPort(it->get<std::string>());
  if (!split) return "spec.hostPort: invalid value " + quoted(*it) + ", expected host:port";
  spec.erase(it);
  spec["host"] = split->host;
  spec["port"] = split->port;
  return {};
}

// v1 spec.host + spec.port -> v1beta1 spec.hostPort (a missing part counts as "").
std::string hostAndPortToHostPort(json& spec) {
  HostPort parts;
  bool present = false;
  for (auto [field, target] : {std::pair{"host", &parts.host}, std::pair{"port", &parts.port}}) {
    auto it = spec.find(field);
    if (it == spec.end()) continue;
    if (!it->is_string())
      return std::string("spec.") + field + ": must be a string, got " + quoted(*it);
    *target = it->get<std::string>();
    present = true;
  }
  if (!present) return {};
  spec.erase("host");
  spec.erase("port");
  spec["hostPort"] = joinHostPort(parts);
  return {};
}

void applyImageFaults(json& spec, const FaultSet& faults) {
  auto image = spec.find("image");
  if (image == spec.end()) return;
  if (faults.has(Fault::DropField)) {
    spec.erase(image);
    return;
  }
  if (faults.has(Fault::LossyRoundTrip) && image->is_string()) {
    auto text = image->get<std::string>();
    if (text.size() > kLossyImageLength) *image = text.substr(0, kLossyImageLength);
  }
}

}  // namespace

std::optional<HostPort> splitHostPort(std::string_view hostPort) {
  auto colon = hostPort.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  if (hostPort.find(':', colon + 1) != std::string_view::npos) return std::nullopt;
  return HostPort{std::string(hostPort.substr(0, colon)), std::string(hostPort.substr(colon + 1))};
}

std::string joinHostPort(const HostPort& hostPort) { return hostPort.host + ":" + hostPort.port; }

ConversionOutcome convertCronTab(const json& object, std::string_view fromVersion,
                                 std::string_view toVersion, const FaultSet& faults) {
  for (auto version : {fromVersion, toVersion})
    if (!isCronTabVersion(version))
      return ConversionOutcome::failure("unexpected conversion version " +
                                        std::string(kCronTabGroup) + "/" + std::string(version) +
                                        " (CronTab has v1beta1 and v1)");

  json out = object;
  out["apiVersion"] = std::string(kCronTabGroup) + "/" + std::string(toVersion);
  if (fromVersion == toVersion) return ConversionOutcome::success(std::move(out));

  auto spec = out.find("spec");
  if (spec == out.end()) return ConversionOutcome::success(std::move(out));
  if (!spec->is_object())
    return ConversionOutcome::failure("spec: must be an object, got " + quoted(*spec));

  std::string error;
  if (toVersion == "v1") {
    error = hostPortToHostAndPort(*spec);
  } else {
    error = hostAndPortToHostPort(*spec);
    applyImageFaults(*spec, faults);
  }
  if (!error.empty()) return ConversionOutcome::failure(std::move(error));
  return ConversionOutcome::success(std::move(out));
}

}  // namespace convcheck::example
