// The run loop on its own: cases, verdicts, exit codes and the circuit breaker, against targets
// that convert in this process (the example webhook's logic, no socket), so each rule is tested
// fast and exactly. The same rules over real HTTPS are in tests/integration.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/run/run_job.h"
#include "engine/run/runner.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using example::Fault;
using example::FaultSet;
using testing::ExampleTarget;
using testing::FailingTarget;

std::string exampleCrd(const std::string& name) {
  return std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/" + name;
}
const std::string kCronTab = "crontabs.stable.example.com.yaml";
const std::string kWidget = "widgets.example.convcheck.dev.yaml";

RunConfig config(const std::string& crd, int tests = 20) {
  RunConfig c;
  c.crdInput = exampleCrd(crd);
  c.url = "inprocess://example";
  c.seed = 7;
  c.testsPerPair = tests;
  c.testsGiven = true;
  c.jobs = 1;
  // Batches of up to 32 objects: the rules tested here need no LIST chunk (500 objects per pair,
  // which costs seconds); the tests of LIST chunks ask for them.
  c.maxBatchSize = 32;
  return c;
}

RunConfig withListChunks(RunConfig c) {
  c.maxBatchSize = 500;
  return c;
}

RunReport run(const RunConfig& c, TargetFactory make) {
  std::istringstream none;
  AccessOptions access;
  access.targets = std::move(make);
  return runJob(c, std::move(access), none).report;
}

TargetFactory example(FaultSet faults = {}) {
  return [faults](const ResolvedTarget&) { return std::make_unique<ExampleTarget>(faults); };
}

const PropertyTally* tally(const RunReport& r, const std::string& property) {
  for (const auto& k : r.kinds)
    for (const auto& t : k.tallies)
      if (t.property == property && t.failed > 0) return &t;
  return nullptr;
}

bool hasNote(const RunReport& r, const std::string& text) {
  for (const auto& k : r.kinds)
    for (const auto& n : k.notes)
      if (n.find(text) != std::string::npos) return true;
  return false;
}

std::string notes(const RunReport& r) {
  std::string out;
  for (const auto& k : r.kinds)
    for (const auto& n : k.notes) out += n + "\n";
  return out;
}

TEST(Runner, TheCorrectExampleConversionPassesEveryPropertyOfBothCrds) {
  for (const auto& crd : {kCronTab, kWidget}) {
    RunReport r = run(config(crd), example());
    EXPECT_EQ(r.exitCode, 0) << crd << ": " << r.fatalError;
    EXPECT_EQ(r.failedProperties(), 0) << crd;
    ASSERT_EQ(r.kinds.size(), 1u);
    EXPECT_GT(r.kinds[0].requests, 0);
    int judged = 0;
    for (const auto& t : r.kinds[0].tallies) judged += t.passed;
    EXPECT_GT(judged, 0) << crd;
  }
}

TEST(Runner, TlsCannotBeJudgedOnATargetThatIsNotHttps) {
  RunReport r = run(config(kCronTab, 5), example());
  bool seen = false;
  for (const auto& t : r.kinds.at(0).tallies)
    if (t.property == "tls") {
      seen = true;
      EXPECT_EQ(t.passed + t.failed, 0);
      EXPECT_EQ(t.blockedBy, "not an https:// URL");
    }
  EXPECT_TRUE(seen);
}

TEST(Runner, AReorderedBatchFailsOrderAndExitsOne) {
  RunReport r = run(config(kWidget), example({Fault::ReverseObjects}));
  EXPECT_EQ(r.exitCode, 1);
  const PropertyTally* order = tally(r, "order");
  ASSERT_NE(order, nullptr);
  ASSERT_FALSE(order->findings.empty());
  // The problem it shows is shrunk once, whichever pair it was first found on.
  const Problem* p = nullptr;
  for (const auto& q : r.kinds.at(0).problems)
    for (const auto& s : q.sites)
      if (s.property == "order" && !p) p = &q;
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->example.shrink);
  EXPECT_LE(p->example.caseObjects.size(), 2u) << "the example is shrunk";
}

