// `convcheck upgrade` and `convcheck diff` on the real binary against real example webhooks (the
// first release of examples/ and its second, examples/crds/release2, started by convcheck with
// --old-webhook-command and --new-webhook-command): a correct upgrade passes, and each upgrade
// fault of the examples is found by the check made for it, at the step it breaks, in
// kube-apiserver's words; reports and bundles that replay against either release; diff of two
// webhooks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string webhookCommand(const std::vector<std::string>& flags = {}) {
  std::string command = ExampleWebhook::binaryPath();
  for (const auto& f : flags) command += " " + f;
  return command + " --cert {certdir}/tls.crt --key {certdir}/tls.key --port {port}";
}

std::string release2Crd(const std::string& fault = "") {
  const std::string dir = ExampleWebhook::examplesDir() + "/crds/release2/";
  return fault.empty() ? dir + "widgets.example.convcheck.dev.yaml"
                       : dir + "faults/" + fault + ".yaml";
}

// An upgrade of the example Widget from release 1 (objects stored in v1alpha1 and v1beta1 before)
// to `newCrd` converted by the second release's webhook with `newFlags`.
ConvcheckResult upgrade(const std::string& newCrd, const std::vector<std::string>& newFlags = {},
                        std::vector<std::string> more = {}, const std::string& objects = "6") {
  std::vector<std::string> newWebhook = {"--release", "2"};
  newWebhook.insert(newWebhook.end(), newFlags.begin(), newFlags.end());
  std::vector<std::string> args = {"upgrade",
                                   "--crd",
                                   ExampleWebhook::widgetCrdPath(),
                                   "--new-crd",
                                   newCrd,
                                   "--old-webhook-command",
                                   webhookCommand(),
                                   "--new-webhook-command",
                                   webhookCommand(newWebhook),
                                   "--stored-versions",
                                   "v1alpha1,v1beta1",
                                   "--objects",
                                   objects,
                                   "--seed",
                                   "3"};
  args.insert(args.end(), more.begin(), more.end());
  return runConvcheck(args);
}

const json& problems(const ConvcheckResult& r) { return r.json["kinds"][0]["problems"]; }

std::set<std::string> problemKeys(const ConvcheckResult& r) {
  std::set<std::string> keys;
  for (const auto& p : problems(r)) keys.insert(p["key"].get<std::string>());
  return keys;
}

// The properties (steps) a problem breaks.
std::set<std::string> stepsOf(const json& problem) {
  std::set<std::string> steps;
  for (const auto& s : problem["sites"]) steps.insert(s["property"].get<std::string>());
  return steps;
}

TEST(Upgrade, ACorrectUpgradeOfTheExamplePassesWithExitZero) {
  auto r = upgrade(release2Crd());
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_TRUE(problems(r).empty()) << r.out;
  std::set<std::string> passed;
  for (const auto& t : r.json["kinds"][0]["results"])
    if (t["passed"].get<int>() > 0) passed.insert(t["property"].get<std::string>());
  EXPECT_EQ(passed, (std::set<std::string>{"store", "read-after-upgrade", "migrate", "rollback",
                                           "crd-change"}));
  EXPECT_GT(r.json["kinds"][0]["requests"].get<int>(), 100);
  EXPECT_NE(r.out.find("migrated by a StorageVersionMigration"), std::string::npos) << r.out;
}

TEST(Upgrade, ANewWebhookThatConvertsAStoredVersionDifferentlyIsOneProblemAtEveryStepItBreaks) {
  auto r = upgrade(release2Crd(), {"--fault", "converts-stored-differently"});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  ASSERT_EQ(problems(r).size(), 1u) << r.out;
  EXPECT_EQ(problems(r)[0]["key"], "field|spec.size");
  EXPECT_EQ(stepsOf(problems(r)[0]),
            (std::set<std::string>{"read-after-upgrade", "migrate", "rollback"}));
  EXPECT_NE(r.out.find("breaks read-after-upgrade"), std::string::npos) << r.out;
}

