// The problems of a kind as every report lists them, and the short text naming the (property,
// pair) sites a problem breaks. Used by the console, JUnit, JSON and Markdown reports and bundles.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/run_report.h"

namespace convcheck {

// kind.problems when the run filled them; otherwise one problem per cause of the failing tallies
// (the cause key without its property), most severe first, then most cases, then first found,
// with ids P1, P2, ... (a report from a run that does not group its causes still lists them all).
std::vector<Problem> problemsOf(const KindReport& kind);

// The sites of `problem` by property: "round-trip v1->v2 v2->v1; edit-round-trip v1->v2", at
// most `maxBytes` bytes (pairs are counted, then the text shortened, when they do not fit).
std::string sitesText(const Problem& problem, std::size_t maxBytes = 4096);

// "v1->v2", or "" for a site not tied to a version pair (tls).
std::string pairText(const ProblemSite& site);

// The problems of `kind` that `tally` shows, in report order.
std::vector<const Problem*> problemsAt(const std::vector<Problem>& problems,
                                       const PropertyTally& tally);

// Whether `tally` is the first site of `problem` in tally order (where reports show it in full).
bool isFirstSite(const Problem& problem, const PropertyTally& tally, const KindReport& kind);

}  // namespace convcheck
