// How every report names a problem of the engine's list (KindReport::problems, read as it is): the
// short text of the (property, pair) sites it breaks, its digest title, where it shows. Used by the
// console, JUnit, JSON and Markdown reports and bundles.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/run_report.h"

namespace convcheck {

// The sites of `problem` by property: "round-trip v1->v2 v2->v1; edit-round-trip v1->v2", at
// most `maxBytes` bytes (pairs are counted, then the text shortened, when they do not fit).
std::string sitesText(const Problem& problem, std::size_t maxBytes = 4096);

// "v1->v2", or "" for a site not tied to a version pair (tls).
std::string pairText(const ProblemSite& site);

// The problems of `kind` that `tally` shows, in report order.
std::vector<const Problem*> problemsAt(const std::vector<Problem>& problems,
                                       const PropertyTally& tally);

// The title shortened to `maxBytes` for a one-line digest: a rejection keeps the webhook's own
// message ("conversion failed: Cannot read properties of undefined (reading 'map')") rather than
// kube-apiserver's wrapping of it ("conversion webhook for group/v1, Kind=X failed: ...").
std::string digestTitle(const Problem& problem, std::size_t maxBytes);

// Whether `tally` is the first site of `problem` in tally order (where reports show it in full).
bool isFirstSite(const Problem& problem, const PropertyTally& tally, const KindReport& kind);

}  // namespace convcheck
