// What a job of the engine ends with: its exit code (SPEC §7) and what it found, by mode: the
// report of a run or a fuzz run, the outcome of a replay or a minimize. The commands render it;
// the engine's modes fill it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/crd/crd.h"
#include "properties/case_executor.h"
#include "reports/bundle_target.h"
#include "reports/run_report.h"
#include "shrink/failure_target.h"

namespace convcheck {

// A bundle's case sent again: the property's result on it, as the bundle says it failed.
struct ReplayOutcome {
  std::string bundle;  // the bundle's directory
  std::string property, from, to;
  std::size_t objects = 0;
  std::string url;                    // where it was sent
  std::string failure, cause;         // how the bundle says it failed, and its cause ("": older)
  std::optional<CheckResult> result;  // the property's result on the case (none: not judged)
  std::vector<FailureTarget> others;  // the case's failures when the property was not judged
};

// A user's failing object shrunk: the first failure found (or none: every property held).
struct MinimizeOutcome {
  std::string from, to;
  std::string property;                 // the property asked for ("": any)
  std::optional<FailureTarget> target;  // what failed (none: it held)
  Finding finding;                      // its shrunk example (caseObjects: the smallest batch)
  Crd crd;
  BundleTarget bundleTarget;  // where the case was sent, for its bundle
};

struct Verdict {
  int exitCode = 0;
  // Why the job could not begin or go on (bad input, exit 2; unreachable, exit 3), one message
  // each, said at the edge; empty when the report or outcome says it all.
  std::vector<std::string> errors;
  RunReport report;       // run, fuzz: what was found
  bool reported = false;  // the report is the job's: its files and console report are written
  // run, fuzz: the webhook's URL and transport as the job used them (a started webhook's URL and
  // CA filled in), for the bundles.
  std::string url;
  TransportOptions transport;
  std::optional<ReplayOutcome> replay;
  std::optional<MinimizeOutcome> minimize;
};

}  // namespace convcheck
