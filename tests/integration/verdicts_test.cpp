// Verdicts users can trust on real webhooks: which versions fail a run, objects as the API server
// sends them, one shrunk example per cause with the real bug on top, compact console output, and
// CRDs that do not declare webhook conversion yet. The real binary against the example webhook.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;

std::string textOf(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A copy of a CRD file with an edit applied to its text, in a temporary directory removed with it.
class TempCrd {
 public:
  TempCrd(const std::string& crdFile, const std::string& name,
          const std::function<std::string(std::string)>& edit)
      : dir_(fs::temp_directory_path() /
             fs::path("convcheck-verdicts-" + name + "-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
    path_ = (dir_ / (name + ".yaml")).string();
    std::ofstream(path_) << edit(textOf(crdFile));
  }
  TempCrd(TempCrd&& other) noexcept : dir_(std::move(other.dir_)), path_(other.path_) {
    other.dir_.clear();
  }
  ~TempCrd() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  fs::path dir_;
  std::string path_;
};

std::string withoutConversion(std::string text) {
  auto start = text.find("  conversion:");
  auto end = text.find("\n  versions:", start);
  return text.erase(start, end + 1 - start);
}

// The Widget CRD with v1alpha1 (its first version) not served, and `storedVersions` as status.
TempCrd widgetWithUnservedAlpha(const std::string& name, const std::string& storedVersions) {
  return TempCrd(ExampleWebhook::widgetCrdPath(), name, [&](std::string text) {
    auto at = text.find("served: true");
    text.replace(at, std::string("served: true").size(), "served: false");
    return text + "status:\n  storedVersions: " + storedVersions + "\n";
  });
}

std::vector<std::string> verdictRunArgs(const ExampleWebhook& hook, const std::string& crd,
                                        std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "run",    "--crd", crd,       "--url", hook.url(), "--ca-file", hook.pki().caFile(),
      "--seed", "1",     "--tests", "24"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

bool listHas(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(StoredVersions, AnUnservedVersionStillInStoredVersionsFailsTheRun) {
  ExampleWebhookOptions options;
  options.faults = {"legacy-version-loss"};  // loses Widget spec.size going to v1alpha1
  ExampleWebhook hook(options);
  auto crd = widgetWithUnservedAlpha("stored", "[v1alpha1, v1beta1]");
  auto r = runConvcheck(verdictRunArgs(hook, crd.path()));
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_TRUE(listHas(r.failedProperties(), "round-trip")) << r.out;
}

TEST(StoredVersions, AVersionNoObjectCanBeInOnlyWarnsAndTheReportSaysWhy) {
  ExampleWebhookOptions options;
  options.faults = {"legacy-version-loss"};
  ExampleWebhook hook(options);
  auto crd = widgetWithUnservedAlpha("unused", "[v1beta1]");
  auto r = runConvcheck(verdictRunArgs(hook, crd.path()));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_EQ(r.failedProperties(), std::vector<std::string>{}) << r.out;
  EXPECT_NE(r.out.find("not in status.storedVersions"), std::string::npos) << r.out;
  EXPECT_NE(r.junit.find("<skipped"), std::string::npos);
  EXPECT_NE(r.json["kinds"][0]["warningVersions"].dump().find("v1alpha1"), std::string::npos);
}

TEST(Defaults, ObjectsAreSentWithTheirSchemaDefaultsAsTheApiServerSendsThem) {
  ExampleWebhookOptions options;
  options.faults = {"needs-default"};  // fails objects without spec.size, which has a default
  ExampleWebhook hook(options);
  auto r = runConvcheck(verdictRunArgs(hook, ExampleWebhook::widgetCrdPath()));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
}

TEST(Defaults, RawObjectsShowTheRelianceOnDefaultsAndTheChokeIsSaidOnce) {
  ExampleWebhookOptions options;
  options.faults = {"needs-default"};
  ExampleWebhook hook(options);
  auto r = runConvcheck(verdictRunArgs(hook, ExampleWebhook::widgetCrdPath(), {"--raw-objects"}));
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(r.failedProperties(), std::vector<std::string>{"converts-valid-input"}) << r.out;
  // Most objects lack spec.size: one note per source version, and the other properties are
  // still judged on objects that convert (extra cases replace the rejected ones).
  EXPECT_NE(r.out.find("the webhook rejects most generated v1beta1 objects the same way"),
            std::string::npos)
      << r.out;
  int roundTripsJudged = 0;
  for (const auto& t : r.json["kinds"][0]["results"])
    if (t["property"] == "round-trip") roundTripsJudged += t["passed"].get<int>();
  EXPECT_GE(roundTripsJudged, 6 * 12) << "half of --tests per pair at least";
}

TEST(Causes, TheRealFieldLossComesBeforeTheWebhooksOwnAnnotationEachWithItsOwnExample) {
  ExampleWebhookOptions options;
  options.faults = {"owned-annotation-loss"};  // stamps an annotation, loses Widget status.phase
  ExampleWebhook hook(options);
  auto r = runConvcheck(verdictRunArgs(hook, ExampleWebhook::widgetCrdPath()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  const nlohmann::json* lossy = nullptr;
  const nlohmann::json* cosmeticOnly = nullptr;
  for (const auto& t : r.json["kinds"][0]["results"]) {
    if (t["property"] != "round-trip") continue;
    if (t["from"] == "v1beta1" && t["to"] == "v1alpha1") lossy = &t;
    if (t["from"] == "v1beta1" && t["to"] == "v1") cosmeticOnly = &t;
  }
  ASSERT_TRUE(lossy && cosmeticOnly);
  const auto& causes = (*lossy)["causes"];
  ASSERT_EQ(causes.size(), 2u) << causes.dump(1);
  EXPECT_EQ(causes[0]["severity"], "data loss");
  EXPECT_EQ(causes[0]["key"], "round-trip|lost|status.phase");
  EXPECT_EQ(causes[1]["severity"], "cosmetic");
  EXPECT_NE(causes[1]["key"].get<std::string>().find("converted-by"), std::string::npos);
  ASSERT_EQ((*cosmeticOnly)["causes"].size(), 1u);
  EXPECT_EQ((*cosmeticOnly)["causes"][0]["severity"], "cosmetic");
  // Two problems, the loss first, each with its own shrunk example.
  const auto& problems = r.json["kinds"][0]["problems"];
  ASSERT_EQ(problems.size(), 2u) << problems.dump(1);
  EXPECT_EQ(problems[0]["key"], "field|status.phase");
  EXPECT_EQ(problems[0]["severity"], "data loss");
  const auto& loss = problems[0]["example"];
  EXPECT_TRUE(loss["expected"]["status"].contains("phase"));
  EXPECT_FALSE(loss["got"].value("status", nlohmann::json::object()).contains("phase"));
  EXPECT_TRUE(loss["shrink"]["reproduced"].get<bool>());
  EXPECT_EQ(problems[1]["severity"], "cosmetic");
  EXPECT_NE(problems[1]["key"].get<std::string>().find("converted-by"), std::string::npos);
  EXPECT_LT(problems[0]["cases"].get<int>(), problems[1]["cases"].get<int>())
      << "the annotation is in every case, the loss only where status.phase was set";
  // The console's digest puts the loss first too.
  auto lossLine = r.out.find("data loss     status.phase is lost");
  auto stamp =
      r.out.find("cosmetic      metadata.annotations[\"example.convcheck.dev/converted-by\"]");
  EXPECT_NE(lossLine, std::string::npos) << r.out;
  EXPECT_NE(stamp, std::string::npos) << r.out;
  EXPECT_LT(lossLine, stamp) << r.out;
}

TEST(Causes, IntegersAFloat64WebhookRoundsAreReportedAsSuch) {
  ExampleWebhookOptions options;
  options.faults = {"float64-numbers"};
  ExampleWebhook hook(options);
  auto r = runConvcheck(verdictRunArgs(hook, ExampleWebhook::cronTabCrdPath()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  int float64Causes = 0;
  for (const auto& t : r.json["kinds"][0]["results"])
    for (const auto& c : t["causes"])
      if (c["key"] == t["property"].get<std::string>() + "|float64") {
        ++float64Causes;
        EXPECT_NE(c["title"].get<std::string>().find("came back as"), std::string::npos);
        EXPECT_NE(c["title"].get<std::string>().find("float64"), std::string::npos);
      }
  EXPECT_GE(float64Causes, 2) << r.out;  // round-trip both ways at least
  EXPECT_NE(r.out.find("the webhook parses JSON numbers as float64"), std::string::npos);
}

TEST(Newcomer, ACrdWithoutAConversionStanzaIsTestedWithUrlAlone) {
  ExampleWebhook hook;
  TempCrd crd(ExampleWebhook::cronTabCrdPath(), "no-conversion", withoutConversion);
  ASSERT_EQ(textOf(crd.path()).find("conversion:"), std::string::npos);
  auto r = runConvcheck({"run", "--crd", crd.path(), "--url", hook.url(), "--ca-file",
                         hook.pki().caFile(), "--seed", "1", "--tests", "12"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("does not declare webhook conversion"), std::string::npos) << r.out;
  EXPECT_EQ(r.json["kinds"][0]["reviewVersion"], "v1");
  EXPECT_EQ(r.err.find("conversionReviewVersions"), std::string::npos) << r.err;
}

TEST(Newcomer, WithoutUrlTheErrorSaysToPassIt) {
  TempCrd crd(ExampleWebhook::cronTabCrdPath(), "no-conversion-no-url", withoutConversion);
  auto r = runConvcheck({"run", "--crd", crd.path(), "--seed", "1"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("--url"), std::string::npos) << r.out << r.err;
}

TEST(Console, FailuresArePrintedCompactlyWithTheFullObjectsInTheBundle) {
  ExampleWebhookOptions options;
  options.faults = {"lossy-round-trip"};
  ExampleWebhook hook(options);
  fs::path dir = fs::temp_directory_path() / ("convcheck-console-" + std::to_string(::getpid()));
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url", hook.url(),
                         "--ca-file", hook.pki().caFile(), "--seed", "1", "--tests", "60",
                         "--report-dir", dir.string()});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  std::size_t lines = std::count(r.out.begin(), r.out.end(), '\n');
  std::size_t failing = 0;
  for (const auto& k : r.json["kinds"]) failing += k["problems"].size();
  // A header, a few summary lines and at most ~25 lines per problem: no pretty-printed objects.
  EXPECT_LT(lines, 80 + 25 * failing) << r.out;
  EXPECT_EQ(r.out.find("\n        \"metadata\": {"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/request-1.json"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// A directory with a .convcheck.yaml of `text`, removed with it.
struct ConfigDir {
  explicit ConfigDir(const std::string& text)
      : dir(fs::temp_directory_path() / ("convcheck-config-" + std::to_string(::getpid()))) {
    fs::create_directories(dir);
    std::ofstream(dir / ".convcheck.yaml") << text;
  }
  ~ConfigDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file() const { return (dir / ".convcheck.yaml").string(); }
  fs::path dir;
};

TEST(Acknowledged, ADeclaredLossIsListedAsAcknowledgedNotFailed) {
  ExampleWebhookOptions options;
  options.faults = {"drop-field"};  // CronTab: spec.image lost going to v1beta1
  ExampleWebhook hook(options);
  ConfigDir config("acknowledge:\n  - path: spec.image\n    reason: v1beta1 has no image\n");
  auto r = runConvcheck(
      verdictRunArgs(hook, ExampleWebhook::cronTabCrdPath(), {"--config", config.file()}));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Acknowledged differences"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("v1beta1 has no image"), std::string::npos) << r.out;
  int acknowledged = 0;
  for (const auto& t : r.json["kinds"][0]["results"])
    for (const auto& a : t["acknowledged"]) {
      EXPECT_EQ(a["reason"], "v1beta1 has no image");
      EXPECT_NE(a["title"].get<std::string>().find("spec.image"), std::string::npos);
      acknowledged += a["cases"].get<int>();
    }
  EXPECT_GT(acknowledged, 0);
  EXPECT_NE(r.junit.find("acknowledged ("), std::string::npos);
}

TEST(Acknowledged, AnOwnedAnnotationIsAcknowledgedAndTheRealLossStillFails) {
  ExampleWebhookOptions options;
  options.faults = {"owned-annotation-loss"};
  ExampleWebhook hook(options);
  ConfigDir config(
      "acknowledge:\n  - annotation: example.convcheck.dev/converted-by\n"
      "    reason: the webhook records who converted\n");
  auto r = runConvcheck(
      verdictRunArgs(hook, ExampleWebhook::widgetCrdPath(), {"--config", config.file()}));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  for (const auto& t : r.json["kinds"][0]["results"]) {
    if (t["property"] != "round-trip") continue;
    const bool alpha = t["from"] == "v1alpha1" || t["to"] == "v1alpha1";
    EXPECT_EQ(t["failed"].get<int>() > 0, alpha) << t["from"] << "->" << t["to"];
    for (const auto& c : t["causes"]) EXPECT_EQ(c["key"], "round-trip|lost|status.phase");
    ASSERT_FALSE(t["acknowledged"].empty()) << t["from"] << "->" << t["to"];
    EXPECT_EQ(t["acknowledged"][0]["reason"], "the webhook records who converted");
  }
}

TEST(Acknowledged, ADeclarationForAnotherPairAcknowledgesNothing) {
  ExampleWebhookOptions options;
  options.faults = {"drop-field"};
  ExampleWebhook hook(options);
  ConfigDir config(
      "acknowledge:\n  - path: spec.image\n    from: v1beta1\n    to: v9\n    reason: r\n");
  auto r = runConvcheck(
      verdictRunArgs(hook, ExampleWebhook::cronTabCrdPath(), {"--config", config.file()}));
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_TRUE(listHas(r.failedProperties(), "round-trip"));
}

TEST(Acknowledged, DotConvcheckYamlInTheWorkingDirectoryIsReadWithoutAFlag) {
  ExampleWebhookOptions options;
  options.faults = {"drop-field"};
  ExampleWebhook hook(options);
  ConfigDir config("acknowledge:\n  - path: spec.image\n    reason: v1beta1 has no image\n");
  auto r = runConvcheck(verdictRunArgs(hook, ExampleWebhook::cronTabCrdPath()), "",
                        std::chrono::seconds(240), config.dir.string());
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(".convcheck.yaml"), std::string::npos) << r.out;
}

TEST(Acknowledged, ABrokenConfigIsAnInputErrorNamingTheEntry) {
  ConfigDir config("acknowledge:\n  - path: spec.image\n");
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url",
                         "https://127.0.0.1:1/convert", "--config", config.file()});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("acknowledge[0].reason: required"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace convcheck::test
