// What a run of two releases (`convcheck upgrade`, `convcheck diff`) returns: run's RunReport and,
// per kind, both releases as tested (their CRDs and where their webhooks were reached), so that
// its bundles name both and replay against either. Built by the upgrade and diff runners.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/run/target_resolution.h"
#include "kube/crd/crd.h"
#include "properties/checks/property.h"
#include "reports/run_report.h"

namespace convcheck {

struct KindReleases {
  Crd oldCrd, newCrd;  // the same CRD twice for a diff
  ResolvedTarget oldTarget, newTarget;
};

struct ReleaseRun {
  RunReport report;
  std::vector<KindReleases> releases;  // one per report.kinds entry, in the same order
};

// "old" for the properties whose calls go to the old release's webhook (store, rollback), else
// "new" (read-after-upgrade, migrate, crd-change, same-behaviour).
const char* releaseOfProperty(const std::string& property);

// A report of a run of two releases started now: its start time, seed and command line.
RunReport startedReport(std::uint64_t seed, const std::string& commandLine);

// Whether `crd` is one `kinds` (--kind) names, by kind or CRD name.
bool namedKind(const Crd& crd, const std::vector<std::string>& kinds);

}  // namespace convcheck
