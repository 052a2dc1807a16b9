// Merging shard reports: results.json read back as it was written, the (property, pair) counts of
// shards added, a problem met by several shards joined into one with its cases added and its
// severity as the whole run saw it, and shards that are not one run's said to be so (exit 2).
#include "reports/report_merge.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "reports/json_report.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using testing::sampleReport;

// sampleReport() as shard `index` of `count` would report it when it ran only the pairs `owns`
// says (and the pair-less sites, which every shard judges).
ResultsFile shardOf(const RunReport& whole, int index, int count,
                    const std::function<bool(const std::string& from)>& owns) {
  ResultsFile f;
  f.path = "shard" + std::to_string(index + 1) + "/results.json";
  f.report = whole;
  f.report.shardIndex = index;
  f.report.shardCount = count;
  f.report.command =
      whole.command + " --shard " + std::to_string(index + 1) + "/" + std::to_string(count);
  KindReport& kind = f.report.kinds[0];
  std::erase_if(kind.tallies, [&](const PropertyTally& t) { return !owns(t.from); });
  for (auto& p : kind.problems) {
    std::erase_if(p.sites, [&](const ProblemSite& s) { return !owns(s.from); });
    p.cases = 0;
    for (const auto& s : p.sites) p.cases += s.cases;
  }
  std::erase_if(kind.problems, [](const Problem& p) { return p.sites.empty(); });
  std::erase_if(kind.latency, [&](const LatencyStats& l) { return !owns(l.from); });
  kind.requests /= count;
  return f;
}

std::vector<ResultsFile> twoShards(const RunReport& whole) {
  return {shardOf(whole, 1, 2, [](const std::string& from) { return from != "v1"; }),
          shardOf(whole, 0, 2, [](const std::string& from) { return from == "v1"; })};
}

TEST(ResultsReader, ReadsBackWhatTheJsonReportWrote) {
  const fs::path dir =
      fs::temp_directory_path() / ("convcheck-results-" + std::to_string(::getpid()));
  fs::create_directories(dir / "bundles" / "CronTab-P2-v1-v1beta1-round-trip");
  RunReport whole = sampleReport();
  whole.shardIndex = 1;
  whole.shardCount = 3;
  whole.kinds[0].order = 4;
  WrittenBundles bundles;
  bundles.add(whole.kinds[0], whole.kinds[0].problems[1],
              {"elsewhere/bundles/CronTab-P2-v1-v1beta1-round-trip", "curl ..."});
  ASSERT_EQ(writeJsonReport(whole, bundles, (dir / "results.json").string()), "");

  auto read = readResultsFile((dir / "results.json").string());
  ASSERT_TRUE(std::holds_alternative<ResultsFile>(read)) << std::get<std::string>(read);
  const ResultsFile& f = std::get<ResultsFile>(read);
  // Everything but the examples' exchanges comes back: written again, it is the same document.
  nlohmann::json again = reportToJson(f.report, f.bundles);
  nlohmann::json written = reportToJson(whole, bundles);
  for (auto* doc : {&again, &written})
    for (auto& p : (*doc)["kinds"][0]["problems"]) {
      p["example"].erase("exchanges");
      p.erase("bundle");
      p["example"].erase("bundle");
    }
  EXPECT_EQ(again, written);
  EXPECT_EQ(f.report.shardIndex, 1);
  EXPECT_EQ(f.report.shardCount, 3);
  EXPECT_EQ(f.report.kinds[0].order, 4);
  // The bundle is found beside the results file, wherever the run wrote it from.
  const BundleRef* bundle = f.bundles.find(f.report.kinds[0], f.report.kinds[0].problems[1]);
  ASSERT_NE(bundle, nullptr);
  EXPECT_EQ(bundle->dir, (dir / "bundles" / "CronTab-P2-v1-v1beta1-round-trip").string());
  EXPECT_EQ(bundle->curl, "curl ...");
  fs::remove_all(dir);
}

TEST(ResultsReader, NamesTheFileAndTheFieldThatIsWrong) {
  const fs::path file =
      fs::temp_directory_path() / ("convcheck-results-bad-" + std::to_string(::getpid()));
  nlohmann::json doc = reportToJson(sampleReport());
  doc["kinds"][0]["results"][1].erase("passed");
  std::ofstream(file) << doc.dump();
  auto read = readResultsFile(file.string());
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_EQ(std::get<std::string>(read), file.string() + ": kinds[0].results[1].passed is missing");
  doc["format"] = 2;
  std::ofstream(file) << doc.dump();
  read = readResultsFile(file.string());
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_NE(std::get<std::string>(read).find("format 2"), std::string::npos);
  fs::remove(file);
}

