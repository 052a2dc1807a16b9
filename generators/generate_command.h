// The core of `convcheck generate --crd FILE --version V -n N [--seed S] [-o json|yaml]`: writes
// n valid objects as NDJSON or a YAML stream. Used by the CLI (app/cli).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "kube/crd/crd.h"

namespace convcheck {

enum class GenerateFormat { Json, Yaml };

struct GenerateRequest {
  std::string version;
  int count = 1;
  std::uint64_t seed = 0;
  GenerateFormat format = GenerateFormat::Yaml;
  bool canonicalDateTimes = true;  // --date-times canonical (else any; see FormatOptions)
  int threads = 0;  // threads making objects; 0: one per core, at most 8. The bytes do not change.
};

// Writes the objects to `out` (NDJSON: one object per line; YAML: documents separated by
// "---") and the generator's notes to `notes` (one per line, prefixed "note: "). Returns an error
// message (unknown version, non-structural schema, generation failure) or nullopt on success.
// Deterministic: the same CRD, request and seed write the same bytes.
std::optional<std::string> runGenerate(const Crd& crd, const GenerateRequest& request,
                                       std::ostream& out, std::ostream* notes);

// "json" / "yaml" (also "ndjson", "yml").
std::optional<GenerateFormat> parseGenerateFormat(const std::string& name);

}  // namespace convcheck