TEST(Runner, TheSameSeedGivesTheSameRequestsAndVerdicts) {
  RunReport a = run(config(kWidget), example({Fault::LossyRoundTrip}));
  RunReport b = run(config(kWidget), example({Fault::LossyRoundTrip}));
  ASSERT_EQ(a.kinds.size(), 1u);
  ASSERT_EQ(b.kinds.size(), 1u);
  EXPECT_EQ(a.kinds[0].requests, b.kinds[0].requests);
  ASSERT_EQ(a.kinds[0].tallies.size(), b.kinds[0].tallies.size());
  for (std::size_t i = 0; i < a.kinds[0].tallies.size(); ++i) {
    const auto& x = a.kinds[0].tallies[i];
    const auto& y = b.kinds[0].tallies[i];
    EXPECT_EQ(x.property + x.from + x.to, y.property + y.from + y.to);
    EXPECT_EQ(x.failed, y.failed) << x.property << " " << x.from << "->" << x.to;
    EXPECT_EQ(x.passed, y.passed) << x.property << " " << x.from << "->" << x.to;
  }
}

TEST(Runner, ConcurrentJobsGiveTheSameVerdictsAsOne) {
  RunConfig eight = config(kWidget);
  eight.jobs = 8;
  RunReport a = run(config(kWidget), example({Fault::DropField}));
  RunReport b = run(eight, example({Fault::DropField}));
  ASSERT_EQ(a.kinds.at(0).tallies.size(), b.kinds.at(0).tallies.size());
  for (std::size_t i = 0; i < a.kinds[0].tallies.size(); ++i) {
    EXPECT_EQ(a.kinds[0].tallies[i].failed, b.kinds[0].tallies[i].failed)
        << a.kinds[0].tallies[i].property;
    EXPECT_EQ(a.kinds[0].tallies[i].passed, b.kinds[0].tallies[i].passed)
        << a.kinds[0].tallies[i].property;
  }
}

// Counts the calls in progress across every target of a run (each a little slow, so that calls
// would overlap if the run let them).
class CountingTarget : public ExampleTarget {
 public:
  struct Counts {
    std::atomic<int> now{0};
    std::atomic<int> most{0};
  };
  explicit CountingTarget(std::shared_ptr<Counts> counts)
      : ExampleTarget({}), counts_(std::move(counts)) {}
  HttpResult post(const std::string& body) override {
    int now = ++counts_->now;
    for (int most = counts_->most; now > most && !counts_->most.compare_exchange_weak(most, now);)
      ;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    HttpResult r = ExampleTarget::post(body);
    --counts_->now;
    return r;
  }

 private:
  std::shared_ptr<Counts> counts_;
};

// --jobs N bounds the requests in flight, although a case more than N runs at once (one is judged
// while the others wait for the webhook).
TEST(Runner, JobsBoundsTheRequestsInFlightToTheWebhook) {
  for (int jobs : {1, 3}) {
    auto counts = std::make_shared<CountingTarget::Counts>();
    RunConfig c = config(kWidget, 10);
    c.jobs = jobs;
    RunReport r = run(
        c, [counts](const ResolvedTarget&) { return std::make_unique<CountingTarget>(counts); });
    EXPECT_EQ(r.exitCode, 0) << r.fatalError;
    EXPECT_GT(r.kinds.at(0).requests, 60);
    EXPECT_GE(counts->most.load(), 1);
    EXPECT_LE(counts->most.load(), jobs) << "--jobs " << jobs;
  }
}

