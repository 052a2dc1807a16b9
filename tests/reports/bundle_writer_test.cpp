// Reproduction bundles of a run: one per problem, named after the problem and its example's case,
// each naming the run's single crd.json (not a copy), and read back by the bundle reader as
// replay reads them; a bundle written alone (minimize) carries its own crd.json.
#include "reports/bundle_writer.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kube/crd/crd_loader.h"
#include "reports/bundle_reader.h"
#include "reports/json_report.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::sampleReport;

fs::path freshDir() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir =
      fs::path(::testing::TempDir()) /
      ("bundle_writer_test-" + std::string(test->name()) + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

json readJson(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return json::parse(s.str());
}

TEST(BundleWriter, OneBundlePerProblemAndOneCrdFileForTheRun) {
  const fs::path dir = freshDir();
  const RunReport r = sampleReport();
  const WrittenBundles written = writeBundles(r, TransportOptions{}, true, dir.string());
  EXPECT_TRUE(written.errors.empty()) << written.errors.front();
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir / "bundles"))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"CronTab-P1-v1beta1-v1-converts-valid-input",
                                             "CronTab-P2-v1-v1beta1-round-trip"}));
  EXPECT_TRUE(fs::exists(dir / "crd.json"));
  for (const auto& name : names) {
    EXPECT_FALSE(fs::exists(dir / "bundles" / name / "crd.json")) << name;
    const json bundle = readJson(dir / "bundles" / name / "bundle.json");
    EXPECT_EQ(bundle["format"], 2);
    EXPECT_EQ(bundle["crdFile"], "../../crd.json");
  }
  ASSERT_NE(written.find(r.kinds[0], r.kinds[0].problems[1]), nullptr);
  EXPECT_EQ(written.find(r.kinds[0], r.kinds[0].problems[1])->dir,
            fs::absolute(dir / "bundles" / "CronTab-P2-v1-v1beta1-round-trip").string());
  EXPECT_NE(written.find(r.kinds[0], r.kinds[0].problems[1])->curl.find("request-1.json"),
            std::string::npos);
  fs::remove_all(dir);
}

TEST(BundleWriter, ABundleIsNamedAfterItsExamplesOwnCaseNotTheProblemsFirstSite) {
  const fs::path dir = freshDir();
  RunReport r = sampleReport();
  Finding& example = r.kinds[0].problems[1].example;  // P2: first site round-trip v1->v1beta1
  example.property = "edit-round-trip";
  example.from = "v1beta1";
  example.to = "v1";
  const RunReport before = r;
  ASSERT_TRUE(writeBundles(r, TransportOptions{}, true, dir.string()).errors.empty());
  EXPECT_TRUE(
      fs::exists(dir / "bundles" / "CronTab-P2-v1beta1-v1-edit-round-trip" / "bundle.json"));
  EXPECT_FALSE(fs::exists(dir / "bundles" / "CronTab-P2-v1-v1beta1-round-trip"));
  const json bundle =
      readJson(dir / "bundles" / "CronTab-P2-v1beta1-v1-edit-round-trip" / "bundle.json");
  EXPECT_EQ(bundle["property"], "edit-round-trip");
  EXPECT_EQ(bundle["from"], "v1beta1");
  // The report is read, never changed.
  EXPECT_EQ(reportToJson(r).dump(), reportToJson(before).dump());
  fs::remove_all(dir);
}

TEST(BundleWriter, ABundleReadsBackWithTheRunsCrd) {
  const fs::path dir = freshDir();
  RunReport r = sampleReport();
  ASSERT_TRUE(writeBundles(r, TransportOptions{}, true, dir.string()).errors.empty());
  auto read = readBundle((dir / "bundles" / "CronTab-P2-v1-v1beta1-round-trip").string());
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  const Bundle& b = std::get<Bundle>(read);
  EXPECT_EQ(b.crdFile, fs::absolute(dir / "crd.json").lexically_normal().string());
  EXPECT_EQ(b.property, "round-trip");
  EXPECT_EQ(b.part, "composite");
  EXPECT_EQ(b.seed, 7u);
  EXPECT_EQ(b.cause, "round-trip|lost|spec.image");
  ASSERT_EQ(b.objects.size(), 1u);
  std::istringstream noStdin;
  const LoadResult loaded = loadCrdInput(b.crdFile, noStdin);
  ASSERT_TRUE(loaded.errors.empty()) << loaded.errors.front().text();
  ASSERT_EQ(loaded.crds.size(), 1u);
  EXPECT_EQ(loaded.crds[0].name, b.crdName);
  fs::remove_all(dir);
}

