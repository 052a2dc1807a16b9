// `convcheck diff` as a mode of the engine: one CRD and two webhooks (a refactor, a library
// upgrade). Every review run's plan makes (the same cases, seed for seed) goes to both webhooks,
// byte for byte the same, and every difference in what kube-apiserver makes of the two answers is
// a failure of same-behaviour, folded into problems as run folds them (a value by its path, a
// rejection by its stage and masked message), each problem's first case shrunk as run shrinks
// one. Called by app/cli/diff_command.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "engine/upgrade/release.h"
#include "engine/upgrade/release_run.h"
#include "harness/cluster/kubectl.h"
#include "properties/config/ack_config.h"

namespace convcheck {

struct DiffConfig {
  std::string crdInput;  // --crd: a file, a directory, - or kube://NAME
  ClusterAccess cluster;
  std::vector<std::string> kinds;  // --kind; empty: every CRD with strategy Webhook
  ReleaseTarget oldTarget, newTarget;
  int testsPerPair = 100;  // --tests
  int shrinkBudget = 200;  // --shrink-budget: calls spent shrinking each problem's example
  std::uint64_t seed = 0;
  int jobs = 8;  // cases at once; each webhook gets at most this many requests in flight
  bool canonicalDateTimes = true;
  bool rawObjects = false;        // --raw-objects: objects sent without their schema defaults
  std::optional<AckConfig> acks;  // .convcheck.yaml
  std::string commandLine;
  const std::atomic<bool>* stopRequested = nullptr;
};

// The exit code is set in the returned run's report: 0 the webhooks behave alike, 1 a
// difference, 2 bad input, 3 a webhook could not be reached, 130 interrupted.
ReleaseRun runDiff(const DiffConfig& config, std::istream& stdinStream, std::ostream& log);

}  // namespace convcheck
