// Reading the --crd input (a file, a directory, or "-" for stdin) into validated, normalised CRDs.
// Used by the CLI (run, generate, minimize) and by tests; everything wrong becomes a LoadError.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "kube/crd/crd.h"
#include "kube/crd/load_error.h"

namespace convcheck {

struct LoadResult {
  std::vector<Crd> crds;  // every valid CRD found, in input order (files sorted by name)
  std::vector<LoadError> errors;
  std::vector<std::string> warnings;  // "file, document N, field: message"

  bool ok() const { return errors.empty(); }
};

// Reads `pathOrDashOrDir`: "-" reads `stdinStream` (named "<stdin>"); a directory reads every
// *.yaml, *.yml and *.json file directly in it, sorted by name (not recursive); anything else is
// read as one file. Never throws. An input without any CustomResourceDefinition is an error.
LoadResult loadCrdInput(const std::string& pathOrDashOrDir, std::istream& stdinStream);

// Reads CRDs from `text` (named `sourceName` in messages): JSON, or YAML with one or many
// documents; `kind: List` (kubectl get crd -o yaml) is unpacked; empty documents are skipped and
// other kinds skipped with a warning; both apiextensions.k8s.io/v1 and v1beta1 are normalised, and
// kcp's APIResourceSchemas are read as the CRDs kcp binds from them (api_resource_schema.h).
// Unrendered Helm templates get an error that says to run `helm template` first. Never throws.
LoadResult loadCrdText(const std::string& text, const std::string& sourceName);

// Inputs larger than this are refused (real CRDs are below 2 MiB).
inline constexpr std::size_t kMaxCrdInputBytes = 256u << 20;

}  // namespace convcheck
