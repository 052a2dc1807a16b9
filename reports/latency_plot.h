// Answer times by batch size as inline SVG: one small plot per version pair (p50, p95 and p99 per
// batch-size bucket), on one y scale for the kind so pairs compare at a glance. Used by the HTML
// report.
#pragma once

#include <string>
#include <vector>

#include "reports/run_report.h"

namespace convcheck {

// A <div class="plots"> of <figure>s, one per pair in the order of `latency`; "" without samples.
std::string latencyPlots(const std::vector<LatencyStats>& latency);

}  // namespace convcheck
