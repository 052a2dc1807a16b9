// A case's further calls send objects the case already holds (the batch again, the forward call's
// answer on its way back) without a copy, unless the API server would fill in defaults first: then
// the call sends defaulted copies, as kube-apiserver does.
#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "properties/case_executor.h"
#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

json widget(const std::string& name) {
  return {{"apiVersion", "example.convcheck.dev/v1"},
          {"kind", "Widget"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "u-" + name}}},
          {"spec", {{"color", "red"}, {"count", 3}, {"size", "large"}}}};
}

// Each call of one case from v1 to `to` with `properties`, as it was sent: the exchange's address
// of its first object, its version, and the forward call's visible first object.
struct Call {
  const json* first = nullptr;
  json object;
};
struct Calls {
  std::vector<Call> calls;
  const json* forwardVisible = nullptr;
  const json* forwardSent = nullptr;
};

Calls runCase(example::FaultSet faults, const std::string& to, const std::string& property) {
  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  Converter converter(crd, std::make_unique<testing::ExampleTarget>(faults), ReviewVersion::V1);
  Calls seen;
  CaseSettings settings;
  settings.wants = [&](const std::string& p) { return p == property; };
  settings.onCall = [&](const Exchange& ex) {
    if (seen.calls.empty() && !ex.verdict.visible.empty()) {
      seen.forwardVisible = &ex.verdict.visible[0];
      seen.forwardSent = &ex.sent.objects[0];
    }
    seen.calls.push_back({&ex.sent.objects[0], ex.sent.objects[0]});
  };
  CaseExecutor x(crd, converter, settings);
  CaseResult result = x.run({widget("a"), widget("b")}, "v1", to, 1);
  EXPECT_NE(result.forwardCall, nullptr);
  return seen;
}

TEST(SharedCalls, TheWayBackSendsTheForwardAnswerItself) {
  Calls c = runCase({}, "v1beta1", "round-trip");
  ASSERT_EQ(c.calls.size(), 2u) << "forward and back";
  EXPECT_EQ(c.calls[1].first, c.forwardVisible);
  EXPECT_EQ(objectVersion(c.calls[1].object), "v1beta1");
}

TEST(SharedCalls, TheSameBatchAgainIsTheForwardBatchItself) {
  Calls c = runCase({}, "v1beta1", "determinism");
  ASSERT_EQ(c.calls.size(), 2u);
  EXPECT_EQ(c.calls[1].first, c.forwardSent);
}

// legacy-version-loss drops spec.size going to v1alpha1, whose schema defaults it to "medium": the
// way back sends a defaulted copy, as the API server would, not the answer itself.
TEST(SharedCalls, ObjectsThatNeedDefaultsAreSentAsDefaultedCopies) {
  Calls c = runCase(example::FaultSet{example::Fault::LegacyVersionLoss}, "v1alpha1", "round-trip");
  ASSERT_EQ(c.calls.size(), 2u);
  EXPECT_NE(c.calls[1].first, c.forwardVisible);
  EXPECT_EQ(c.calls[1].object["spec"]["size"], "medium");
}

// An exchange keeps no copy of its request text: requestBodyOf encodes it again from what was sent,
// byte for byte what the target received, for every call of a case (reports and bundles use it).
class RecordingTarget : public ReviewTarget {
 public:
  RecordingTarget(std::vector<std::string>& posted) : posted_(posted) {}
  HttpResult post(const std::string& body) override {
    posted_.push_back(body);
    return inner_.post(body);
  }

 private:
  std::vector<std::string>& posted_;
  testing::ExampleTarget inner_{example::FaultSet{example::Fault::LossyRoundTrip}};
};

TEST(SharedCalls, TheRequestBodyOfEveryCallIsTheOnePosted) {
  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  std::vector<std::string> posted, encoded;
  Converter converter(crd, std::make_unique<RecordingTarget>(posted), ReviewVersion::V1);
  CaseSettings settings;
  settings.onCall = [&](const Exchange& ex) { encoded.push_back(requestBodyOf(ex)); };
  CaseExecutor x(crd, converter, settings);
  x.run({widget("a"), widget("b"), widget("c")}, "v1", "v1beta1", 1);
  ASSERT_GE(posted.size(), 5u) << "forward, back, again, alone, reordered";
  EXPECT_EQ(encoded, posted);
}

}  // namespace
}  // namespace convcheck
