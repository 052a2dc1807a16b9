// Which CRDs of an input a command works on: the several a run tests, or the one that fuzz,
// replay, minimize and generate take, chosen by --kind (a Kind or a CRD name) or by the CRDs'
// conversion strategy. Used by the runner and the commands.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "kube/crd/crd.h"

namespace convcheck {

// The CRDs a run tests: those `named` (Kind or CRD name), else those with strategy Webhook, else
// (`urlGiven`: a webhook for a CRD that does not declare webhook conversion yet) every CRD with
// two or more versions. Empty: noCrdSelected says why.
std::vector<const Crd*> selectCrds(const std::vector<Crd>& crds,
                                   const std::vector<std::string>& named, bool urlGiven);

// Why selectCrds chose none of `crds`, the CRDs of `input` (with --kind: the kinds there are).
std::string noCrdSelected(const std::string& input, const std::vector<Crd>& crds,
                          const std::vector<std::string>& named, bool urlGiven);

// The one CRD of `input` to work on: the one `named` (Kind or CRD name; "": any), else the only
// one, else the only one with strategy Webhook. The error names the input and says to choose with
// --kind (a name that matches none: the kinds there are).
std::variant<const Crd*, std::string> chooseCrd(const std::vector<Crd>& crds,
                                                const std::string& named, const std::string& input);

}  // namespace convcheck
