// A problem with the CRD input, located by file, document and field, and how it is printed.
// Produced by crd_decode, crd_validate and crd_loader; printed by the CLI and reports.
#pragma once

#include <string>

#include "kube/crd/crd.h"

namespace convcheck {

struct LoadError {
  SourceLocation where;  // where.document == 0: about the whole file (unreadable, no CRD in it)
  std::string field;     // JSON path in the document, e.g. "spec.versions[1].storage"; may be empty
  std::string message;   // e.g. `Invalid value: "Webhook": must be None if ...`
  int line = 0;          // 1-based line for YAML syntax errors; 0 when unknown
  int column = 0;        // 1-based column; 0 when unknown

  // "crds.yaml, document 2, spec.versions[1].name: Duplicate value: \"v1\"";
  // "crds.yaml, document 3, line 14, column 7: YAML syntax error: ...".
  std::string text() const;
};

}  // namespace convcheck
