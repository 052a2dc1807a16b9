// End to end, kcp's webhook-free conversions: `convcheck run --conversion` converts with an
// APIConversion's CEL rules in the convcheck process (no webhook, no network: the kcp target kind)
// and judges them like a webhook. The examples in examples/kcp: kcp's documented ones, a correct
// rule set and three faulty ones, each found by the property it breaks; bad input exits 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tests/integration/convcheck_binary.h"

namespace convcheck::test {
namespace {

std::string example(const std::string& name) {
  return std::string(CONVCHECK_SOURCE_DIR) + "/examples/kcp/" + name;
}

ConvcheckResult runKcp(const std::string& crd, const std::string& conversion,
                       std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "run", "--crd", example(crd), "--conversion", example(conversion), "--seed", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return runConvcheck(args);
}

bool failed(const ConvcheckResult& r, const std::string& property) {
  const auto all = r.failedProperties();
  return std::find(all.begin(), all.end(), property) != all.end();
}

// The titles of the kind's problems, one a line.
std::string problemTitles(const ConvcheckResult& r) {
  std::string out;
  if (!r.json.is_object()) return out;
  for (const auto& p : r.json["kinds"][0]["problems"]) out += p.value("title", "") + "\n";
  return out;
}

TEST(KcpConversion, CorrectRulesHoldEveryPropertyWithoutAWebhook) {
  auto r = runKcp("people-crd.yaml", "people-conversion.yaml", {"--tests", "40"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_TRUE(r.failedProperties().empty()) << r.out;
  ASSERT_TRUE(r.json.is_object()) << r.err;
  EXPECT_EQ(r.json["kinds"][0]["url"], "kcp://" + example("people-conversion.yaml"));
  EXPECT_GT(r.json["kinds"][0]["requests"].get<long long>(), 0);
  // The preserve annotation kcp adds is its bookkeeping, listed as acknowledged.
  EXPECT_NE(r.out.find("acknowledged difference"), std::string::npos) << r.out;
  // The CRD's strategy None is what kcp needs: no note about a missing webhook strategy.
  EXPECT_EQ(r.out.find("does not declare webhook conversion"), std::string::npos) << r.out;
}

TEST(KcpConversion, ARuleMissingForOneDirectionLosesItsField) {
  auto r = runKcp("people-crd.yaml", "people-missing-rule-bug.yaml", {"--tests", "40"});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_TRUE(failed(r, "round-trip")) << r.out;
  EXPECT_NE(problemTitles(r).find("spec.lastName is lost"), std::string::npos) << r.out;
}

TEST(KcpConversion, APreserveListThatForgetsAFieldLosesIt) {
  auto r = runKcp("people-crd.yaml", "people-forgotten-preserve-bug.yaml", {"--tests", "40"});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_TRUE(failed(r, "round-trip")) << r.out;
  EXPECT_NE(problemTitles(r).find("spec.pronouns is lost"), std::string::npos) << r.out;
}

TEST(KcpConversion, ARuleThatFailsOnAPartialObjectIsNamedAndItsBundleReplays) {
  ScratchDir dir("convcheck-kcp");
  auto r = runKcp("people-crd.yaml", "people-partial-object-bug.yaml",
                  {"--tests", "40", "--report-dir", dir.path().string()});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_TRUE(failed(r, "converts-valid-input")) << r.out;
  // Where a webhook's failure would name its URL, this one names the rule.
  EXPECT_NE(r.out.find("CEL rule `spec.conversions[0].rules[0]` (.spec -> .spec.name): error "
                       "converting: error executing transformation: no such key:"),
            std::string::npos)
      << r.out;
  std::filesystem::path bundle;
  for (const auto& e : std::filesystem::directory_iterator(dir.path() / "bundles"))
    if (e.path().filename().string().find("converts-valid-input") != std::string::npos)
      bundle = e.path();
  ASSERT_FALSE(bundle.empty()) << r.out;
  EXPECT_TRUE(std::filesystem::exists(bundle / "request-1.json"));
  EXPECT_FALSE(std::filesystem::exists(bundle / "curl.sh"));  // nothing goes over the network
  auto replay = runConvcheckExactly({"replay", bundle.string()});
  EXPECT_EQ(replay.status.code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("still fails"), std::string::npos) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("spec.conversions[0].rules[0]"), std::string::npos) << replay.out;
}

// kcp's documented example (APIResourceSchema and APIConversion): v2's spec.name.lastUpper is
// computed from the last name on the way in and kept nowhere on the way out, so a value set at v2
// does not survive a write through v1.
TEST(KcpConversion, KcpsDocumentedWidgetsExampleLosesADerivedField) {
  auto r = runKcp("widgets-schema.yaml", "widgets-conversion.yaml");
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_TRUE(failed(r, "round-trip")) << r.out;
  EXPECT_NE(problemTitles(r).find("spec.name.lastUpper"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Widget (widgets.example.io)"), std::string::npos) << r.out;
}

// kcp's design example of a value that becomes a list, the list preserved for the way back: the
// preserved list is restored over v2's hosts, so an edit of spec.host made at v1 is lost.
TEST(KcpConversion, APreservedListWinsOverAnEditMadeThroughTheOtherVersion) {
  auto r = runKcp("hosts-schema.yaml", "hosts-conversion.yaml");
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_TRUE(failed(r, "edit-round-trip")) << r.out;
  EXPECT_NE(problemTitles(r).find("spec.host changes"), std::string::npos) << r.out;
}

TEST(KcpConversion, BadInputExits2NamingTheFileAndField) {
  ScratchDir dir("convcheck-kcp");
  auto withUrl =
      runConvcheck({"run", "--crd", example("people-crd.yaml"), "--conversion",
                    example("people-conversion.yaml"), "--url", "https://127.0.0.1:1/convert"});
  EXPECT_EQ(withUrl.status.code, 2);
  EXPECT_NE(withUrl.err.find("--conversion"), std::string::npos) << withUrl.err;

  const std::string unknownField = (dir.path() / "unknown-field.yaml").string();
  std::ofstream(unknownField)
      << "apiVersion: apis.kcp.io/v1alpha1\nkind: APIConversion\n"
         "metadata: {name: people.example.io}\nspec:\n  conversions:\n"
         "  - from: v1\n    to: v2\n    rules:\n"
         "    - {field: .spec.middleName, destination: .spec.name.middle}\n";
  auto r = runConvcheck({"run", "--crd", example("people-crd.yaml"), "--conversion", unknownField});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(
      r.err.find(unknownField + ": spec.conversions[0].rules[0].field: Invalid value: "
                                "\".spec.middleName\": field \"spec.middleName\" doesn't exist"),
      std::string::npos)
      << r.err;

  const std::string badCel = (dir.path() / "bad-cel.yaml").string();
  std::ofstream(badCel) << "apiVersion: apis.kcp.io/v1alpha1\nkind: APIConversion\n"
                           "metadata: {name: people.example.io}\nspec:\n  conversions:\n"
                           "  - from: v1\n    to: v2\n    rules:\n"
                           "    - {field: .spec.firstName, destination: .spec.name.first,\n"
                           "       transformation: 'self +'}\n";
  auto bad = runConvcheck({"run", "--crd", example("people-crd.yaml"), "--conversion", badCel});
  EXPECT_EQ(bad.status.code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find(badCel + ": spec.conversions[0].rules[0].transformation: Invalid value"),
            std::string::npos)
      << bad.err;

  auto missing = runConvcheck({"run", "--crd", example("people-crd.yaml"), "--conversion",
                               (dir.path() / "none.yaml").string()});
  EXPECT_EQ(missing.status.code, 2);
  EXPECT_NE(missing.err.find("none.yaml: cannot read the file"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace convcheck::test
