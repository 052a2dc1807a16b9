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

FuzzSession::FuzzSession(const KindContext& kind, const FuzzConfig& config,
                         const TargetFactory& makeTarget, std::string foundDir, int job)
    : config_(config),
      fuzzKind_(fuzzKindOf(kind, static_cast<std::size_t>(config.run.maxBatchSize))),
      mutator_(fuzzKind_),
      flight_(kind, config, makeTarget, static_cast<std::size_t>(std::max(config.inFlight, 1)),
              [this](const std::string& property) { return wants(property); }),
      foundDir_(std::move(foundDir)),
      job_(job),
      start_(std::chrono::steady_clock::now()),
      lastProgress_(start_),
      lastStats_(start_),
      budget_(config.merge ? std::nullopt : fuzzBudget(config)),
      lastFoundCheck_(start_) {
  if (config.coverage) coverage_.emplace(*config.coverage);
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
  // libFuzzer tries the callback once with an empty input before it reads the corpus: that probe
  // is one case (the first, which finds an unreachable webhook), not a flight.
  std::span<const FuzzCase> cases = flightOf(data, size, size == 0 ? 1 : flight_.size());
  if (config_.runs >= 0)  // --runs counts cases: the last input may run fewer than a flight
    cases = cases.first(std::min(cases.size(), static_cast<std::size_t>(std::max<std::int64_t>(
                                                   config_.runs - stats_.execs, 0))));
  features_.clear();
  if (cases.empty()) return 0;
  const std::int64_t first = stats_.execs;
  stats_.execs += static_cast<std::int64_t>(cases.size());
  if (config_.withoutWebhook) {
    for (const FuzzCase& c : cases) {
      BehaviourFeatures input;
      for (std::size_t i = 0; i < c.objects.size(); ++i)
        input.addInput(c.versions[i], c.objects[i]);
      features_.join(input);
    }
    features_.writeTo(extraCounters());
    return 0;
  }
  fly(cases, first);
  progress(false);
  stopAtBudget();
  return 0;
}

void FuzzSession::fly(std::span<const FuzzCase> cases, std::int64_t first) {
  std::vector<std::uint64_t> seeds;
  for (const FuzzCase& c : cases) {
    const std::string bytes = encodeFuzzCase(c);
    seeds.push_back(
        fuzzInputHash(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  }
  if (coverage_) coverage_->beforeCase();
  const std::vector<FlownCase> flown = flight_.run(cases, seeds);
  if (first == 0) stopIfUnreachable(flown.front().result);
  for (const FlownCase& f : flown) features_.join(f.features);
  features_.writeTo(extraCounters());
  if (coverage_) coverage_->afterCase();
  if (features_.addNewTo(seenFeatures_) > 0) ++stats_.newBehaviour;
  for (std::size_t i = 0; i < flown.size(); ++i)
    record(cases[i], seeds[i], flown[i].result, first + static_cast<std::int64_t>(i) + 1);
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
void FuzzSession::record(const FuzzCase& c, std::uint64_t seed, const CaseResult& result,
                         std::int64_t exec) {
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
  found.exec = exec;
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
  writeFuzzFeatures(foundDir_, job_, seenFeatures_);
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
  webhook_.reset();
}

const std::vector<FuzzCase>& FuzzSession::flightOf(const std::uint8_t* data, std::size_t size,
                                                   std::size_t flightSize) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (last_.cases.size() != flightSize || last_.bytes != bytes)
    last_ = {std::string(bytes), decodeFuzzFlight(mutator_, fuzzKind_, data, size, flightSize)};
  return last_.cases;
}

std::size_t FuzzSession::put(std::vector<FuzzCase> flight, std::uint8_t* out, std::size_t maxSize) {
  const std::size_t size = writeFuzzFlight(flight, out, maxSize);
  if (flight.size() == flight_.size())  // every case whole: the bytes decode to these cases
    last_ = {std::string(reinterpret_cast<const char*>(out), size), std::move(flight)};
  return size;
}

std::size_t FuzzSession::mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                unsigned seed) {
  return put(mutateFlight(mutator_, flightOf(data, size, flight_.size()), seed), data, maxSize);
}

std::size_t FuzzSession::crossOver(const std::uint8_t* a, std::size_t sizeA, const std::uint8_t* b,
                                   std::size_t sizeB, std::uint8_t* out, std::size_t maxOut,
                                   unsigned seed) {
  const std::vector<FuzzCase> others = flightOf(b, sizeB, flight_.size());
  return put(crossOverFlights(mutator_, flightOf(a, sizeA, flight_.size()), others, seed), out,
             maxOut);
}

}  // namespace convcheck
