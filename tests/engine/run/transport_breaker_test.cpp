// The circuit breaker: a run of failed calls stops the run unless an earlier accepted object still
// converts, which is probed at most kMaxProbes times and said once.
#include "engine/run/transport_breaker.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

Exchange acceptedSingle() {
  Exchange ex;
  ex.sent.objects = SharedObjects::own({nlohmann::json{{"metadata", {{"name", "a"}}}}});
  return ex;
}

Exchange rejectedProbe() {
  Exchange ex;
  ex.verdict.stage = ModelStage::Transport;
  return ex;
}

TEST(TransportBreaker, StopsAfterTheLimitWhenNothingWasEverConverted) {
  int probes = 0;
  TransportBreaker breaker(3, [&](const SentReview&) {
    ++probes;
    return Exchange{};
  });
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Continue);
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Continue);
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Stop);
  EXPECT_EQ(breaker.failuresInARow(), 3);
  EXPECT_EQ(probes, 0);
}

TEST(TransportBreaker, AnAnswerResetsTheCount) {
  TransportBreaker breaker(2, [](const SentReview&) { return rejectedProbe(); });
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Continue);
  breaker.answered(Exchange{});
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Continue);
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Stop);
}

TEST(TransportBreaker, GoesOnWhileAnEarlierObjectStillConvertsAndSaysSoOnce) {
  std::vector<std::string> probed;
  TransportBreaker breaker(2, [&](const SentReview& sent) {
    probed.push_back(sent.objects.at(0)["metadata"]["name"]);
    return Exchange{};
  });
  breaker.answered(acceptedSingle());
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Continue);
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::StillAnswers);
  EXPECT_EQ(breaker.failuresInARow(), 0);
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Continue);
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Continue);
  EXPECT_EQ(probed, (std::vector<std::string>{"a", "a"}));
}

TEST(TransportBreaker, StopsWhenTheProbeFailsOrAfterTwentyProbes) {
  TransportBreaker gone(1, [](const SentReview&) { return rejectedProbe(); });
  gone.answered(acceptedSingle());
  EXPECT_EQ(gone.failed(), TransportBreaker::Decision::Stop);

  int probes = 0;
  TransportBreaker flaky(1, [&](const SentReview&) {
    ++probes;
    return Exchange{};
  });
  flaky.answered(acceptedSingle());
  for (int i = 0; i < TransportBreaker::kMaxProbes; ++i)
    EXPECT_NE(flaky.failed(), TransportBreaker::Decision::Stop) << i;
  EXPECT_EQ(flaky.failed(), TransportBreaker::Decision::Stop);
  EXPECT_EQ(probes, TransportBreaker::kMaxProbes);
}

TEST(TransportBreaker, OnlyAnAcceptedSingleObjectCallIsProbedAgain) {
  int probes = 0;
  TransportBreaker breaker(1, [&](const SentReview&) {
    ++probes;
    return Exchange{};
  });
  Exchange batch = acceptedSingle();
  batch.sent.objects = SharedObjects::own({batch.sent.objects.front(), batch.sent.objects.front()});
  breaker.answered(batch);
  Exchange rejected = acceptedSingle();
  rejected.verdict.stage = ModelStage::ResultStatus;
  breaker.answered(rejected);
  EXPECT_EQ(breaker.failed(), TransportBreaker::Decision::Stop);
  EXPECT_EQ(probes, 0);
}

}  // namespace
}  // namespace convcheck
