// End to end, the webhook's code coverage in `convcheck fuzz -- COMMAND`: the example webhook
// built with afl-clang-fast++ attaches the shared-memory map named in its environment and counts
// the edges each review runs (two reviews, two edge sets); convcheck feeds them to libFuzzer
// (more features than with --no-coverage); with --jobs each process starts a webhook and a map of
// its own; an uninstrumented webhook is fuzzed on its behaviour alone, with a notice.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "engine/fuzz/afl_coverage.h"
#include "harness/fuzz/coverage_map.h"
#include "harness/transport/https_client.h"
#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

using nlohmann::json;

std::string review(const std::string& desired, const json& object) {
  return json{
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "ConversionReview"},
      {"request", {{"uid", "0f6b8a5e-1"}, {"desiredAPIVersion", desired}, {"objects", {object}}}}}
      .dump();
}

json objectOf(const std::string& apiVersion, const std::string& kind, const json& spec) {
  return {{"apiVersion", apiVersion},
          {"kind", kind},
          {"metadata", {{"name", "a"}, {"namespace", "default"}, {"uid", "9d3c0f4e-2"}}},
          {"spec", spec}};
}

std::set<std::size_t> edgesOf(const SharedCoverageMap& map) {
  std::set<std::size_t> edges;
  const auto counts = map.counts();
  for (std::size_t i = 1; i < counts.size(); ++i)
    if (counts[i] != 0) edges.insert(i);
  return edges;
}

// The webhook edges a fuzz run reached, from its last progress line (-1: none printed).
long finalEdges(const std::string& err) {
  // convcheck's progress line: "fuzz[0]: 150 cases in 2 s (66.8/s), 113 features, 2131 webhook
  // edges, ...".
  long last = -1;
  const std::regex edges(R"((\d+) webhook edges,)");
  for (auto it = std::sregex_iterator(err.begin(), err.end(), edges); it != std::sregex_iterator();
       ++it)
    last = std::stol((*it)[1]);
  return last;
}

std::vector<std::string> startedWebhook(const std::string& binary) {
  return {
      "--",        binary,   "--cert", "{certdir}/tls.crt", "--key", "{certdir}/tls.key", "--host",
      "127.0.0.1", "--port", "{port}"};
}

std::vector<std::string> fuzzArgs(const ScratchDir& scratch, std::vector<std::string> more) {
  std::vector<std::string> args = {"fuzz", "--crd", ExampleWebhook::widgetCrdPath(), "--report-dir",
                                   (scratch.path() / "reports").string()};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(FuzzCoverage, AnAflBuiltWebhookCountsTheEdgesOfEachReviewInTheMap) {
  if (ExampleWebhook::aflBinaryPath().empty()) GTEST_SKIP() << "afl-clang-fast++ not installed";
  auto made = SharedCoverageMap::create();
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SharedCoverageMap>>(made));
  auto& map = *std::get<std::unique_ptr<SharedCoverageMap>>(made);
  ExampleWebhook webhook(
      {.program = {ExampleWebhook::aflBinaryPath()}, .extraEnv = map.environment()});
  EXPECT_TRUE(webhookAttached(map));
  EXPECT_EQ(map.attachedProcesses(), 2);

  TransportOptions options;
  options.tls.caFile = webhook.pki().caFile();
  HttpsClient client(options);
  auto edgesFor = [&](const std::string& body) {
    map.clear();
    HttpResult answer = client.post(webhook.url(), body);
    EXPECT_EQ(answer.status, 200) << answer.transportError << answer.body;
    return edgesOf(map);
  };
  const std::string cronTabReview =
      review("stable.example.com/v1",
             objectOf("stable.example.com/v1beta1", "CronTab",
                      {{"cronSpec", "*/5 * * * *"}, {"image", "nginx"}, {"replicas", 2}}));
  edgesFor(cronTabReview);  // the first call also runs what is done once (static locals)
  const auto cronTab = edgesFor(cronTabReview);
  const auto widget =
      edgesFor(review("example.convcheck.dev/v1alpha1",
                      objectOf("example.convcheck.dev/v1", "Widget", {{"tags", {"a", "b", "c"}}})));
  // The same review again runs the same edges, but for a few of the server's own (a worker
  // thread's first request): what is read is this review's.
  const auto again = edgesFor(cronTabReview);
  std::size_t changed = 0;
  for (auto e : again) changed += cronTab.count(e) == 0;
  for (auto e : cronTab) changed += again.count(e) == 0;
  EXPECT_LE(changed, 8u);
  EXPECT_GT(cronTab.size(), 100u);
  EXPECT_GT(widget.size(), 100u);
  std::size_t onlyCronTab = 0, onlyWidget = 0;
  for (auto e : cronTab) onlyCronTab += widget.count(e) == 0;
  for (auto e : widget) onlyWidget += cronTab.count(e) == 0;
  // Each kind's converter is code the other review does not reach.
  EXPECT_GT(onlyCronTab, 10u);
  EXPECT_GT(onlyWidget, 10u);
}

