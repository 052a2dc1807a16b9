// `convcheck merge DIR...`: joins the report directories of the shards of one run (`run --shard
// I/N`, each with its results.json) into the verdict, console report, JUnit, JSON and summary of
// the whole run; the bundles stay in the shards' directories. Exit codes as `run`'s, for the whole
// run; 2 also when the directories are not every shard of one run. Listed in command_table.cpp.
#include <filesystem>
#include <memory>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/run_outputs.h"
#include "app/cli/shared_options.h"
#include "reports/report_formats.h"
#include "reports/report_merge.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

struct MergeFlags {
  std::vector<std::string> dirs;
  std::map<std::string, std::string> reportPaths;
  std::string reportDir;
  std::string colour = "auto";
};

void declareMergeFlags(CLI::App& merge, MergeFlags& f) {
  merge
      .add_option("DIR", f.dirs,
                  "The shards' report directories (--report-dir of each `run --shard I/N`), or "
                  "their results.json files")
      ->required();
  declareReportOptions(
      merge, f.reportPaths, f.reportDir,
      "Write the whole run's reports (junit.xml, results.json, summary.md, report.html) "
      "here; "
      "their bundles stay in the shards' directories");
  declareColourOption(merge, f.colour);
}

int runMerge(MergeFlags& f, std::ostream& out, std::ostream& err) {
  std::vector<ResultsFile> shards;
  for (const auto& dir : f.dirs) {
    std::error_code ec;
    const std::string path =
        fs::is_directory(dir, ec) ? (fs::path(dir) / "results.json").string() : dir;
    auto read = readResultsFile(path);
    if (auto* error = std::get_if<std::string>(&read)) return usageError(err, *error);
    shards.push_back(std::get<ResultsFile>(std::move(read)));
  }
  RunConfig c;  // the report options only
  c.reportPaths = f.reportPaths;
  c.reportDir = f.reportDir;
  if (!c.reportDir.empty()) {
    std::error_code ec;
    fs::create_directories(c.reportDir, ec);
    if (ec) {
      err << fmt::format("convcheck: cannot create --report-dir {}: {}\n", c.reportDir,
                         ec.message());
      return 2;
    }
  }
  if (auto error = resolveReportPaths(c); !error.empty()) return usageError(err, error);
  const MergedReport merged = mergeShardReports(shards);
  writeReportOutputs(merged.report, merged.bundles, c, f.colour, out, err);
  return merged.report.exitCode;
}

Execute declareMergeOptions(CLI::App& sub) {
  auto flags = std::make_shared<MergeFlags>();
  declareMergeFlags(sub, *flags);
  return [flags](const CommandContext& c) { return runMerge(*flags, c.out, c.err); };
}

}  // namespace

Command mergeCommand() {
  return {"merge",
          "Join the report directories of a run's shards (run --shard I/N) into the whole run's "
          "verdict and reports",
          declareMergeOptions};
}

}  // namespace convcheck
