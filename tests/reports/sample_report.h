// RunReports built by hand for the report tests: a kind with two problems over several (property,
// pair) sites, a warning-only site, a not-evaluable one, latency, and text from a webhook.
#pragma once

#include <string>

#include "reports/run_report.h"

namespace convcheck::testing {

// The webhook's objects and answers carry `text` (e.g. multi-byte or invalid UTF-8) in the
// problems' titles, messages and diffs.
RunReport sampleReport(const std::string& text = "x");

// An exchange that sent `objects` to `desired` and got `body` back with HTTP `status`.
ExchangeRef sampleExchange(const std::vector<nlohmann::json>& objects, const std::string& desired,
                           const std::string& body, long status = 200);

}  // namespace convcheck::testing