TEST(Upgrade, ADroppedConversionPathFailsEveryReadOfTheObjectsStoredInItsVersion) {
  auto r = upgrade(release2Crd(), {"--fault", "drops-v1alpha1"});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  ASSERT_FALSE(problems(r).empty()) << r.out;
  // One rejection; problem identity masks object names, but a name made of digits alone ("9")
  // is masked as a number, so such an object may make a second problem of it.
  for (const json& p : problems(r)) {
    EXPECT_EQ(p["key"].get<std::string>().rfind("rejected|result-status|", 0), 0u) << p["key"];
    EXPECT_NE(p["key"].get<std::string>().find("unexpected conversion version"), std::string::npos);
    EXPECT_TRUE(stepsOf(p).count("read-after-upgrade"));
    for (const auto& site : p["sites"]) EXPECT_EQ(site["from"], "v1alpha1") << site;
  }
  EXPECT_NE(problems(r)[0]["example"]["apiserverMessage"].get<std::string>().find(
                "unexpected conversion version example.convcheck.dev/v1alpha1"),
            std::string::npos);
  // Nothing stored in v1alpha1 (status.storedVersions without it): nothing breaks.
  auto unstored =
      runConvcheck({"upgrade", "--crd", ExampleWebhook::widgetCrdPath(), "--new-crd", release2Crd(),
                    "--old-webhook-command", webhookCommand(), "--new-webhook-command",
                    webhookCommand({"--release", "2", "--fault", "drops-v1alpha1"}), "--objects",
                    "4", "--seed", "3"});
  EXPECT_EQ(unstored.status.code, 0) << unstored.out << unstored.err;
}

TEST(Upgrade, ANewRequiredFieldWithoutADefaultIsRejectedOnTheNextUpdateInKubeApiserversWords) {
  auto r = upgrade(release2Crd("required-without-default"));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(problemKeys(r), std::set<std::string>{"unwritable|spec.owner"}) << r.out;
  const json& example = problems(r)[0]["example"];
  EXPECT_NE(example["apiserverMessage"].get<std::string>().find(
                "\" is invalid: spec.owner: Required value"),
            std::string::npos)
      << example["apiserverMessage"];
  EXPECT_EQ(stepsOf(problems(r)[0]), std::set<std::string>{"crd-change"});
  for (const auto& site : problems(r)[0]["sites"]) EXPECT_EQ(site["to"], "v2");
}

TEST(Upgrade, ANarrowerSchemaNamesEachFieldItRejects) {
  auto r = upgrade(release2Crd("narrower-schema"), {}, {}, "25");
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  const auto keys = problemKeys(r);
  EXPECT_TRUE(keys.count("unwritable|spec.colour")) << r.out;
  EXPECT_TRUE(keys.count("unwritable|spec.size")) << r.out;
  EXPECT_NE(r.out.find("spec.size: Unsupported value: \"large\": supported values: \"small\", "
                       "\"medium\""),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("spec.colour: Too long: may not be more than 8 bytes"), std::string::npos);
}

TEST(Upgrade, AStorageMoveWithoutAMigrationStepIsReportedUnlessTheReleaseMigrates) {
  auto r = upgrade(release2Crd("storage-without-migration"));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(problemKeys(r),
            std::set<std::string>{"crd-change|storage-without-migration|v1beta1|v1"})
      << r.out;
  auto migrated = upgrade(release2Crd("storage-without-migration"), {}, {"--migrated"});
  EXPECT_EQ(migrated.status.code, 0) << migrated.out << migrated.err;
}

TEST(Upgrade, ARollbackThatCannotReadTheNewStorageVersionIsImpossibleOnceAnythingIsWritten) {
  auto r = upgrade(release2Crd("storage-on-new-version"));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(problemKeys(r), std::set<std::string>{"rollback|impossible|v2"}) << r.out;
  EXPECT_NE(problems(r)[0]["title"].get<std::string>().find(
                "rollback impossible once anything is written"),
            std::string::npos);
  EXPECT_NE(problems(r)[0]["example"]["apiserverMessage"].get<std::string>().find(
                "status.storedVersions[2]: Invalid value: \"v2\": must appear in spec.versions"),
            std::string::npos);
}

TEST(Upgrade, AStoredVersionRemovedFromTheNewCrdIsRejectedWithTheCrdUpdate) {
  auto r = upgrade(release2Crd("v1alpha1-removed"));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(problemKeys(r), std::set<std::string>{"crd-change|stored-version-removed|v1alpha1"})
      << r.out;
  EXPECT_NE(problems(r)[0]["example"]["apiserverMessage"].get<std::string>().find(
                "status.storedVersions[0]: Invalid value: \"v1alpha1\": must appear in "
                "spec.versions"),
            std::string::npos);
}

