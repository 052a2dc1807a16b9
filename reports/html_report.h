// The HTML report (--html FILE, report.html in --report-dir): one self-contained page (no script,
// no network, no external font) with per kind the problem digest, each problem's shrunk diff, the
// property × version-pair matrix, answer time by batch size as inline SVG and the coverage; laid
// out for a phone and a desktop window alike. Reads a RunReport only; registered in report_formats.
#pragma once

#include <string>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

// `bundles` names each problem's bundle in its replay line.
std::string renderHtmlReport(const RunReport& report, const WrittenBundles& bundles = {});

// Writes the page to `path` (through a temporary file beside it); returns an error message or "".
std::string writeHtmlReport(const RunReport& report, const WrittenBundles& bundles,
                            const std::string& path);

}  // namespace convcheck