TEST(ReportMerge, ShardsOfARunMergeToTheWholeRunsReport) {
  const RunReport whole = sampleReport();
  const MergedReport merged = mergeShardReports(twoShards(whole));
  const RunReport& r = merged.report;
  EXPECT_EQ(r.exitCode, 1) << r.fatalError;
  EXPECT_EQ(r.fatalError, "");
  EXPECT_EQ(r.command, whole.command);  // without --shard: the unsharded run
  ASSERT_EQ(r.kinds.size(), 1u);
  const KindReport& k = r.kinds[0];
  const KindReport& w = whole.kinds[0];
  // Every (property, pair) once, in the runner's order, with its counts.
  ASSERT_EQ(k.tallies.size(), w.tallies.size());
  std::vector<std::tuple<std::string, std::string, std::string, int, int, int>> got, want;
  for (const auto& t : k.tallies)
    got.emplace_back(t.property, t.from, t.to, t.passed, t.failed, t.blocked);
  for (const auto& t : w.tallies)
    want.emplace_back(t.property, t.from, t.to, t.passed, t.failed, t.blocked);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  // The lost field, met by both shards, is one problem again with all its sites and cases,
  // ranked as the runner ranks problems: data loss before an outage.
  ASSERT_EQ(k.problems.size(), 2u);
  EXPECT_EQ(k.problems[0].id, "P1");
  EXPECT_EQ(k.problems[0].key, "lost|spec.image");
  EXPECT_EQ(k.problems[0].cases, 6);
  ASSERT_EQ(k.problems[0].sites.size(), 3u);
  EXPECT_EQ(k.problems[0].example.summary, w.problems[1].example.summary);
  EXPECT_EQ(k.problems[0].title, w.problems[1].title);
  EXPECT_EQ(k.problems[1].id, "P2");
  EXPECT_EQ(k.problems[1].key, "rejected|http-status");
  EXPECT_EQ(k.problems[1].severity, Severity::Outage);
  EXPECT_EQ(k.requests, w.requests);
}

TEST(ReportMerge, ARejectionIsAnOutageOnlyWhenNoShardSawACaseEscapeIt) {
  RunReport whole = sampleReport();
  KindReport& kind = whole.kinds[0];
  kind.problems[0].sites.push_back({"converts-valid-input", "v1", "v1beta1", 1, false});
  std::vector<ResultsFile> shards = twoShards(whole);
  // Shard 1 (from v1) saw some cases pass: a rejection there, an outage in shard 2.
  for (auto& p : shards[1].report.kinds[0].problems)
    if (p.key == "rejected|http-status") p.severity = Severity::Rejected;
  const MergedReport merged = mergeShardReports(shards);
  ASSERT_EQ(merged.report.kinds[0].problems.size(), 2u);
  const Problem& rejected = merged.report.kinds[0].problems[1];
  EXPECT_EQ(rejected.key, "rejected|http-status");
  EXPECT_EQ(rejected.severity, Severity::Rejected);
  EXPECT_EQ(rejected.cases, 5);
}

TEST(ReportMerge, ShardsThatAreNotOneRunsAreMergedAndSaidToBeSo) {
  const RunReport whole = sampleReport();
  std::vector<ResultsFile> shards = twoShards(whole);
  shards.pop_back();  // shard 1/2
  MergedReport merged = mergeShardReports(shards);
  EXPECT_EQ(merged.report.exitCode, 2);
  EXPECT_NE(merged.report.fatalError.find("shard 1/2 is missing"), std::string::npos)
      << merged.report.fatalError;
  EXPECT_EQ(merged.report.kinds.size(), 1u);  // what there is is still reported

  shards = twoShards(whole);
  shards[0].report.seed = 1;
  merged = mergeShardReports(shards);
  EXPECT_EQ(merged.report.exitCode, 2);
  EXPECT_NE(merged.report.fatalError.find("not shards of one run"), std::string::npos)
      << merged.report.fatalError;

  shards = twoShards(whole);
  shards.push_back(shards[0]);
  merged = mergeShardReports(shards);
  EXPECT_EQ(merged.report.exitCode, 2);
  EXPECT_NE(merged.report.fatalError.find("shard 2/2 is given 2 times"), std::string::npos)
      << merged.report.fatalError;
  EXPECT_EQ(merged.report.kinds[0].problems[0].cases, 6);  // counted once
}

TEST(ReportMerge, TheReproductionLineLosesOnlyTheShardOption) {
  EXPECT_EQ(withoutShardOption("convcheck run --crd a.yaml --shard 2/3 --seed 5"),
            "convcheck run --crd a.yaml --seed 5");
  EXPECT_EQ(withoutShardOption("convcheck run --shard=1/2 --crd a.yaml"),
            "convcheck run --crd a.yaml");
}

}  // namespace
}  // namespace convcheck
