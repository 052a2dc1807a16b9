// The head of a kind's report before any case runs: what was tested (CRD, source, URL, review
// version, version roles) and the notes that frame the verdict. Used by the runner.
#pragma once

#include "engine/run/run_config.h"
#include "engine/run/target_resolution.h"
#include "kube/crd/crd.h"
#include "reports/run_report.h"

namespace convcheck {

KindReport kindReportHeader(const Crd& crd, const ResolvedTarget& target, const RunConfig& config);

}  // namespace convcheck
