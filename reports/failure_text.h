// The human text of one finding or problem: lead sentence, API-server message, details, diff and
// reproduction. Shared by the console report and the JUnit failure bodies so both say the same.
#pragma once

#include <string>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

// `compact` (the console, where the run's reproduction command is printed once): at most a dozen
// diff lines, the input objects only when they are small (the full objects are in the bundle,
// --report-dir, that the text names), no curl line. Otherwise also the reproduction command and
// the curl line. `bundle`: the finding's bundle, when one was written.
std::string failureText(const Finding& finding, const RunReport& report,
                        const BundleRef* bundle = nullptr, bool compact = false);
// The same for a problem of `kind`, led by words in its own severity: when its example's case
// also shows more severe problems (a cosmetic annotation in a case that loses a field), the
// property's sentence about that case would name them first, so the problem's title leads and
// the others are named as what the same case also shows.
std::string problemText(const Problem& problem, const KindReport& kind, const RunReport& report,
                        const BundleRef* bundle = nullptr, bool compact = false);
// "data loss: spec.size is lost (was \"small\") — 12 cases", or "" without a cause.
std::string causeHeadline(const Finding& finding);
std::string caseName(const PropertyTally& tally);  // "v1beta1 -> v1: round-trip"
// "shrunk from 14 object(s), 812 fields, 20.1 KiB to 1 object(s), 9 fields (1 optional), 312 B
// in 23 webhook call(s)", plus why it may not be minimal; "not shrunk (why): ..." when no
// shrinking call was made, or `interrupted` (the run was) before it reproduced the failure.
std::string shrinkSummary(const ShrinkInfo& shrink, bool interrupted = false);
// `path` relative to the working directory when it lies below it, else as it is.
std::string shownPath(const std::string& path);

}  // namespace convcheck
