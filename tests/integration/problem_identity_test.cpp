// One defect, one problem: the real convcheck binary against the example webhook over TLS, with
// faults that are one mistake each but go wrong in several fields or messages. Problems are told
// apart after shrinking, by what the webhook does with the shrunk case: fields that fail together
// are one problem, zeros dropped in several fields are one problem, two crashes that read
// different properties are two, and another object's data in this one is data loss.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

using nlohmann::json;

// The problems of a Widget run against the example webhook with `faults` (seed 1).
struct FaultRun {
  explicit FaultRun(std::vector<std::string> faults, const std::string& tests = "40",
                    std::vector<std::string> extra = {}) {
    ExampleWebhookOptions options;
    options.faults = std::move(faults);
    ExampleWebhook hook(options);
    std::vector<std::string> args = {"run",
                                     "--crd",
                                     ExampleWebhook::widgetCrdPath(),
                                     "--url",
                                     hook.url(),
                                     "--ca-file",
                                     hook.pki().caFile(),
                                     "--seed",
                                     "1",
                                     "--tests",
                                     tests};
    args.insert(args.end(), extra.begin(), extra.end());
    result = runConvcheck(args);
    if (result.json.is_object())
      for (const auto& kind : result.json["kinds"])
        for (const auto& p : kind["problems"]) problems.push_back(p);
  }
  std::string titles() const {
    std::string out;
    for (const auto& p : problems)
      out += p["key"].get<std::string>() + ": " + p["title"].get<std::string>() + "\n";
    return out + result.out;
  }
  ConvcheckResult result;
  std::vector<json> problems;
};

TEST(OneDefectOneProblem, ZerosDroppedInSeveralFieldsAreOneProblem) {
  // truthy-copy drops spec.replicas (spec.count at v1alpha1) and status.readyReplicas when 0.
  FaultRun run({"truthy-copy"});
  EXPECT_EQ(run.result.status.code, 1) << run.result.err;
  ASSERT_EQ(run.problems.size(), 1u) << run.titles();
  const json& p = run.problems.front();
  EXPECT_EQ(p["severity"], "data loss");
  EXPECT_FALSE(p["symptomKeys"].empty()) << run.titles();  // several fields were seen
  EXPECT_NE(p["title"].get<std::string>().find("zeros"), std::string::npos) << run.titles();
}

TEST(OneDefectOneProblem, FieldsOfOneParentLostTogetherAreOneProblem) {
  // limits-emptied stashes spec.limits as {}: cpu and memory are lost together.
  FaultRun run({"limits-emptied"});
  EXPECT_EQ(run.result.status.code, 1) << run.result.err;
  ASSERT_EQ(run.problems.size(), 1u) << run.titles();
  const std::string all = run.problems.front().dump();
  EXPECT_NE(all.find("spec.limits.cpu"), std::string::npos) << run.titles();
  EXPECT_NE(all.find("spec.limits.memory"), std::string::npos) << run.titles();
}

TEST(OneDefectOneProblem, TwoCrashesThatReadDifferentPropertiesAreTwoProblems) {
  FaultRun run({"crash-no-status", "crash-no-nickname"});
  EXPECT_EQ(run.result.status.code, 1) << run.result.err;
  ASSERT_EQ(run.problems.size(), 2u) << run.titles();
  auto named = [&](const std::string& read) {
    return std::count_if(run.problems.begin(), run.problems.end(), [&](const json& p) {
      return p["key"].get<std::string>().find("(reading '" + read + "')") != std::string::npos;
    });
  };
  EXPECT_EQ(named("phase"), 1) << run.titles();
  EXPECT_EQ(named("length"), 1) << run.titles();
  // The console's digest names both, whole.
  EXPECT_NE(run.result.out.find("reading 'phase'"), std::string::npos) << run.result.out;
  EXPECT_NE(run.result.out.find("reading 'length'"), std::string::npos) << run.result.out;
}

// Every object of a batch carries the annotations of those before it: one problem, data loss.
void expectOneContaminationProblem(const FaultRun& run) {
  EXPECT_EQ(run.result.status.code, 1) << run.result.err;
  ASSERT_FALSE(run.problems.empty()) << run.titles();
  const auto contamination =
      std::find_if(run.problems.begin(), run.problems.end(), [](const json& p) {
        return p["key"].get<std::string>().find("contamination|metadata.annotations") !=
               std::string::npos;
      });
  ASSERT_NE(contamination, run.problems.end()) << run.titles();
  EXPECT_EQ((*contamination)["severity"], "data loss");
  // The leaked annotations the objects were written with are that one problem, whatever their
  // keys (the stash the webhook writes for each object is its own output, told apart elsewhere).
  for (const auto& p : run.problems) {
    const std::string key = p["key"].get<std::string>();
    EXPECT_FALSE(p["severity"] == "cosmetic" && key.find("annotations") != std::string::npos &&
                 key.find("v1-fields") == std::string::npos)
        << run.titles();
  }
}

TEST(OneDefectOneProblem, AnotherObjectsAnnotationsInThisOneAreDataLossNotCosmetic) {
  expectOneContaminationProblem(FaultRun({"leaks-annotations"}, "20", {"--batch-size", "8"}));
}

TEST(OneDefectOneProblem, InALargeListChunkTooTheLeakedAnnotationsAreThatOneProblem) {
  // A 500-object LIST chunk: its last object came back with hundreds of other objects'
  // annotations (the answer grows with the square of the batch), each key once, and
  // batch-independence sees keys and values of any length added by the batch.
  expectOneContaminationProblem(FaultRun({"leaks-annotations"}, "20"));
}

}  // namespace
}  // namespace convcheck::test
