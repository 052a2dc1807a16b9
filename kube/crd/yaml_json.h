// YAML text (one or many documents) to nlohmann::json, resolving scalars as Kubernetes does
// (sigs.k8s.io/yaml), with anchors, aliases and `<<` merge keys, bounded against hostile input.
// Used by crd_loader; usable for any Kubernetes object read from YAML (samples, user objects).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// One problem found while reading YAML, with where it is.
struct YamlIssue {
  int document = 0;  // 1-based document index; 0 when not tied to a document
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
  std::string path;  // JSON path in the document ("spec.versions[1].name"); empty at the root
  std::string message;

  // "document 2, line 3, column 5, spec.x: message" (parts that are unknown are left out).
  std::string text() const;
};

struct YamlLimits {
  // Nesting of sequences and mappings, alias expansions included. Real CRDs stay below 60.
  int maxDepth = 256;
  // JSON values produced for one document with aliases expanded; beyond it the document fails.
  std::size_t maxNodes = 20'000'000;
};

struct YamlDocument {
  int index = 0;         // 1-based position in the stream, empty documents counted
  int line = 0;          // 1-based line where the document starts (its "---", else first node)
  nlohmann::json value;  // null for an empty document, and when `errors` is not empty
  std::vector<YamlIssue> errors;    // the document could not be converted
  std::vector<YamlIssue> warnings;  // converted, but something deserves a look (duplicate keys)
};

struct YamlStream {
  std::vector<YamlDocument> documents;  // every document read completely, in order
  // Reading stopped here: a syntax error, nesting beyond the limit, or input that is not UTF-8.
  // Documents before it are complete and usable.
  std::optional<YamlIssue> fatal;
};

// Reads every document of `text`. Never throws for bad input: syntax errors end the stream with
// `fatal`, conversion errors (a non-finite float value, a null or collection map key, a bad
// merge, excessive aliasing, a recursive alias) fail their document only.
//
// The text is read by libyaml, the C parser go-yaml v2 was ported from: the same syntax is
// accepted, and syntax errors read as go-yaml's (and so kubectl's) do.
// Scalars follow go-yaml v2 as vendored by sigs.k8s.io/yaml (see yaml_scalar.h); map keys become
// strings as sigs.k8s.io/yaml makes them (`yes: 1` gives the key "true"); numbers are normalised
// as JSON carries them to the API server (1.0 becomes 1). Merge keys: explicit keys win over
// merged ones, earlier merged maps win over later ones. Aliases are expanded under go-yaml's
// alias-ratio rule ("document contains excessive aliasing") and `limits`.
YamlStream parseYamlStream(std::string_view text, const YamlLimits& limits = {});

// Appends one object key to a JSON path as used in messages: `.name` for plain keys,
// `["key.with/odd chars"]` otherwise.
void appendPathKey(std::string& path, std::string_view key);

}  // namespace convcheck
