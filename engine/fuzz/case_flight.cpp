#include "engine/fuzz/case_flight.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <utility>

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

CaseFlight::CaseFlight(const KindContext& kind, const FuzzConfig& config,
                       const TargetFactory& makeTarget, std::size_t size,
                       const std::function<bool(const std::string&)>& wants) {
  for (std::size_t i = 0; i < std::max<std::size_t>(size, 1); ++i) {
    auto slot = std::make_unique<Slot>();
    slot->converter = std::make_unique<Converter>(kind.crd(), makeTarget(config.target),
                                                  config.target.reviewVersion);
    BehaviourFeatures& calls = slot->calls;
    slot->executor = std::make_unique<CaseExecutor>(
        kind.crd(), *slot->converter,
        fuzzCaseSettings(kind, config, wants,
                         [&calls](const Exchange& e) { calls.addExchange(e); }));
    slots_.push_back(std::move(slot));
  }
}

FlownCase CaseFlight::fly(Slot& slot, const FuzzCase& c, std::uint64_t seed) {
  slot.calls.clear();
  FlownCase flown;
  flown.result = slot.executor->run(c.objects, c.versions.front(), c.to, seed);
  flown.features = std::move(slot.calls);
  slot.calls.clear();
  for (std::size_t i = 0; i < c.objects.size(); ++i)
    flown.features.addInput(c.versions[i], c.objects[i]);
  flown.features.addResult(flown.result, c.versions.front(), c.to);
  return flown;
}

std::vector<FlownCase> CaseFlight::run(std::span<const FuzzCase> cases,
                                       const std::vector<std::uint64_t>& seeds) {
  const std::size_t n = std::min(cases.size(), slots_.size());
  std::vector<FlownCase> flown(n);
  std::vector<std::exception_ptr> errors(n);
  auto runCase = [&](std::size_t i) {
    try {
      flown[i] = fly(*slots_[i], cases[i], seeds[i]);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> others;  // case 0 runs on this thread
    for (std::size_t i = 1; i < n; ++i) others.emplace_back(runCase, i);
    if (n > 0) runCase(0);
  }  // every case ended
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
  return flown;
}

}  // namespace convcheck
