#include "examples/webhook/crontab_converter.h"

namespace convcheck::example {
namespace {

using nlohmann::json;

constexpr std::size_t kLossyImageLength = 8;
constexpr char kPortPadding = ' ';

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

// Removes annotation `key`, and metadata.annotations if that empties it; false if it was absent.
bool eraseAnnotation(json& object, std::string_view key) {
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return false;
  auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || !annotations->is_object()) return false;
  if (annotations->erase(std::string(key)) == 0) return false;
  if (annotations->empty()) metadata->erase(annotations);
  return true;
}

void addAnnotation(json& object, std::string_view key, const std::string& value) {
  json& metadata = object["metadata"];
  if (metadata.is_null()) metadata = json::object();
  if (!metadata.is_object()) return;
  json& annotations = metadata["annotations"];
  if (annotations.is_null()) annotations = json::object();
  if (annotations.is_object()) annotations[std::string(key)] = value;
}

// schema-invalid-output, v1beta1 -> v1 (after the split): " 80" instead of "80".
void padPort(json& object) {
  if (eraseAnnotation(object, kUnpaddedPortAnnotation)) return;
  auto& spec = object["spec"];
  auto port = spec.find("port");
  if (port != spec.end() && port->is_string()) *port = kPortPadding + port->get<std::string>();
}

// schema-invalid-output, v1 -> v1beta1 (before the join): undoes padPort.
void unpadPort(json& object) {
  auto& spec = object["spec"];
  auto port = spec.find("port");
  if (port == spec.end() || !port->is_string()) return;
  auto text = port->get<std::string>();
  if (!text.empty() && text.front() == kPortPadding) {
    *port = text.substr(1);
    return;
  }
  addAnnotation(object, kUnpaddedPortAnnotation, "true");
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
  if (faults.has(Fault::OwnedAnnotationLoss) && toVersion == "v1beta1")
    if (auto status = out.find("status"); status != out.end() && status->is_object())
      status->erase("lastScheduleTime");

  auto spec = out.find("spec");
  if (spec == out.end()) return ConversionOutcome::success(std::move(out));
  if (!spec->is_object())
    return ConversionOutcome::failure("spec: must be an object, got " + quoted(*spec));

  const bool padding = faults.has(Fault::SchemaInvalidOutput);
  std::string error;
  if (toVersion == "v1") {
    error = hostPortToHostAndPort(*spec);
    if (error.empty() && padding) padPort(out);
  } else {
    if (padding) unpadPort(out);
    error = hostAndPortToHostPort(out["spec"]);
    applyImageFaults(out["spec"], faults);
  }
  if (!error.empty()) return ConversionOutcome::failure(std::move(error));
  return ConversionOutcome::success(std::move(out));
}

}  // namespace convcheck::example
