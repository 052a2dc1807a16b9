// kube-apiserver's validation of the parts of a CRD convcheck relies on (names, versions, the
// conversion webhook settings), with its messages, plus warnings for what it would not catch.
// Used by crd_loader after crd_decode.
#pragma once

#include <vector>

#include "kube/crd/crd.h"
#include "kube/crd/crd_decode.h"
#include "kube/crd/load_error.h"

namespace convcheck {

struct CrdValidation {
  std::vector<LoadError> errors;    // kube-apiserver would reject the CRD (or it cannot be tested)
  std::vector<LoadError> warnings;  // testable, but worth knowing (http URL, Helm leftovers, ...)
};

// Checks `crd` as decoded with `layout`: metadata.name = <plural>.<group>, group/kind/plural
// present, version names DNS-1035 labels and unique, exactly one storage version; for
// strategy Webhook: a clientConfig with exactly one of url/service, an https URL without user
// info, query or fragment (http:// is a warning: local development), a valid service reference,
// conversionReviewVersions non-empty, unique and including v1 or v1beta1, and
// preserveUnknownFields false; for strategy None: no webhook settings.
CrdValidation validateCrd(const Crd& crd, const CrdLayout& layout);

}  // namespace convcheck
