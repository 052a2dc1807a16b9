#include "engine/run/run_report_header.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace convcheck {

ReportClock::ReportClock(const RunConfig& config) {
  report_.startedAt = fmt::format(
      "{:%Y-%m-%dT%H:%M:%SZ}",
      fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
  report_.seed = config.seed;
  report_.command = config.commandLine;
  report_.rawObjects = config.rawObjects;
  report_.canonicalDateTimes = config.canonicalDateTimes;
}

RunReport ReportClock::finish(int exitCode) {
  report_.exitCode = exitCode;
  report_.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return std::move(report_);
}

}  // namespace convcheck
