#include "reports/report_formats.h"

#include "reports/json_report.h"
#include "reports/junit_report.h"

namespace convcheck {

const std::vector<ReportFormat>& reportFormats() {
  static const std::vector<ReportFormat> formats{
      {"junit", "Write JUnit XML here", "junit.xml", "JUnit", writeJunit},
      {"json", "Write machine-readable JSON results here", "results.json", "JSON", writeJsonReport},
  };
  return formats;
}

}  // namespace convcheck
