// The zero-value probe: a shrunk loss of "", 0 or false is run again with a non-zero value there;
// only a webhook that then keeps the field takes zeros for absent.
#include "engine/run/zero_value_probe.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

Finding lossOfZeroReplicas() {
  Finding f;
  f.property = "round-trip";
  f.caseObjects = SharedObjects::own(
      {json{{"metadata", {{"name", "b"}}}, {"spec", {{"replicas", 5}}}},
       json{{"metadata", {{"name", "a"}}}, {"spec", {{"replicas", 0}, {"colour", "red"}}}}});
  f.expected = f.caseObjects[1];
  f.got = json{{"metadata", {{"name", "a"}}}, {"spec", {{"colour", "red"}}}};
  return f;
}

TEST(ZeroValueProbe, AWebhookThatKeepsANonZeroValueTakesZerosForAbsent) {
  std::vector<json> tried;
  ZeroValueProbe probe{[&](const std::vector<json>& batch) {
                         tried = batch;
                         return batch[1]["spec"]["replicas"] == 0;  // drops only a 0
                       },
                       [](const json&) { return true; }};
  EXPECT_EQ(losesOnlyZeroValues(lossOfZeroReplicas(), probe), true);
  ASSERT_EQ(tried.size(), 2u);
  EXPECT_EQ(tried[1]["spec"]["replicas"], 1);  // the object the finding is about, not another
  EXPECT_EQ(tried[0]["spec"]["replicas"], 5);
}

TEST(ZeroValueProbe, AWebhookThatLosesTheFieldWhateverItsValueDoesNot) {
  ZeroValueProbe probe{[](const std::vector<json>&) { return true; },
                       [](const json&) { return true; }};
  EXPECT_EQ(losesOnlyZeroValues(lossOfZeroReplicas(), probe), false);
}

TEST(ZeroValueProbe, NoProbeWhenTheNonZeroObjectIsInvalidOrTheLostValueIsNotZero) {
  int runs = 0;
  ZeroValueProbe invalid{[&](const std::vector<json>&) { return ++runs, false; },
                         [](const json&) { return false; }};
  EXPECT_EQ(losesOnlyZeroValues(lossOfZeroReplicas(), invalid), std::nullopt);
  Finding f = lossOfZeroReplicas();
  std::vector<json> objects = f.caseObjects.copy();
  objects[1]["spec"]["replicas"] = 3;
  f.caseObjects = SharedObjects::own(objects);
  f.expected = f.caseObjects[1];
  ZeroValueProbe valid{[&](const std::vector<json>&) { return ++runs, false; },
                       [](const json&) { return true; }};
  EXPECT_EQ(losesOnlyZeroValues(f, valid), std::nullopt);
  EXPECT_EQ(runs, 0);
}
}  // namespace
}  // namespace convcheck
