// One problem of the HTML report in full: its sites, what a user of the cluster sees,
// kube-apiserver's message, the shrunk counterexample's diff and input, how it was shrunk and how
// to replay it. Used by the HTML report.
#pragma once

#include <string>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

// A <section> whose id is `anchor`; `bundle` (may be null) gives its replay line, which reaches
// the webhook as the run did (`reach`).
std::string problemHtml(const Problem& problem, const std::string& anchor, const BundleRef* bundle,
                        const WebhookReach& reach);

}  // namespace convcheck
