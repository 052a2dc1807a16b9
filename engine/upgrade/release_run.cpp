#include "engine/upgrade/release_run.h"

#include <algorithm>
#include <chrono>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "properties/checks/release_properties.h"

namespace convcheck {

const char* releaseOfProperty(const std::string& property) {
  return property == storeProperty().id || property == rollbackProperty().id ? "old" : "new";
}

RunReport startedReport(std::uint64_t seed, const std::string& commandLine) {
  RunReport report;
  report.startedAt = fmt::format(
      "{:%Y-%m-%dT%H:%M:%SZ}",
      fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
  report.seed = seed;
  report.command = commandLine;
  return report;
}

bool namedKind(const Crd& crd, const std::vector<std::string>& kinds) {
  return std::find(kinds.begin(), kinds.end(), crd.kind) != kinds.end() ||
         std::find(kinds.begin(), kinds.end(), crd.name) != kinds.end();
}

}  // namespace convcheck