TEST(FuzzCoverage, ItsEdgesReachLibFuzzerAsFeatures) {
  if (ExampleWebhook::aflBinaryPath().empty()) GTEST_SKIP() << "afl-clang-fast++ not installed";
  ScratchDir scratch("convcheck-fuzzcov");
  auto run = [&](bool coverage) {
    std::vector<std::string> args = {"--runs", "150", "--seed", "3"};
    if (!coverage) args.push_back("--no-coverage");
    for (const auto& a : startedWebhook(ExampleWebhook::aflBinaryPath())) args.push_back(a);
    return runConvcheckExactly(fuzzArgs(scratch, args));
  };
  const ConvcheckResult with = run(true);
  ASSERT_EQ(with.status.code, 0) << with.out << with.err;
  EXPECT_NE(with.err.find("code coverage from the webhook's AFL++ instrumentation"),
            std::string::npos)
      << with.err;
  const ConvcheckResult without = run(false);
  ASSERT_EQ(without.status.code, 0) << without.out << without.err;
  EXPECT_EQ(without.err.find("code coverage"), std::string::npos) << without.err;
  EXPECT_EQ(without.err.find("no coverage"), std::string::npos) << without.err;
  // Each edge the webhook ran is a counter libFuzzer reads beside the behaviour features.
  EXPECT_GT(finalEdges(with.err), 100) << with.err;
  EXPECT_EQ(finalEdges(without.err), -1) << without.err;
}

// The port of the webhook the job started ("convcheck fuzz: NAME (https://127.0.0.1:PORT/...)")
// and of each process's own ("fuzz[N]: its own webhook at https://127.0.0.1:PORT/...").
std::vector<std::string> webhookUrls(const std::string& err) {
  std::vector<std::string> urls;
  const std::regex url(R"((?:convcheck fuzz: \S+ \(|its own webhook at )(https://[^ ),]+))");
  for (auto it = std::sregex_iterator(err.begin(), err.end(), url); it != std::sregex_iterator();
       ++it)
    urls.push_back((*it)[1]);
  return urls;
}

// The webhook edges process `job` reached, from its last progress line (-1: none printed).
long finalEdgesOf(const std::string& err, int job) {
  long last = -1;
  const std::regex edges("fuzz\\[" + std::to_string(job) + R"(\]: .* (\d+) webhook edges,)");
  for (auto it = std::sregex_iterator(err.begin(), err.end(), edges); it != std::sregex_iterator();
       ++it)
    last = std::stol((*it)[1]);
  return last;
}

// Each process fuzzes a webhook of its own, so the cases of two processes never mix in one map.
TEST(FuzzCoverage, WithSeveralProcessesEachReadsTheMapOfAWebhookOfItsOwn) {
  if (ExampleWebhook::aflBinaryPath().empty()) GTEST_SKIP() << "afl-clang-fast++ not installed";
  ScratchDir scratch("convcheck-fuzzcov");
  std::vector<std::string> args = {"--runs", "150", "--seed", "5", "--jobs", "2"};
  for (const auto& a : startedWebhook(ExampleWebhook::aflBinaryPath())) args.push_back(a);
  const ConvcheckResult r = runConvcheckExactly(fuzzArgs(scratch, args));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("each of the 2 processes fuzzes a webhook with a map of its own"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("with its own AFL++ coverage map"), std::string::npos) << r.err;
  const std::vector<std::string> urls = webhookUrls(r.err);
  ASSERT_EQ(urls.size(), 2u) << r.err;
  EXPECT_NE(urls[0], urls[1]);
  EXPECT_GT(finalEdgesOf(r.err, 0), 100) << r.err;
  EXPECT_GT(finalEdgesOf(r.err, 1), 100) << r.err;
}

