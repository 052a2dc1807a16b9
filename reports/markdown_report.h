// The Markdown summary (--summary FILE, or $GITHUB_STEP_SUMMARY): per kind the problems as a
// table with links to their bundles, then the properties' verdicts. Reads a RunReport and its
// bundles only; registered in report_formats.
#pragma once

#include <string>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

// How the bundle column names a bundle: Links, relative to `linkBase` (the summary's directory; ""
// for the working directory); Paths, the path relative to the working directory as text and a
// note on where the bundles are (a CI job summary, shown where the report files are not).
enum class BundleCells { Links, Paths };

std::string renderMarkdownSummary(const RunReport& report, const WrittenBundles& bundles,
                                  const std::string& linkBase,
                                  BundleCells cells = BundleCells::Links);

// Writes the summary to `path`; appends when `path` is $GITHUB_STEP_SUMMARY (GitHub collects the
// steps' summaries in one file), with the bundles as Paths there. Returns an error message or "".
std::string writeMarkdownSummary(const RunReport& report, const WrittenBundles& bundles,
                                 const std::string& path);

// $GITHUB_STEP_SUMMARY, or "" when it is not set.
std::string githubStepSummary();

}  // namespace convcheck
