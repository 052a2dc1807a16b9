// JUnit XML for CI test reporters (valid against the Jenkins xunit junit-10 schema, always valid
// UTF-8): one testsuite per kind, one testcase per (from, to, property) whose failure lists the
// problems it shows, each in full at its first testcase. Reads a RunReport and its bundles only;
// called by the CLI after a run (also after a failed or interrupted one).
#pragma once

#include <string>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

std::string renderJunit(const RunReport& report, const WrittenBundles& bundles = {});
// Writes atomically (temporary file, then rename). Returns an error message or "".
std::string writeJunit(const RunReport& report, const WrittenBundles& bundles,
                       const std::string& path);

// `text` as XML 1.0 can carry it: valid UTF-8 (each invalid byte as U+FFFD), control characters
// other than tab and newlines as \xNN, U+FFFE and U+FFFF as \uFFFE and \uFFFF.
std::string xmlSafe(const std::string& text);

}  // namespace convcheck