TEST(BundleWriter, SeveralKindsShareOneCrdListThatTheLoaderReads) {
  const fs::path dir = freshDir();
  RunReport r = sampleReport();
  KindReport other = r.kinds[0];
  other.kind = other.crd.kind = "Widget";
  other.crdName = other.crd.name = "widgets.stable.example.com";
  other.crd.plural = "widgets";
  other.crd.listKind = "WidgetList";
  r.kinds.push_back(other);
  ASSERT_TRUE(writeBundles(r, TransportOptions{}, true, dir.string()).errors.empty());
  std::istringstream noStdin;
  const LoadResult loaded = loadCrdInput((dir / "crd.json").string(), noStdin);
  ASSERT_TRUE(loaded.errors.empty()) << loaded.errors.front().text();
  ASSERT_EQ(loaded.crds.size(), 2u);
  EXPECT_EQ(loaded.crds[1].name, "widgets.stable.example.com");
  EXPECT_TRUE(fs::exists(dir / "bundles" / "Widget-P2-v1-v1beta1-round-trip" / "bundle.json"));
  fs::remove_all(dir);
}

TEST(BundleWriter, APreviousRunsBundlesAreRemoved) {
  const fs::path dir = freshDir();
  fs::create_directories(dir / "bundles" / "CronTab-v1-v1beta1-round-trip-7");
  RunReport r = sampleReport();
  ASSERT_TRUE(writeBundles(r, TransportOptions{}, true, dir.string()).errors.empty());
  EXPECT_FALSE(fs::exists(dir / "bundles" / "CronTab-v1-v1beta1-round-trip-7"));
  fs::remove_all(dir);
}

TEST(BundleWriter, ABundleWrittenAloneCarriesItsOwnCrd) {
  const fs::path dir = freshDir();
  RunReport r = sampleReport();
  Finding finding = r.kinds[0].problems[1].example;
  BundleTarget target{"https://127.0.0.1:9443/convert", "v1", TransportOptions{}};
  ASSERT_EQ(
      writeBundle((dir / "one").string(), finding, r.kinds[0].crd, target, {"0.test", 7, ""}).error,
      "");
  EXPECT_TRUE(fs::exists(dir / "one" / "crd.json"));
  auto read = readBundle((dir / "one").string());
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  EXPECT_EQ(std::get<Bundle>(read).crdFile, (fs::absolute(dir / "one") / "crd.json").string());
  fs::remove_all(dir);
}

TEST(BundleWriter, ABundleRecordsHowTheWebhookWasReachedAndItsCurlScriptSaysHowToReplay) {
  const fs::path dir = freshDir();
  RunReport r = sampleReport();
  r.reach = {WebhookReach::How::Command, {"./webhook", "--port", "{port}", "--name", "a b"}, true};
  ASSERT_TRUE(writeBundles(r, TransportOptions{}, false, dir.string()).errors.empty());
  const fs::path bundle = dir / "bundles" / "CronTab-P2-v1-v1beta1-round-trip";
  const json written = readJson(bundle / "bundle.json");
  EXPECT_EQ(written["target"]["reach"], "command");
  const std::string replay = written["replay"];
  EXPECT_NE(replay.find(" -- ./webhook --port '{port}' --name 'a b'"), std::string::npos) << replay;
  std::ifstream curl(bundle / "curl.sh");
  std::stringstream script;
  script << curl.rdbuf();
  EXPECT_NE(script.str().find(replay), std::string::npos) << script.str();
  EXPECT_NE(script.str().find("--url URL"), std::string::npos) << script.str();

  auto read = readBundle(bundle.string());
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  const Bundle& b = std::get<Bundle>(read);
  EXPECT_EQ(b.reach.how, WebhookReach::How::Command);
  EXPECT_EQ(b.reach.command, r.reach.command);
  EXPECT_TRUE(b.reach.portOfCommand);
  fs::remove_all(dir);
}

TEST(BundleWriter, ABundleOfAUrlRunReplaysAtItsUrlAndAnOlderBundleReadsAsOne) {
  const fs::path dir = freshDir();
  RunReport r = sampleReport();
  ASSERT_TRUE(writeBundles(r, TransportOptions{}, true, dir.string()).errors.empty());
  const fs::path bundle = dir / "bundles" / "CronTab-P2-v1-v1beta1-round-trip";
  json written = readJson(bundle / "bundle.json");
  EXPECT_EQ(written["target"]["reach"], "url");
  EXPECT_EQ(written["replay"], "convcheck replay " + bundle.string());
  // Bundles written before the reach was recorded were all replayed at their URL.
  written["target"].erase("reach");
  written["target"].erase("webhookCommand");
  written["target"].erase("portOfCommand");
  std::ofstream(bundle / "bundle.json") << written.dump(2);
  auto read = readBundle(bundle.string());
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  EXPECT_EQ(std::get<Bundle>(read).reach.how, WebhookReach::How::Url);
  written["target"]["reach"] = "carrier-pigeon";
  std::ofstream(bundle / "bundle.json") << written.dump(2);
  read = readBundle(bundle.string());
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_NE(std::get<std::string>(read).find("target.reach: unknown value \"carrier-pigeon\""),
            std::string::npos)
      << std::get<std::string>(read);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace convcheck
