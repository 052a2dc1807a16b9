// The report files a run can write (JUnit, JSON, Markdown summary), one entry per format: the run
// command declares an option for each, names it in --report-dir and writes it. Used by app/cli; a
// new format is one entry here (and its renderer).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

struct ReportFormat {
  std::string id;        // the option without dashes ("junit" is --junit)
  std::string help;      // its --help text
  std::string fileName;  // its file in --report-dir
  std::string label;     // how the console names the file after a run
  // Writes the report to `path`; returns an error message or "".
  std::function<std::string(const RunReport&, const WrittenBundles&, const std::string& path)>
      write;
  // Where it goes when its option is not given, before --report-dir ("" for nowhere), e.g.
  // $GITHUB_STEP_SUMMARY for the Markdown summary. Unset: only its option and --report-dir.
  std::function<std::string()> defaultPath = {};
};

// Every format, in the order --help lists their options and the console names their files.
const std::vector<ReportFormat>& reportFormats();

// Writes `report` in `format` to `path`, or to `out` when `path` is "-" (any format: it is
// written to a temporary file first); returns an error message or "".
std::string writeReport(const ReportFormat& format, const RunReport& report,
                        const WrittenBundles& bundles, const std::string& path, std::ostream& out);

}  // namespace convcheck
