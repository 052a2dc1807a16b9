// The top of a job's report before anything is tested (when it started, the seed, the command,
// what shaped the cases) and its end (the exit code and the time it took). Used by run and fuzz.
#pragma once

#include <chrono>

#include "engine/run/run_config.h"
#include "reports/run_report.h"

namespace convcheck {

// A report begun now for the job `config` describes.
class ReportClock {
 public:
  explicit ReportClock(const RunConfig& config);
  RunReport& report() { return report_; }
  // The report, ended with `exitCode` and the seconds since it began (once: the clock is done).
  RunReport finish(int exitCode);

 private:
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  RunReport report_;
};

}  // namespace convcheck
