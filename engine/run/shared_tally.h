// The kind's Tally as the run's threads share it: cases are tallied by the run's thread, while
// running cases ask which causes are known and shrinks hand their examples back. Each call takes
// the tally's lock. Used by the runner.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/run/tally.h"
#include "harness/concurrency/annotated_mutex.h"
#include "harness/transport/exchange.h"
#include "kube/crd/version_roles.h"
#include "properties/case_executor.h"
#include "shrink/run_shrinker.h"

namespace convcheck {

class SharedTally {
 public:
  SharedTally(std::vector<std::string> selected, ConversionReach reach)
      : tally_(std::move(selected), std::move(reach)) {}

  bool wants(const std::string& property) const EXCLUDES(mutex_);
  // Every result of a case run from `from` to `to`.
  void addCase(const CaseResult& result, const std::string& from, const std::string& to)
      EXCLUDES(mutex_);
  void add(const CheckResult& result, const std::string& from, const std::string& to)
      EXCLUDES(mutex_);
  // CaseSettings::knownCauses: a case's executor asks the tally, which only holds cases earlier
  // in plan order than the ones running, so a failure whose causes it knows is never an example,
  // whenever its case is tallied.
  bool knows(const std::string& property, const std::string& from, const std::string& to,
             const std::vector<Cause>& causes) const EXCLUDES(mutex_);
  // The shrunk example of a problem, and of its (property, pair, cause).
  void setExample(ShrunkExample example) EXCLUDES(mutex_);
  // The latency of an answered call.
  void latency(const Exchange& ex) EXCLUDES(mutex_);
  void fill(KindReport& report) EXCLUDES(mutex_);

 private:
  mutable Mutex mutex_;
  Tally tally_ GUARDED_BY(mutex_);
};

}  // namespace convcheck
