#include "reports/report_formats.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"

namespace convcheck {

const std::vector<ReportFormat>& reportFormats() {
  static const std::vector<ReportFormat> formats{
      {"junit", "Write JUnit XML here", "junit.xml", "JUnit", writeJunit},
      {"json", "Write machine-readable JSON results here", "results.json", "JSON", writeJsonReport},
      {"summary",
       "Write a Markdown summary here (problems with links to bundles; default: "
       "$GITHUB_STEP_SUMMARY when set)",
       "summary.md", "Summary", writeMarkdownSummary, githubStepSummary},
      {"html",
       "Write an HTML report here (one self-contained page: problems with their diffs, the "
       "property matrix, answer times, coverage)",
       "report.html", "HTML", writeHtmlReport},
  };
  return formats;
}

std::string writeReport(const ReportFormat& format, const RunReport& report,
                        const WrittenBundles& bundles, const std::string& path, std::ostream& out) {
  if (path != "-") return format.write(report, bundles, path);
  std::string tmp = (std::filesystem::temp_directory_path() / "convcheck-report-XXXXXX").string();
  int fd = mkstemp(tmp.data());
  if (fd < 0)
    return fmt::format("cannot write the {} report to stdout: no temporary file", format.label);
  close(fd);
  std::string error = format.write(report, bundles, tmp);
  if (error.empty()) {
    std::ifstream written(tmp, std::ios::binary);
    out << written.rdbuf();
    out.flush();
  }
  std::error_code ignored;
  std::filesystem::remove(tmp, ignored);
  std::filesystem::remove(tmp + ".tmp", ignored);
  return error;
}

}  // namespace convcheck
