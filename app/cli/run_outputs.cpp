#include "app/cli/run_outputs.h"

#include <unistd.h>

#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "app/cli/colour.h"
#include "harness/corpus/corpus_store.h"
#include "reports/bundle_writer.h"
#include "reports/console_report.h"
#include "reports/report_formats.h"

namespace convcheck {
namespace {

// Stores the example (shrunk) of every problem in the corpus, to be tried first on later runs.
void saveRegressions(const CorpusStore& corpus, const RunReport& report, std::ostream& out,
                     std::ostream& err) {
  int added = 0;
  for (const auto& kind : report.kinds)
    for (const auto& problem : kind.problems) {
      const Finding& f = problem.example;
      if (f.caseTo.empty() || f.caseObjects.empty()) continue;
      if (f.origin.rfind("corpus ", 0) == 0) continue;  // already stored
      RegressionCase c{kind.crdName, kind.kind, f.property,           f.from,   f.to, f.part,
                       f.caseTo,     f.seed,    f.caseObjects.copy(), f.summary};
      bool created = false;
      std::string saved = corpus.save(c, &created);
      if (saved.rfind("error: ", 0) == 0)
        err << "convcheck: corpus: " << saved.substr(7) << "\n";
      else if (created)
        ++added;
    }
  if (added > 0)
    out << fmt::format("corpus: stored {} new regression case(s) in {}\n", added, corpus.dir());
}

}  // namespace

std::string resolveReportPaths(RunConfig& c) {
  int onStdout = 0;
  for (const auto& format : reportFormats()) onStdout += c.reportPaths[format.id] == "-";
  if (onStdout > 1) return "only one report can go to stdout (-)";
  for (const auto& format : reportFormats())
    if (c.reportPaths[format.id].empty() && format.defaultPath)
      c.reportPaths[format.id] = format.defaultPath();
  if (!c.reportDir.empty())
    for (const auto& format : reportFormats())
      if (c.reportPaths[format.id].empty())
        c.reportPaths[format.id] = c.reportDir + "/" + format.fileName;
  return "";
}

std::string createReportDir(const RunConfig& c) {
  if (c.reportDir.empty()) return "";
  std::error_code ec;
  std::filesystem::create_directories(c.reportDir, ec);
  return ec ? fmt::format("cannot create --report-dir {}: {}", c.reportDir, ec.message()) : "";
}

int writeVerdict(Verdict& verdict, const RunConfig& c, const std::string& colour, std::ostream& out,
                 std::ostream& err) {
  for (const auto& error : verdict.errors) err << "convcheck: " << error << "\n";
  if (!verdict.reported) return verdict.exitCode;
  RunConfig used = c;  // the bundles' target as the job reached it
  used.url = verdict.url;
  used.transport = verdict.transport;
  writeRunOutputs(verdict.report, used, colour, out, err);
  return verdict.exitCode;
}

void writeRunOutputs(const RunReport& report, const RunConfig& c, const std::string& colour,
                     std::ostream& out, std::ostream& err) {
  WrittenBundles bundles;
  if (!c.reportDir.empty()) {
    bundles = writeBundles(report, c.transport, !c.url.empty() || c.portForward, c.reportDir);
    for (const auto& e : bundles.errors) err << "convcheck: " << e << "\n";
  }
  writeReportOutputs(report, bundles, c, colour, out, err);
}

void writeReportOutputs(const RunReport& report, const WrittenBundles& bundles, const RunConfig& c,
                        const std::string& colour, std::ostream& out, std::ostream& err) {
  // Errors go to stderr; with a report on stdout ("-"), so does the console report.
  if (!report.fatalError.empty()) err << "convcheck: " << report.fatalError << "\n";
  bool reportOnStdout = false;
  for (const auto& [id, path] : c.reportPaths) reportOnStdout |= path == "-";
  std::ostream& console = reportOnStdout ? err : out;
  const bool startedTesting = !report.kinds.empty();
  if (startedTesting || report.exitCode != 2) {
    for (const auto& format : reportFormats()) {
      const auto path = c.reportPaths.find(format.id);
      if (path == c.reportPaths.end() || path->second.empty()) continue;
      if (auto e = writeReport(format, report, bundles, path->second, out); !e.empty())
        err << "convcheck: " << e << "\n";
    }
  }
  if (startedTesting) {
    ConsoleOptions options;
    options.colour = useColour(colour, isatty(reportOnStdout ? STDERR_FILENO : STDOUT_FILENO) == 1);
    options.fatalError = false;  // already on stderr
    printConsoleReport(report, bundles, console, options);
    for (const auto& format : reportFormats()) {
      const auto path = c.reportPaths.find(format.id);
      if (path != c.reportPaths.end() && !path->second.empty() && path->second != "-")
        console << fmt::format("{:<6} {}\n", format.label + ":", path->second);
    }
  } else if (report.exitCode == 0) {  // nothing to run (a shard beyond the run's pairs)
    for (const auto& w : report.warnings) console << "warning: " << w << "\n";
  }
  if (!c.corpusDir.empty()) saveRegressions(CorpusStore(c.corpusDir), report, console, err);
}

}  // namespace convcheck