TEST(Upgrade, AVersionNoLongerServedThatClientsStillUseIsReported) {
  ScratchDir dir;
  const std::string objects = (dir.path() / "widgets.yaml").string();
  std::ofstream(objects) << R"(apiVersion: example.convcheck.dev/v1alpha1
kind: Widget
metadata:
  name: legacy-client
  namespace: default
  managedFields:
    - manager: old-operator
      operation: Update
      apiVersion: example.convcheck.dev/v1alpha1
      fieldsType: FieldsV1
      fieldsV1: {}
spec:
  color: red
  count: 3
)";
  auto r = upgrade(release2Crd(), {}, {"--objects-from", objects}, "0");
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(problemKeys(r), std::set<std::string>{"crd-change|unserved-still-requested|v1alpha1"})
      << r.out;
  EXPECT_NE(r.out.find("found by: " + objects + ", document 1"), std::string::npos) << r.out;
}

TEST(Upgrade, AnAcknowledgedDifferenceDoesNotFailTheUpgrade) {
  ScratchDir dir;
  const std::string config = (dir.path() / "convcheck.yaml").string();
  std::ofstream(config) << "upgrade:\n  jobs: 3\nacknowledge:\n  - path: spec.size\n    reason: "
                           "release 2 maps sizes anew on purpose\n";
  auto r = upgrade(release2Crd(), {"--fault", "converts-stored-differently"}, {"--config", config});
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Acknowledged differences"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("release 2 maps sizes anew on purpose"), std::string::npos);
  // The reproduction names what the file's upgrade: map gave.
  const std::string command = r.json["command"];
  EXPECT_NE(command.find("--jobs=3"), std::string::npos) << command;
  EXPECT_NE(command.find("--config " + config), std::string::npos) << command;
}

TEST(Upgrade, ReportsNameTheStepAndBundlesReplayAgainstEitherRelease) {
  ScratchDir dir;
  ExampleWebhook oldHook;
  ExampleWebhookOptions release2;
  release2.faults = {"converts-stored-differently"};
  release2.program = {ExampleWebhook::binaryPath(), "--release", "2"};
  ExampleWebhook newHook(release2);
  const std::string reports = (dir.path() / "out").string();
  auto r =
      runConvcheck({"upgrade", "--crd", ExampleWebhook::widgetCrdPath(), "--new-crd", release2Crd(),
                    "--old-url", oldHook.url(), "--old-ca-file", oldHook.pki().caFile(),
                    "--new-url", newHook.url(), "--new-ca-file", newHook.pki().caFile(),
                    "--objects", "6", "--seed", "3", "--report-dir", reports});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.junit.find("read-after-upgrade"), std::string::npos);
  for (const char* file : {"summary.md", "crd-old.json", "crd-new.json"})
    EXPECT_TRUE(fs::exists(fs::path(reports) / file)) << file;
  const std::string bundle = problems(r)[0]["example"]["bundle"];
  ASSERT_TRUE(fs::exists(fs::path(bundle) / "release.json")) << bundle;
  auto again = runConvcheckExactly({"replay", bundle});
  EXPECT_EQ(again.status.code, 1) << again.out << again.err;
  EXPECT_NE(again.out.find("against the new release at " + newHook.url()), std::string::npos)
      << again.out;
  EXPECT_NE(again.out.find("still fails"), std::string::npos) << again.out;
  // The first release reads it as it did before the upgrade: the difference is the new one's.
  auto old = runConvcheckExactly({"replay", bundle, "--release", "old"});
  EXPECT_EQ(old.status.code, 0) << old.out << old.err;
  EXPECT_NE(old.out.find("passes now"), std::string::npos) << old.out;
}

TEST(Upgrade, AReleaseWhoseWebhookCannotBeReachedIsExitThree) {
  auto r = runConvcheck({"upgrade", "--crd", ExampleWebhook::widgetCrdPath(), "--new-crd",
                         release2Crd(), "--old-webhook-command", webhookCommand(), "--new-url",
                         "https://127.0.0.1:1/convert", "--objects", "2", "--seed", "1"});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("could not reach the new release's webhook"), std::string::npos) << r.err;
}

