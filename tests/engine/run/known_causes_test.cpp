// A failure whose causes earlier cases already showed is only counted by the tally: the case
// executor drops its exchanges and objects as soon as it is judged, so a case of large objects that
// fails the way earlier ones did holds no batch once more per failure. A new cause keeps them.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/run/kind_context.h"
#include "engine/run/tally.h"
#include "properties/case_executor.h"
#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

json widgetObject() {
  return {{"apiVersion", "example.convcheck.dev/v1"},
          {"kind", "Widget"},
          {"metadata", {{"name", "w"}, {"namespace", "default"}, {"uid", "u-1"}}},
          {"spec", {{"colour", "red"}, {"replicas", 3}}}};
}

// Widget v1 -> v1alpha1 with the drop-field fault: spec.replicas is lost, round-trip fails.
CaseResult runDropField(bool causesKnown, std::vector<std::string>& asked) {
  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  Converter converter(
      crd, std::make_unique<testing::ExampleTarget>(example::FaultSet{example::Fault::DropField}),
      ReviewVersion::V1);
  CaseSettings settings;
  settings.knownCauses = [&](const std::string& property, const std::string& from,
                             const std::string& to, const std::vector<Cause>& causes) {
    asked.push_back(property + " " + from + "->" + to);
    EXPECT_FALSE(causes.empty()) << property;
    return causesKnown;
  };
  CaseExecutor x(crd, converter, settings);
  return x.run({widgetObject()}, "v1", "v1alpha1", 1);
}

TEST(KnownCauses, AFailureOfKnownCausesKeepsItsCausesButNotItsCallsOrObjects) {
  std::vector<std::string> asked;
  CaseResult known = runDropField(true, asked);
  const CheckResult* r = known.find("round-trip");
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->outcome, Outcome::Fail);
  ASSERT_TRUE(r->finding);
  EXPECT_FALSE(r->finding->causes.empty()) << "still counted per cause";
  EXPECT_FALSE(r->finding->summary.empty());
  EXPECT_TRUE(r->finding->exchanges.empty());
  EXPECT_TRUE(r->finding->batch.empty());
  EXPECT_TRUE(r->finding->expected.is_null());
  EXPECT_TRUE(r->finding->got.is_null());
  EXPECT_NE(std::find(asked.begin(), asked.end(), "round-trip v1->v1alpha1"), asked.end());
}

TEST(KnownCauses, AFailureWithANewCauseKeepsEverythingForItsExample) {
  std::vector<std::string> asked;
  CaseResult fresh = runDropField(false, asked);
  const CheckResult* r = fresh.find("round-trip");
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->outcome, Outcome::Fail);
  ASSERT_TRUE(r->finding);
  EXPECT_FALSE(r->finding->causes.empty());
  EXPECT_GE(r->finding->exchanges.size(), 2u) << "forward and back";
  ASSERT_EQ(r->finding->batch.size(), 1u);
  EXPECT_FALSE(r->finding->expected.is_null());
}

Cause causeKeyed(const std::string& key) {
  Cause c;
  c.key = key;
  return c;
}

CheckResult failureWith(const std::string& property, std::vector<Cause> causes) {
  Finding f;
  f.property = property;
  f.causes = std::move(causes);
  return {property, Outcome::Fail, std::move(f), ""};
}

TEST(KnownCauses, TheTallyKnowsACauseOnlyForTheSamePropertyAndPair) {
  Tally t({}, {});
  EXPECT_FALSE(t.knows("round-trip", "v1", "v2", {causeKeyed("a")}));
  t.add(failureWith("round-trip", {causeKeyed("a"), causeKeyed("b")}), "v1", "v2");
  EXPECT_TRUE(t.knows("round-trip", "v1", "v2", {causeKeyed("a")}));
  EXPECT_TRUE(t.knows("round-trip", "v1", "v2", {causeKeyed("b"), causeKeyed("a")}));
  EXPECT_FALSE(t.knows("round-trip", "v1", "v2", {causeKeyed("a"), causeKeyed("c")})) << "c is new";
  EXPECT_FALSE(t.knows("round-trip", "v2", "v1", {causeKeyed("a")})) << "another pair";
  EXPECT_FALSE(t.knows("determinism", "v1", "v2", {causeKeyed("a")})) << "another property";
}

}  // namespace
}  // namespace convcheck
