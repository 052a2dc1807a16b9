// A kind's coverage as a section of the HTML report: per version the paths sent, optional paths
// sent absent and boundaries reached, per pair what was sent, what was not exercised, and every
// path's counts on request. Used by the HTML report.
#pragma once

#include <string>

#include "reports/run_coverage.h"

namespace convcheck {

std::string coverageHtml(const KindCoverage& coverage);

}  // namespace convcheck
