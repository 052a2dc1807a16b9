#include "app/cli/release_outputs.h"

#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "app/cli/run_outputs.h"
#include "engine/upgrade/release_bundles.h"

namespace convcheck {

std::string makeReportDir(const std::string& reportDir) {
  if (reportDir.empty()) return "";
  std::error_code ec;
  std::filesystem::create_directories(reportDir, ec);
  return ec ? fmt::format("cannot create --report-dir {}: {}", reportDir, ec.message()) : "";
}

void writeReleaseOutputs(ReleaseRun& run, const RunConfig& outputs, const std::string& colour,
                         std::ostream& out, std::ostream& err) {
  if (!outputs.reportDir.empty())
    for (const auto& e : writeReleaseBundles(run, outputs.reportDir))
      err << "convcheck: " << e << "\n";
  RunConfig reports = outputs;  // run's bundles are not written: the two releases' are
  reports.reportDir.clear();
  writeRunOutputs(run.report, reports, colour, out, err);
}

}  // namespace convcheck