// Cases whose forward call the webhook keeps rejecting (HTTP 500 on batches of more than 8) do
// not count towards --tests and are replaced: with cases in flight finishing in any order, the
// same cases are still made as one at a time, so requests and verdicts are the same.
TEST(Runner, ConcurrentJobsMakeTheSameCasesAsOneWhenSomeDoNotCount) {
  RunConfig four = config(kWidget, 30);
  four.jobs = 4;
  RunReport a = run(config(kWidget, 30), example({Fault::Http500Over8}));
  RunReport b = run(four, example({Fault::Http500Over8}));
  EXPECT_EQ(a.exitCode, 1);
  int mostCases = 0;  // determinism is judged once per case (or blocked when it was rejected)
  for (const auto& t : a.kinds.at(0).tallies)
    if (t.property == "determinism")
      mostCases = std::max(mostCases, t.passed + t.failed + t.blocked);
  EXPECT_GT(mostCases, 30) << "some pair replaced cases that did not count";
  EXPECT_EQ(a.kinds.at(0).requests, b.kinds.at(0).requests);
  EXPECT_EQ(a.kinds.at(0).objectsSent, b.kinds.at(0).objectsSent);
  ASSERT_EQ(a.kinds[0].tallies.size(), b.kinds.at(0).tallies.size());
  for (std::size_t i = 0; i < a.kinds[0].tallies.size(); ++i) {
    const auto& x = a.kinds[0].tallies[i];
    const auto& y = b.kinds[0].tallies[i];
    EXPECT_EQ(x.failed, y.failed) << x.property << " " << x.from << "->" << x.to;
    EXPECT_EQ(x.passed, y.passed) << x.property << " " << x.from << "->" << x.to;
  }
}

// Records, per request, which case sent it (the case of the request that first carried the
// first object's uid: every call of a case sends that case's objects, whose uids are unique).
class CaseOrderTarget : public ExampleTarget {
 public:
  struct Seen {
    std::mutex mutex;
    std::map<std::string, int> caseOfUid;
    std::vector<int> cases;  // per request, in the order the target saw them
  };
  explicit CaseOrderTarget(std::shared_ptr<Seen> seen)
      : ExampleTarget({}), seen_(std::move(seen)) {}
  HttpResult post(const std::string& body) override {
    nlohmann::json review = nlohmann::json::parse(body);
    const auto& objects = review["request"]["objects"];
    {
      std::lock_guard<std::mutex> lock(seen_->mutex);
      const int next = static_cast<int>(seen_->caseOfUid.size());
      auto known = seen_->caseOfUid.find(objects.at(0)["metadata"].value("uid", ""));
      const int c = known != seen_->caseOfUid.end() ? known->second : next;
      for (const auto& o : objects) seen_->caseOfUid.emplace(o["metadata"].value("uid", ""), c);
      seen_->cases.push_back(c);
    }
    return ExampleTarget::post(body);
  }

 private:
  std::shared_ptr<Seen> seen_;
};

// Requests of a case that came after another case's request, the case's own having begun.
int interleavedRequests(const std::vector<int>& cases) {
  std::set<int> finished;
  int interleaved = 0;
  for (std::size_t i = 1; i < cases.size(); ++i) {
    if (cases[i] == cases[i - 1]) continue;
    finished.insert(cases[i - 1]);
    if (finished.count(cases[i])) ++interleaved;
  }
  return interleaved;
}

// Requests of different cases that alternated at the webhook in a run of Widget with `c`.
int interleavedIn(RunConfig c) {
  auto seen = std::make_shared<CaseOrderTarget::Seen>();
  RunReport r =
      run(c, [seen](const ResolvedTarget&) { return std::make_unique<CaseOrderTarget>(seen); });
  EXPECT_EQ(r.exitCode, 0) << r.fatalError;
  return interleavedRequests(seen->cases);
}

// With --jobs 1, a second case runs (and so its requests alternate with the first's) only while
// the batches in flight are small: past RunConfig::pipelinedValues, one case at a time.
TEST(Runner, ACaseBeyondJobsRunsOnlyWhileTheBatchesInFlightAreSmall) {
  RunConfig c = config(kWidget, 15);
  c.pipelinedValues = 0;
  EXPECT_EQ(interleavedIn(c), 0) << "one case at a time: each case's requests are consecutive";
  c.pipelinedValues = 1000000;
  EXPECT_GT(interleavedIn(c), 0) << "two cases at a time take turns at the webhook";
}

// Below --jobs too, a case starts only while the batches in flight are small
// (RunConfig::valuesInFlight): with a budget of 0 values, cases of 4 jobs run one at a time.
TEST(Runner, CasesOfLargeBatchesRunOneAfterAnotherWhateverTheJobs) {
  RunConfig c = config(kWidget, 15);
  c.jobs = 4;
  c.valuesInFlight = 0;
  EXPECT_EQ(interleavedIn(c), 0) << "one case at a time: each case's requests are consecutive";
  c.valuesInFlight = 1000000;
  EXPECT_GT(interleavedIn(c), 0) << "four cases at a time take turns at the webhook";
}