TEST(Upgrade, BadInputIsExitTwoNamingIt) {
  auto r = runConvcheck({"upgrade", "--crd", ExampleWebhook::widgetCrdPath(), "--new-crd",
                         "/no/such/crd.yaml", "--old-webhook-command", webhookCommand(),
                         "--new-webhook-command", webhookCommand({"--release", "2"})});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("/no/such/crd.yaml"), std::string::npos) << r.err;
  auto quote = runConvcheck({"upgrade", "--crd", ExampleWebhook::widgetCrdPath(), "--new-crd",
                             release2Crd(), "--new-webhook-command", "webhook 'unterminated"});
  EXPECT_EQ(quote.status.code, 2);
  EXPECT_NE(quote.err.find("--new-webhook-command: unterminated ' quote"), std::string::npos)
      << quote.err;
}

ConvcheckResult diff(const std::vector<std::string>& newFlags, const std::string& crd) {
  return runConvcheck({"diff", "--crd", crd, "--old-webhook-command", webhookCommand(),
                       "--new-webhook-command", webhookCommand(newFlags), "--tests", "25", "--seed",
                       "5"});
}

TEST(Diff, TheSameWebhookTwiceBehavesAlike) {
  auto r = diff({}, ExampleWebhook::widgetCrdPath());
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_TRUE(problems(r).empty());
  EXPECT_GT(r.json["kinds"][0]["requests"].get<int>(), 100);
}

TEST(Diff, EveryBehaviourDifferenceIsOneProblemFoldedAsRunFoldsThem) {
  auto r = diff({"--fault", "drop-field"}, ExampleWebhook::widgetCrdPath());
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  // drop-field loses Widget replicas going to v1alpha1, where it is called count.
  EXPECT_EQ(problemKeys(r), std::set<std::string>{"field|spec.count"}) << r.out;
  EXPECT_EQ(stepsOf(problems(r)[0]), std::set<std::string>{"same-behaviour"});
  // Shrunk as run shrinks: the first case that showed it, made smaller with the same cause.
  const json& shrink = problems(r)[0]["example"]["shrink"];
  ASSERT_TRUE(shrink.is_object()) << problems(r)[0]["example"];
  EXPECT_TRUE(shrink["reproduced"].get<bool>());
  EXPECT_EQ(shrink["shrunkObjects"], 1);
  EXPECT_LE(shrink["shrunkFields"].get<int>(), shrink["originalFields"].get<int>());
  auto rejects = diff({"--fault", "failure-result"}, ExampleWebhook::cronTabCrdPath());
  ASSERT_EQ(rejects.status.code, 1) << rejects.out << rejects.err;
  ASSERT_FALSE(problems(rejects).empty()) << rejects.out;
  for (const json& p : problems(rejects)) {  // (a name of digits alone may split it, as above)
    EXPECT_EQ(p["key"].get<std::string>().rfind("rejected|result-status|", 0), 0u) << p["key"];
    EXPECT_NE(p["key"].get<std::string>().find("name ends in a digit"), std::string::npos);
  }
}

TEST(Diff, AShrunkDifferencesBundleReplaysAgainstEitherWebhook) {
  ScratchDir dir;
  ExampleWebhook oldHook;
  ExampleWebhookOptions faulty;
  faulty.faults = {"drop-field"};
  ExampleWebhook newHook(faulty);
  const std::string reports = (dir.path() / "out").string();
  auto r = runConvcheck({"diff", "--crd", ExampleWebhook::widgetCrdPath(), "--old-url",
                         oldHook.url(), "--old-ca-file", oldHook.pki().caFile(), "--new-url",
                         newHook.url(), "--new-ca-file", newHook.pki().caFile(), "--tests", "25",
                         "--seed", "5", "--report-dir", reports});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  ASSERT_TRUE(problems(r)[0]["example"]["shrink"].is_object()) << problems(r)[0]["example"];
  const std::string bundle = problems(r)[0]["example"]["bundle"];
  ASSERT_TRUE(fs::exists(fs::path(bundle) / "release.json")) << bundle;
  // The shrunk objects are sent with their schema defaults, as the comparison sent them.
  auto again = runConvcheckExactly({"replay", bundle});
  EXPECT_EQ(again.status.code, 1) << again.out << again.err;
  EXPECT_NE(again.out.find("still fails"), std::string::npos) << again.out;
  auto old = runConvcheckExactly({"replay", bundle, "--release", "old"});
  EXPECT_EQ(old.status.code, 0) << old.out << old.err;
  EXPECT_NE(old.out.find("passes now"), std::string::npos) << old.out;
}

}  // namespace
}  // namespace convcheck::test
