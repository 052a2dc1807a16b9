// Where a case showed which problem: each failing property's causes by identity, with the version
// pair it failed on. Used by the runner (a problem seen for the first time is an event) and the
// fuzz engine (a case that shows a problem somewhere new is kept).
#pragma once

#include <string>
#include <vector>

#include "properties/case_executor.h"

namespace convcheck {

// A problem seen in a case: its identity (Cause::problem, else the cause's key) and the failing
// property on a version pair.
struct ProblemSighting {
  std::string problem;
  std::string site;  // "round-trip v1->v1alpha1"
  std::string property, from, to;
  std::string title;  // the cause's title
};

// Every (problem, site) of a case, each once, in the order forward, composite, backward; `from`
// and `to` are the versions the case was run with.
std::vector<ProblemSighting> problemSightings(const CaseResult& result, const std::string& from,
                                              const std::string& to);

}  // namespace convcheck