TEST(Runner, ATargetThatCannotBeReachedExitsThreeWithTheReason) {
  RunReport r = run(config(kCronTab), [](const ResolvedTarget&) {
    return std::make_unique<FailingTarget>([](const std::string&) { return true; },
                                           TransportErrorKind::Connect);
  });
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.fatalError.find("could not reach the webhook"), std::string::npos) << r.fatalError;
  EXPECT_NE(r.fatalError.find("in-process target failed"), std::string::npos) << r.fatalError;
}

// A webhook that answers at first and then never again: the run stops after
// maxConsecutiveTransportFailures calls instead of spending a timeout on every case.
TEST(Runner, AWebhookThatGoesAwayStopsTheRunAfterAFewFailedCalls) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  RunConfig c = config(kCronTab, 100);
  RunReport r = run(c, [calls](const ResolvedTarget&) {
    return std::make_unique<FailingTarget>([calls](const std::string&) { return ++*calls > 30; },
                                           TransportErrorKind::Timeout);
  });
  EXPECT_EQ(r.exitCode, 1);  // the timeouts it saw are findings
  EXPECT_TRUE(hasNote(r, "stopped after 5 consecutive failed calls")) << notes(r);
  EXPECT_LT(r.kinds.at(0).requests, 30 + 5 + 2 * 20 + 5);  // probes and bounded shrinks only
}

// A webhook that crashes on some inputs (here: every object with a spec.image) but still
// converts the others: the breaker's probe sees it answer and testing goes on.
TEST(Runner, AWebhookThatFailsOnlySomeInputsIsProbedAndTestingGoesOn) {
  RunConfig c = config(kCronTab, 40);
  // One case at a time: the breaker counts failed calls in a row, and a second case's calls
  // landing between them (timing) would break the run of failures it needs to see.
  c.pipelinedValues = 0;
  RunReport r = run(c, [](const ResolvedTarget&) {
    return std::make_unique<FailingTarget>(
        [](const std::string& body) { return body.find("\"image\":") != std::string::npos; },
        TransportErrorKind::Protocol);
  });
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(hasNote(r, "still converts objects it converted before")) << notes(r);
  EXPECT_FALSE(hasNote(r, "stopped after"));
  EXPECT_GT(r.kinds.at(0).requests, 2 * 40) << "every pair got its cases";
}

// The version pair ("v1beta1>v1") and object count of a review body.
std::pair<std::string, std::size_t> pairAndObjects(const std::string& body) {
  const auto review = nlohmann::json::parse(body);
  const auto& objects = review["request"]["objects"];
  auto version = [](const std::string& apiVersion) {
    return apiVersion.substr(apiVersion.find('/') + 1);
  };
  return {
      version(objects.at(0)["apiVersion"]) + ">" + version(review["request"]["desiredAPIVersion"]),
      objects.size()};
}

// Once a batch times out for a pair, the pair's later cases send no batch as large: the LIST
// chunk (500 objects, case 7 of 20) is never sent after the batch of case 3 timed out.
TEST(Runner, AfterABatchTimesOutNoBatchAsLargeOfItsPairIsSent) {
  struct Call {
    std::string pair;
    std::size_t objects;
  };
  auto calls = std::make_shared<std::vector<Call>>();
  auto mutex = std::make_shared<std::mutex>();
  RunConfig c = withListChunks(config(kCronTab, 20));
  c.shrinkBudget = 0;
  RunReport r = run(c, [calls, mutex](const ResolvedTarget&) {
    return std::make_unique<FailingTarget>(
        [calls, mutex](const std::string& body) {
          auto [pair, objects] = pairAndObjects(body);
          std::lock_guard<std::mutex> lock(*mutex);
          calls->push_back({pair, objects});
          return objects >= 2;
        },
        TransportErrorKind::Timeout);
  });
  EXPECT_EQ(r.exitCode, 1) << r.fatalError;
  EXPECT_TRUE(tally(r, "timeout")) << "the timeouts are still reported";
  std::map<std::string, std::size_t> timedOutAt;
  for (const auto& call : *calls) {
    auto first = timedOutAt.find(call.pair);
    if (first != timedOutAt.end())
      EXPECT_LT(call.objects, first->second) << call.pair << " after " << first->second;
    else if (call.objects >= 2)
      timedOutAt[call.pair] = call.objects;
  }
  EXPECT_EQ(timedOutAt.size(), 2u);
  EXPECT_TRUE(hasNote(r, "timed out: later cases of the pair sent at most")) << notes(r);
}

