// Batch sizes a webhook cannot take: a timeout halves the pair's later batches, a refusal for
// size is bisected to the size at which it starts, and the report says so with the findings.
#include "engine/run/batch_size_limit.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

// An exchange of `objects` objects from `from` to `to` of group example.com.
Exchange exchange(std::size_t objects, const std::string& from = "v1",
                  const std::string& to = "v2") {
  Exchange ex;
  std::vector<json> batch(objects, json{{"apiVersion", "example.com/" + from}, {"kind", "K"}});
  ex.sent.objects = SharedObjects::own(std::move(batch));
  ex.sent.desiredApiVersion = "example.com/" + to;
  ex.http.status = 200;
  return ex;
}

Exchange withStatus(Exchange ex, long status) {
  ex.http.status = status;
  return ex;
}

Exchange failedWith(Exchange ex, TransportErrorKind kind) {
  ex.http.status = 0;
  ex.http.transportErrorKind = kind;
  ex.http.transportError = std::string(transportErrorKindName(kind)) + ": failed";
  return ex;
}

TEST(BatchSizeLimit, ATimeoutOfABatchHalvesTheLargestBatchOfItsPairOnly) {
  BatchSizeLimit limit;
  EXPECT_EQ(limit.cap("v1", "v2"), SIZE_MAX);
  limit.observe(failedWith(exchange(40), TransportErrorKind::Timeout));
  EXPECT_EQ(limit.cap("v1", "v2"), 20u);
  EXPECT_EQ(limit.cap("v2", "v1"), SIZE_MAX);
  limit.observe(
      failedWith(exchange(100), TransportErrorKind::Timeout));  // a larger one changes nothing
  EXPECT_EQ(limit.cap("v1", "v2"), 20u);
  limit.observe(failedWith(exchange(10), TransportErrorKind::Timeout));
  EXPECT_EQ(limit.cap("v1", "v2"), 5u);
}

TEST(BatchSizeLimit, SingleObjectTimeoutsAndOtherFailuresLeaveTheCapAlone) {
  BatchSizeLimit limit;
  limit.observe(failedWith(exchange(1), TransportErrorKind::Timeout));
  limit.observe(failedWith(exchange(50), TransportErrorKind::Protocol));
  limit.observe(withStatus(exchange(50), 500));
  EXPECT_EQ(limit.cap("v1", "v2"), SIZE_MAX);
}

TEST(BatchSizeLimit, RefusalsForSizeAre413AndConnectionsDroppedMidRequest) {
  EXPECT_EQ(sizeRefusal(withStatus(exchange(9), 413)), "HTTP 413");
  EXPECT_EQ(sizeRefusal(failedWith(exchange(9), TransportErrorKind::Protocol)),
            "the connection closed");
  EXPECT_EQ(sizeRefusal(failedWith(exchange(9), TransportErrorKind::Timeout)), std::nullopt);
  EXPECT_EQ(sizeRefusal(withStatus(exchange(9), 500)), std::nullopt);
  EXPECT_EQ(sizeRefusal(exchange(9)), std::nullopt);
}

TEST(BatchSizeLimit, BisectionFindsTheSmallestRefusedAndLargestPassingSizeInFewCalls) {
  BatchSizeLimit limit;
  const Exchange refused = withStatus(exchange(500), 413);
  ASSERT_TRUE(limit.wantsBisection("v1", "v2", refused));
  int calls = 0;
  auto found = limit.bisect("v1", "v2", refused, 500'000, [&](std::size_t n) {
    ++calls;
    return SizeProbe{n >= 137, n * 1000};
  });
  EXPECT_EQ(found.refusedObjects, 137u);
  EXPECT_EQ(found.refusedBytes, 137'000u);
  EXPECT_EQ(found.passedObjects, 136u);
  EXPECT_EQ(found.passedBytes, 136'000u);
  EXPECT_LE(calls, 9);
  EXPECT_NE(found.sentence().find("refused (HTTP 413) from 137 objects (137.0 kB) on; 136 objects "
                                  "(136.0 kB) passed"),
            std::string::npos)
      << found.sentence();
  EXPECT_FALSE(limit.wantsBisection("v1", "v2", refused));  // once per pair
  EXPECT_TRUE(limit.wantsBisection("v2", "v1", withStatus(exchange(500, "v2", "v1"), 413)));
}

TEST(BatchSizeLimit, ABatchRefusedDownToOneObjectIsNotASizeLimit) {
  BatchSizeLimit limit;
  auto found = limit.bisect("v1", "v2", withStatus(exchange(8), 413), 8000, [](std::size_t n) {
    return SizeProbe{true, n * 1000};
  });
  EXPECT_EQ(found.refusedObjects, 1u);
  EXPECT_EQ(found.passedObjects, 0u);
  EXPECT_NE(found.sentence().find("not a size limit"), std::string::npos);
}

TEST(BatchSizeLimit, SingleObjectsAndAnswersAreNeverBisected) {
  BatchSizeLimit limit;
  EXPECT_FALSE(limit.wantsBisection("v1", "v2", withStatus(exchange(1), 413)));
  EXPECT_FALSE(limit.wantsBisection("v1", "v2", exchange(40)));
}

TEST(BatchSizeLimit, TheReportSaysTheLimitInTheFindingsOfThePairItExplains) {
  BatchSizeLimit limit;
  const Exchange refused = withStatus(exchange(500), 413);
  limit.bisect("v1", "v2", refused, 500'000, [](std::size_t n) {
    return SizeProbe{n >= 100, n * 1000};
  });
  limit.observe(failedWith(exchange(32, "v2", "v1"), TransportErrorKind::Timeout));
  KindReport report;
  PropertyTally t;
  t.property = "response-envelope";
  Finding explained;
  explained.from = "v1";
  explained.to = "v2";
  explained.exchanges.push_back(share(refused));
  Finding other = explained;
  other.exchanges = {share(exchange(3))};
  t.findings = {explained, other};
  report.tallies.push_back(t);
  Problem problem;
  problem.title =
      "kube-apiserver rejects the answer: conversion webhook for x/v2 failed: the "
      "server responded with the status code 413 but did not return more information";
  problem.example = explained;
  report.problems = {problem};
  limit.describe(report);
  EXPECT_EQ(report.problems[0].title,
            "requests are refused (HTTP 413) from 100 objects (100.0 kB) on; 99 objects (99.0 kB) "
            "pass (v1 -> v2)");
  ASSERT_EQ(report.tallies[0].findings[0].details.size(), 1u);
  EXPECT_NE(report.tallies[0].findings[0].details[0].find("from 100 objects"), std::string::npos);
  EXPECT_TRUE(report.tallies[0].findings[1].details.empty());
  ASSERT_EQ(report.notes.size(), 2u);
  EXPECT_NE(report.notes[0].find("a batch of 32 objects v2 -> v1 timed out: later cases of the "
                                 "pair sent at most 16 objects"),
            std::string::npos)
      << report.notes[0];
}

}  // namespace
}  // namespace convcheck
