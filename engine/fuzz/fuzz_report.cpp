#include "engine/fuzz/fuzz_report.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "engine/fuzz/fuzz_session.h"
#include "engine/run/case_judge.h"
#include "engine/run/kind_report_header.h"
#include "engine/run/shrunk_witness.h"
#include "engine/run/tally.h"
#include "kube/crd/version_roles.h"
#include "shrink/run_shrinker.h"

namespace convcheck {

KindReport reportFoundCases(const KindContext& kind, const FuzzConfig& config,
                            const TargetFactory& makeTarget, const std::vector<FoundCase>& found,
                            const std::optional<RunBudget>& budget) {
  const Crd& crd = kind.crd();
  KindReport report = kindReportHeader(crd, config.target, config.run);
  for (const auto& note : kind.notes()) report.notes.push_back(note);
  report.versions = kind.versions();
  Tally tally(config.run.properties, ConversionReach(crd));
  RunShrinker shrinker(kind.generators(), kind.checkers(), config.run.shrinkBudget);
  // The found cases run again, counting the calls every one of them made (shrinks included).
  CaseJudge runner(kind, config.target, makeTarget, [&report](const Exchange& e) {
    ++report.requests;
    report.objectsSent += static_cast<int>(e.sent.objects.size());
  });
  const FuzzKind fuzzKind = fuzzKindOf(kind, static_cast<std::size_t>(config.run.maxBatchSize));
  auto selected = [&tally](const std::string& property) { return tally.wants(property); };
  std::vector<ShrinkJob> jobs;
  for (const auto& f : found) {
    const FuzzCase c = decodeFuzzCase(
        fuzzKind, reinterpret_cast<const std::uint8_t*>(f.caseBytes.data()), f.caseBytes.size());
    const std::string& from = c.versions.front();
    CaseResult result = runner.run(c.objects, from, c.to, f.seed, selected);
    tally.addAll(result.forward, from, c.to);
    for (std::size_t i = 0; i < result.backward.size(); ++i)
      tally.add(result.backward[i], result.backwardFrom, result.backwardTo[i]);
    tally.addAll(result.composite, from, c.to);
    const std::vector<ProblemSighting> again = problemSightings(result, from, c.to);
    for (const auto& problem : f.problems)
      if (std::none_of(again.begin(), again.end(),
                       [&problem](const ProblemSighting& s) { return s.problem == problem; }))
        report.notes.push_back(fmt::format(
            "fuzz: case {} of process {} showed {} while fuzzing but not when run again (flaky)",
            f.exec, f.job, problem));
    RunShrinker::CaseInfo info{
        from, c.to, f.seed, nullptr, fmt::format("fuzz case {}", f.exec), report.requests};
    for (auto& job : shrinker.select(result, info)) jobs.push_back(std::move(job));
  }
  RunShrinker::rank(jobs);
  // Shrinking ends where --max-total-time leaves the reports their share; a shrink running then
  // stops calling the webhook.
  if (budget) runner.haltFrom(budget->shrinkingEnd());
  int shrunk = 0, late = 0;
  auto keep = [&tally](ShrunkExample e) {
    tally.setProblemExample(e.problem, e.finding);
    tally.setExample(e.target.property, e.target.from, e.target.to, e.target.cause,
                     std::move(e.finding));
  };
  for (const auto& job : jobs) {
    if (budget && std::chrono::steady_clock::now() >= budget->shrinkingEnd()) {
      ++late;  // the case as found, still replayable and stored as a regression
      keep(shrinker.unshrunk(job));
      continue;
    }
    ShrunkExample e = shrinker.shrink(
        job, [&runner, &job](const std::vector<nlohmann::json>& batch, const std::string& from) {
          return runner.run(batch, from, job.to, job.seed, [&job](const std::string& property) {
            return caseNeeds(job.target, property);
          });
        });
    tell(config.run.events, ShrinkDone{crd.kind, e.problem, e.target.property, e.target.from,
                                       e.target.to, ++shrunk, static_cast<int>(jobs.size())});
    tally.setProblemWitness(
        e.problem,
        witnessShrunk(
            e, job, kind,
            [&runner, &job](const std::vector<nlohmann::json>& batch, const std::string& from,
                            const std::function<bool(const std::string&)>& wants) {
              return runner.run(batch, from, job.to, job.seed, wants);
            },
            selected));
    keep(std::move(e));
  }
  if (late > 0)
    report.notes.push_back(fmt::format(
        "shrinking stopped at the time budget (--max-total-time {}s): {} of {} problems keep "
        "their unshrunk example",
        config.maxTotalTime, late, jobs.size()));
  tally.fill(report);
  return report;
}

}  // namespace convcheck