// A LIST chunk stops at half of --max-response-size, so its answer fits under the cap.
TEST(Runner, AListChunkHoldsAtMostHalfTheLargestAnswerRead) {
  struct Largest {
    std::mutex mutex;
    std::size_t bytes = 0, objects = 0;
  };
  auto largest = std::make_shared<Largest>();
  RunConfig c = withListChunks(config(kCronTab, 20));
  c.transport.maxResponseBytes = 200'000;
  RunReport r = run(c, [largest](const ResolvedTarget&) {
    return std::make_unique<FailingTarget>(
        [largest](const std::string& body) {
          std::lock_guard<std::mutex> lock(largest->mutex);
          largest->bytes = std::max(largest->bytes, body.size());
          largest->objects = std::max(largest->objects, pairAndObjects(body).second);
          return false;
        },
        TransportErrorKind::Timeout);
  });
  EXPECT_EQ(r.exitCode, 0) << r.fatalError;
  EXPECT_GT(largest->objects, 32u) << "the LIST chunk was sent";
  EXPECT_LT(largest->objects, 500u) << "and cut";
  EXPECT_LE(largest->bytes, 120'000u);  // 100 kB of objects, their defaults and the review
}

// A webhook that answers 413 to bodies over 100 kB: the LIST chunk is refused, bisected, and the
// finding says from which size on (objects and bytes) and which size passed.
class BodyCapTarget : public ExampleTarget {
 public:
  explicit BodyCapTarget(std::size_t maxBytes) : ExampleTarget({}), maxBytes_(maxBytes) {}
  HttpResult post(const std::string& body) override {
    if (body.size() <= maxBytes_) return ExampleTarget::post(body);
    HttpResult r;
    r.url = "inprocess://example";
    r.status = 413;
    r.contentType = "text/plain";
    r.body = "Payload Too Large";
    return r;
  }

 private:
  std::size_t maxBytes_;
};

TEST(Runner, ABatchRefusedForItsSizeIsBisectedAndItsFindingSaysFromWhichSizeOn) {
  static constexpr std::size_t kCap = 100'000;
  RunConfig c = withListChunks(config(kCronTab, 20));
  c.shrinkBudget = 0;
  RunReport r = run(c, [](const ResolvedTarget&) { return std::make_unique<BodyCapTarget>(kCap); });
  EXPECT_EQ(r.exitCode, 1) << r.fatalError;
  const PropertyTally* t = tally(r, "response-envelope");
  ASSERT_TRUE(t) << notes(r);
  const std::regex sentence(
      R"(refused \(HTTP 413\) from (\d+) objects \(([\d.]+) kB\) on; (\d+) objects \(([\d.]+) kB\) passed)");
  int said = 0;
  for (const auto& f : t->findings)
    for (const auto& d : f.details) {
      std::smatch m;
      if (!std::regex_search(d, m, sentence)) continue;
      ++said;
      EXPECT_EQ(std::stoul(m[1]), std::stoul(m[3]) + 1) << d;
      EXPECT_GT(std::stod(m[2]) * 1000, kCap) << d;
      EXPECT_LE(std::stod(m[4]) * 1000, kCap) << d;
    }
  EXPECT_GT(said, 0) << notes(r);
  EXPECT_TRUE(hasNote(r, "refused (HTTP 413) from")) << notes(r);
}

TEST(Runner, ABrokenCrdIsAnInputErrorNamingTheFile) {
  RunConfig c = config(kCronTab);
  c.crdInput = exampleCrd("no-such-file.yaml");
  RunReport r = run(c, example());
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.fatalError.find("no-such-file.yaml"), std::string::npos) << r.fatalError;
}

}  // namespace
}  // namespace convcheck
