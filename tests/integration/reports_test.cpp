// End to end: what the reports of a whole run say, from the real binary against the real example
// webhook over TLS: schema findings in kube-apiserver's words with a hint on the likelier fix,
// results.json bounded by problems (no per-(property, pair) findings), and each bundle named after
// the case it holds.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

ConvcheckResult runWithFaults(const std::vector<std::string>& faults, const ScratchDir& dir) {
  ExampleWebhookOptions options;
  options.faults = faults;
  ExampleWebhook hook(options);
  return runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                       "--ca-file", hook.pki().caFile(), "--seed", "1", "--tests", "24",
                       "--report-dir", (dir.path() / "report").string()});
}

TEST(Reports, SchemaViolationsReadAsKubeApiserverSaysThemWithTheLikelierFix) {
  ScratchDir dir;
  auto r = runWithFaults({"schema-invalid-output"}, dir);  // v1beta1 -> v1: spec.port " 80"
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  const json* schema = nullptr;
  for (const auto& p : r.json["kinds"][0]["problems"])
    if (p["example"]["property"] == "schema-valid") schema = &p;
  ASSERT_NE(schema, nullptr) << r.json["kinds"][0]["problems"].dump(1);
  EXPECT_EQ((*schema)["title"].get<std::string>().rfind("spec.port: Invalid value: \"", 0), 0u)
      << (*schema)["title"];
  bool violation = false, hint = false;
  for (const auto& d : (*schema)["example"]["details"]) {
    const std::string line = d.get<std::string>();
    EXPECT_EQ(line.find("valijson"), std::string::npos) << line;
    violation |= line.rfind("index ", 0) == 0 &&
                 line.find(": spec.port: Invalid value: \"") != std::string::npos &&
                 line.find("spec.port in body should match '^[0-9]{1,5}$'") != std::string::npos;
    hint |= line.rfind("hint: the webhook wrote spec.port = \"", 0) == 0 &&
            line.find("likelier fix: the webhook") != std::string::npos;
  }
  EXPECT_TRUE(violation) << (*schema)["example"]["details"].dump(1);
  EXPECT_TRUE(hint) << (*schema)["example"]["details"].dump(1);
  EXPECT_NE(r.out.find("spec.port in body should match"), std::string::npos) << r.out;
}

TEST(Reports, ResultsAreBoundedByProblemsAndEachBundleHoldsTheCaseItIsNamedAfter) {
  ScratchDir dir;
  auto r = runWithFaults({"drop-field", "schema-invalid-output"}, dir);
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(r.json["format"], 3);
  for (const auto& t : r.json["kinds"][0]["results"]) EXPECT_FALSE(t.contains("findings"));
  EXPECT_LT(r.json.dump(2).size(), 512u * 1024) << "a few problems, a few hundred kB at most";
  const auto& problems = r.json["kinds"][0]["problems"];
  ASSERT_GE(problems.size(), 2u) << problems.dump(1);
  for (const auto& p : problems) {
    const json& example = p["example"];
    ASSERT_TRUE(p.contains("bundle")) << p.dump(1);
    const fs::path bundle = p["bundle"].get<std::string>();
    // The directory's name says the pair and property of the case inside it.
    EXPECT_EQ(bundle.filename().string(), "CronTab-" + p["id"].get<std::string>() + "-" +
                                              example["from"].get<std::string>() + "-" +
                                              example["to"].get<std::string>() + "-" +
                                              example["property"].get<std::string>());
    const json b = readJsonFile(bundle / "bundle.json");
    EXPECT_EQ(b["property"], example["property"]);
    EXPECT_EQ(b["from"], example["from"]);
    EXPECT_EQ(b["to"], example["to"]);
    // The console names the same bundle.
    EXPECT_NE(r.out.find(bundle.filename().string()), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace convcheck::test
