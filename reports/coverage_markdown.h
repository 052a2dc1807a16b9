// A kind's coverage in the Markdown summary: per version the paths sent, optional paths sent
// absent and boundaries reached, per pair what was sent, then what the run did not exercise.
// Used by the Markdown summary.
#pragma once

#include <string>

#include "reports/run_coverage.h"

namespace convcheck {

// At most `maxGaps` lines of what was not exercised per version (the rest are counted).
std::string coverageMarkdown(const KindCoverage& coverage, std::size_t maxGaps = 20);

}  // namespace convcheck
