// Reproduction bundles (SPEC §6): one directory per reported problem with the exact
// ConversionReview request(s) and response(s), the diff, the seed, the property, the CRD (the
// run's crd.json, which bundle.json names, or a copy), a curl line and the `convcheck replay` line.
// Format 2, documented in the README ("On-disk formats"). Called by the CLI after a run
// (--report-dir) and by `convcheck minimize`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/bundle_target.h"
#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

// 2: bundle.json names the CRD file (crdFile); 1: the CRD was always the bundle's crd.json.
inline constexpr int kBundleFormat = 2;

// The CA a bundle's requests were verified with (--ca-file or the CRD's caBundle), in the bundle.
inline constexpr const char* kBundleCaFile = "ca.pem";

struct BundleContext {
  std::string convcheckVersion;
  std::uint64_t runSeed = 0;
  std::string command;             // the command that found the failure
  bool rawObjects = false;         // objects were sent without their defaults
  bool canonicalDateTimes = true;  // how date-times were generated (edits are made again)
  std::string crdFile = {};  // the run's CRD file the bundle refers to; "": a copy in the bundle
  WebhookReach reach = {};   // how the run reached the webhook: how replay reaches it again
};

// "<Kind>-<from>-<to>-<property>", characters outside [A-Za-z0-9._-] replaced by '_'.
std::string bundleName(const std::string& kind, const std::string& from, const std::string& to,
                       const std::string& property);

// What writeBundle wrote: the bundle (its directory and curl line, paths as `dir` was given:
// relative to the working directory when it is relative), or an error ("" when it was written).
struct WrittenBundle {
  BundleRef bundle;
  std::string error;
};

// Writes the bundle of `finding` into `dir`, replacing what a previous run left there. Inside the
// bundle every path is relative to the bundle (ca.pem, request-N.json; curl.sh changes to its own
// directory first), so a bundle works wherever it is moved; client certificates stay where they
// were (replay --cert/--key).
WrittenBundle writeBundle(const std::string& dir, const Finding& finding, const Crd& crd,
                          const BundleTarget& target, const BundleContext& context);

// The CRDs of the run's kinds as one file (a List when there are several), which bundles refer to.
// Returns "" or an error message.
std::string writeRunCrds(const RunReport& report, const std::string& path);

// A bundle for the example of every problem of every kind that has a test case, under
// reportDir/bundles/<Kind>-<id>-<from>-<to>-<property>/ (the pair and property of the example's
// own case), replacing the bundles of a previous run, and the run's CRDs as reportDir/crd.json.
// Reads the report only; returns what it wrote, with the errors of what it could not.
// `urlGiven`: --url was given (see bundleTargetFor).
WrittenBundles writeBundles(const RunReport& report, const TransportOptions& runTransport,
                            bool urlGiven, const std::string& reportDir);

}  // namespace convcheck
