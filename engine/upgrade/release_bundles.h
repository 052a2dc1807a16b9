// The reproduction bundles of a run of two releases: run's bundle of each problem's example (the
// requests of the release whose webhook made the failing call, its curl lines, the diff), with
// `release.json` beside bundle.json: the property (the upgrade step), the release its requests
// went to, both releases (CRD file and webhook URL) and what a client read before (the expected
// object). `convcheck replay` replays such a bundle against either release (release_replay.h).
// Called by app/cli after an upgrade or a diff with --report-dir.
#pragma once

#include <string>
#include <vector>

#include "engine/upgrade/release_run.h"
#include "reports/written_bundles.h"

namespace convcheck {

// The file that makes a bundle a two-release one.
inline constexpr const char* kReleaseBundleFile = "release.json";

// Writes reportDir/crd-old.json and crd-new.json (the CRDs of each release, a List when several)
// and one bundle per problem that has a webhook call under reportDir/bundles/ (replacing a
// previous run's), setting each example's bundle. Returns error messages (empty when all written).
WrittenBundles writeReleaseBundles(ReleaseRun& run, const std::string& reportDir);

}  // namespace convcheck
