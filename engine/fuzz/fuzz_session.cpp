#include "engine/fuzz/fuzz_session.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "harness/transport/call_failure.h"

namespace convcheck {

CaseSettings fuzzCaseSettings(const KindContext& kind, const FuzzConfig& config,
                              std::function<bool(const std::string&)> wants,
                              std::function<void(const Exchange&)> onCall) {
  CaseSettings settings = kind.caseSettings();
  settings.timeout = config.target.transport.timeout;
  settings.wants = std::move(wants);
  settings.onCall = std::move(onCall);
  return settings;
}

FuzzSession::FuzzSession(const KindContext& kind, const FuzzConfig& config,
                         const TargetFactory& makeTarget, std::string foundDir, int job)
    : config_(config),
      fuzzKind_(fuzzKindOf(kind, static_cast<std::size_t>(config.run.maxBatchSize))),
      mutator_(fuzzKind_),
      converter_(kind.crd(), makeTarget(config.target), config.target.reviewVersion),
      executor_(kind.crd(), converter_,
                fuzzCaseSettings(
                    kind, config, [this](const std::string& property) { return wants(property); },
                    [this](const Exchange& e) { features_.addExchange(e); })),
      foundDir_(std::move(foundDir)),
      job_(job),
      start_(std::chrono::steady_clock::now()),
      lastProgress_(start_),
      lastStats_(start_),
      budget_(config.merge ? std::nullopt : fuzzBudget(config)),
      lastFoundCheck_(start_) {
  if (config.coverage && config.jobs == 1) coverage_.emplace(*config.coverage);
}

bool FuzzSession::wants(const std::string& property) const {
  const auto& selected = config_.run.properties;
  return selected.empty() ||
         std::find(selected.begin(), selected.end(), property) != selected.end();
}

double FuzzSession::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

int FuzzSession::testOne(const std::uint8_t* data, std::size_t size) {
  const FuzzCase c = decodeFuzzCase(fuzzKind_, data, size);
  const std::uint64_t seed = fuzzInputHash(data, size);
  features_.clear();
  ++stats_.execs;
  if (config_.withoutWebhook) {
    for (std::size_t i = 0; i < c.objects.size(); ++i)
      features_.addInput(c.versions[i], c.objects[i]);
    features_.writeTo(extraCounters());
    return 0;
  }
  if (coverage_) coverage_->beforeCase();
  CaseResult result = executor_.run(c.objects, c.versions.front(), c.to, seed);
  if (stats_.execs == 1) stopIfUnreachable(result);
  for (std::size_t i = 0; i < c.objects.size(); ++i)
    features_.addInput(c.versions[i], c.objects[i]);
  features_.addResult(result, c.versions.front(), c.to);
  features_.writeTo(extraCounters());
  if (coverage_) coverage_->afterCase();
  if (features_.addNewTo(seenFeatures_) > 0) ++stats_.newBehaviour;
  record(c, seed, result);
  progress(false);
  stopAtBudget();
  return 0;
}

void FuzzSession::stopAtBudget() {
  if (!budget_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!problems_.empty()) anyFound_ = true;
  if (!anyFound_ && now - lastFoundCheck_ >= std::chrono::seconds(1)) {
    lastFoundCheck_ = now;
    anyFound_ = anyFoundCase(foundDir_);
  }
  if (now < budget_->testingEnd(anyFound_)) return;
  finished();
  std::fflush(stderr);
  std::_Exit(0);
}

// A webhook that cannot be connected to at all is not fuzzed: the process ends at once, leaving
// the reason for the reporting process.
void FuzzSession::stopIfUnreachable(const CaseResult& result) {
  if (!result.forwardCall) return;
  const HttpResult& http = result.forwardCall->http;
  if (http.ok() || !webhookNotReached(http.transportErrorKind)) return;
  std::ofstream(foundDir_ + "/unreachable") << http.transportError << "\n";
  std::fflush(stderr);
  std::_Exit(kFuzzUnreachableExit);
}

// A case is kept for the report when it shows a problem where this process had not seen it
// (a new problem, or a known one on another property or pair), so the report's problems list
// their sites; shrinking takes the first case of each problem.
void FuzzSession::record(const FuzzCase& c, std::uint64_t seed, const CaseResult& result) {
  FoundCase found;
  std::vector<std::string> fresh;  // problems this process had not seen
  bool newSighting = false;
  for (auto& s : problemSightings(result, c.versions.front(), c.to)) {
    newSighting |= sightings_.insert(s.problem + "\n" + s.site).second;
    if (problems_.insert(s.problem).second) fresh.push_back(s.problem);
    if (std::find(found.problems.begin(), found.problems.end(), s.problem) == found.problems.end())
      found.problems.push_back(std::move(s.problem));
  }
  if (!newSighting) return;
  found.caseBytes = encodeFuzzCase(c);
  found.seed = seed;
  found.seconds = seconds();
  found.exec = stats_.execs;
  found.job = job_;
  writeFoundCase(foundDir_, found);
  for (const auto& problem : fresh)
    fmt::print(stderr, "fuzz[{}]: new problem after {:.1f} s (case {}): {}\n", job_, found.seconds,
               found.exec, problem);
  if (config_.stopOnProblem && !fresh.empty()) {  // libFuzzer's graceful exit after this case
    writeStats();
    raise(SIGUSR1);
  }
}

void FuzzSession::writeStats() {
  stats_.seconds = seconds();
  stats_.features = seenFeatures_.size();
  writeFuzzStats(foundDir_, job_, stats_);
}

void FuzzSession::progress(bool force) {
  const auto now = std::chrono::steady_clock::now();
  // libFuzzer ends a process it is asked to stop (SIGUSR1) without exit handlers: the stats on
  // disk are at most a second old.
  if (now - lastStats_ >= std::chrono::seconds(1)) {
    lastStats_ = now;
    writeStats();
  }
  if (!force && now - lastProgress_ < std::chrono::seconds(config_.progressSeconds)) return;
  lastProgress_ = now;
  const double s = seconds();
  const std::string edges =
      coverage_ ? fmt::format(", {} webhook edges", coverage_->edgesSeen()) : std::string();
  const std::string budget =
      budget_ ? fmt::format(", {:.0f} s of {} s elapsed",
                            std::chrono::duration<double>(now - budget_->start()).count(),
                            config_.maxTotalTime)
              : std::string();
  fmt::print(stderr,
             "fuzz[{}]: {} cases in {:.0f} s ({:.1f}/s), {} features{}, {} inputs with new "
             "behaviour, {} problem(s){}\n",
             job_, stats_.execs, s, s > 0 ? static_cast<double>(stats_.execs) / s : 0.0,
             seenFeatures_.size(), edges, stats_.newBehaviour, problems_.size(), budget);
}

void FuzzSession::finished() {
  writeStats();
  progress(true);
}

std::size_t FuzzSession::mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                unsigned seed) {
  return mutateInput(mutator_, fuzzKind_, data, size, maxSize, seed);
}

std::size_t FuzzSession::crossOver(const std::uint8_t* a, std::size_t sizeA, const std::uint8_t* b,
                                   std::size_t sizeB, std::uint8_t* out, std::size_t maxOut,
                                   unsigned seed) {
  return crossOverInputs(mutator_, fuzzKind_, a, sizeA, b, sizeB, out, maxOut, seed);
}

}  // namespace convcheck
