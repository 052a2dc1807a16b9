#include "engine/run/shared_tally.h"

#include "kube/apiserver/group_version.h"

namespace convcheck {

using nlohmann::json;

bool SharedTally::wants(const std::string& property) const {
  MutexLock lock(mutex_);
  return tally_.wants(property);
}

void SharedTally::addCase(const CaseResult& result, const std::string& from,
                          const std::string& to) {
  MutexLock lock(mutex_);
  tally_.addAll(result.forward, from, to);
  for (std::size_t i = 0; i < result.backward.size(); ++i)
    tally_.add(result.backward[i], result.backwardFrom, result.backwardTo[i]);
  tally_.addAll(result.composite, from, to);
}

void SharedTally::add(const CheckResult& result, const std::string& from, const std::string& to) {
  MutexLock lock(mutex_);
  tally_.add(result, from, to);
}

bool SharedTally::knows(const std::string& property, const std::string& from, const std::string& to,
                        const std::vector<Cause>& causes) const {
  MutexLock lock(mutex_);
  return tally_.knows(property, from, to, causes);
}

void SharedTally::setExample(ShrunkExample e) {
  MutexLock lock(mutex_);
  tally_.setProblemExample(e.problem, e.finding);
  if (!e.witnessed.empty()) tally_.setProblemWitness(e.problem, std::move(e.witnessed));
  tally_.setExample(e.target.property, e.target.from, e.target.to, e.target.cause,
                    std::move(e.finding));
}

void SharedTally::latency(const Exchange& ex) {
  MutexLock lock(mutex_);
  tally_.latency(objectVersion(ex.sent.objects.front()),
                 objectVersion(json{{"apiVersion", ex.sent.desiredApiVersion}}),
                 ex.sent.objects.size(), ex.http.elapsed.count() / 1000.0);
}

void SharedTally::fill(KindReport& report) {
  MutexLock lock(mutex_);
  tally_.fill(report);
}

}  // namespace convcheck