// Without instrumentation too: a webhook per process, each at its own port.
TEST(FuzzCoverage, SeveralProcessesStartAWebhookEach) {
  ScratchDir scratch("convcheck-fuzzcov");
  std::vector<std::string> args = {"--runs", "40", "--seed", "6", "--jobs", "3"};
  for (const auto& a : startedWebhook(ExampleWebhook::binaryPath())) args.push_back(a);
  const ConvcheckResult r = runConvcheckExactly(fuzzArgs(scratch, args));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  const std::vector<std::string> urls = webhookUrls(r.err);
  ASSERT_EQ(urls.size(), 3u) << r.err;
  EXPECT_EQ(std::set<std::string>(urls.begin(), urls.end()).size(), 3u) << r.err;
  EXPECT_EQ(r.err.find("with its own AFL++ coverage map"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("fuzz: 120 case(s)"), std::string::npos) << r.out;
}

TEST(FuzzCoverage, AnUninstrumentedWebhookIsFuzzedOnItsBehaviourWithANotice) {
  ScratchDir scratch("convcheck-fuzzcov");
  std::vector<std::string> args = {"--runs", "40", "--seed", "4"};
  for (const auto& a : startedWebhook(ExampleWebhook::binaryPath())) args.push_back(a);
  const ConvcheckResult r = runConvcheckExactly(fuzzArgs(scratch, args));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("no coverage: the webhook was not built with AFL++ instrumentation"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("fuzz[0]: 40 cases"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("fuzz: 40 case(s)"), std::string::npos) << r.out;
}

TEST(FuzzCoverage, AStartedWebhookThatEndsAtOnceIsUnreachable) {
  ScratchDir scratch("convcheck-fuzzcov");
  const ConvcheckResult r = runConvcheckExactly(
      fuzzArgs(scratch, {"--runs", "5", "--", "sh", "-c", "echo 'no certificate' >&2; exit 4"}));
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  const std::string said = r.out + r.err;
  EXPECT_NE(said.find("exited with code 4"), std::string::npos) << said;
  EXPECT_NE(said.find("no certificate"), std::string::npos) << said;
}

TEST(FuzzCoverage, AStartedWebhookGetsNoDescriptorOfConvchecksSoNoForkServerIsAwaited) {
  // A descriptor on AFL++'s fork-server numbers (198, 199), open in convcheck as when it runs
  // under afl-fuzz: an instrumented webhook that inherited 199 would wait for a fork server.
  const int devNull = ::open("/dev/null", O_RDWR);
  ASSERT_GE(devNull, 0);
  ASSERT_EQ(::dup2(devNull, 198), 198);
  ASSERT_EQ(::dup2(devNull, 199), 199);
  ::close(devNull);
  ScratchDir scratch("convcheck-fuzzcov");
  const ConvcheckResult r = runConvcheckExactly(fuzzArgs(
      scratch, {"--runs", "5", "--", "sh", "-c", "echo fds: $(ls /proc/$$/fd) >&2; exit 4"}));
  ::close(198);
  ::close(199);
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  const std::string said = r.out + r.err;
  const auto line = said.find("fds: ");
  ASSERT_NE(line, std::string::npos) << said;
  const std::string fds = said.substr(line, said.find('\n', line) - line);
  EXPECT_EQ(fds.find("198"), std::string::npos) << fds;
  EXPECT_EQ(fds.find("199"), std::string::npos) << fds;
  EXPECT_NE(fds.find("0 1 2"), std::string::npos) << fds;
}

}  // namespace
}  // namespace convcheck::test
