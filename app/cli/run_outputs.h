// What `run` and `fuzz` write once the engine's verdict is in: its errors, the report paths
// (--junit, --json, --summary …, their defaults and --report-dir), bundles, the console report and
// the corpus's new regressions (each problem's example). Used by run_command, fuzz_command and
// merge_command, so they report through one path; reads the RunReport only.
#pragma once

#include <iosfwd>
#include <string>

#include "engine/api/verdict.h"
#include "engine/run/run_config.h"
#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

// Fills c.reportPaths with each format's default path and its file in c.reportDir where no
// option gave one; returns an error ("only one report can go to stdout") or "".
std::string resolveReportPaths(RunConfig& c);

// Creates --report-dir (c.reportDir, when given); returns an error or "".
std::string createReportDir(const RunConfig& c);

// Writes the bundles (with --report-dir), the report files, the console report (`colour` is
// --color: auto, always or never) and the corpus's new regressions (with --corpus). Errors go to
// `err`; the console report goes to `out` unless a report file goes to stdout.
void writeRunOutputs(const RunReport& report, const RunConfig& c, const std::string& colour,
                     std::ostream& out, std::ostream& err);

// writeRunOutputs without writing bundles: `bundles` are those already written (`convcheck merge`
// names the shards').
void writeReportOutputs(const RunReport& report, const WrittenBundles& bundles, const RunConfig& c,
                        const std::string& colour, std::ostream& out, std::ostream& err);

// The verdict of a run or fuzz job: its errors on `err`, its report written as above when it has
// one. Returns the exit code.
int writeVerdict(Verdict& verdict, const RunConfig& c, const std::string& colour, std::ostream& out,
                 std::ostream& err);

}  // namespace convcheck
