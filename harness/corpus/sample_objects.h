// User sample objects (e.g. a project's config/samples/) as test inputs: read from YAML or JSON,
// completed with the metadata every stored object has, and varied field by field with the
// generator to make new valid objects that start from them. Used by the corpus and `minimize`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "kube/crd/crd.h"

namespace convcheck {

struct ObjectDocument {
  std::string where;  // "FILE, document N" or "FILE, document N, items[K]"
  nlohmann::json object;
};

struct ObjectDocuments {
  std::vector<ObjectDocument> objects;
  std::vector<std::string> errors;  // unreadable files, YAML errors (with file and line)
};

// Every object of a YAML or JSON text: one per document, items of a `kind: List` unpacked.
ObjectDocuments readObjects(const std::string& text, const std::string& file);

// The object as kube-apiserver stores it: apiVersion and kind kept, metadata completed with a
// name ("sample" or generateName + "sample"), namespace "default" (namespaced kinds; removed for
// cluster-scoped ones), a uid drawn from `seed`, creationTimestamp and generation 1 when absent.
// Fields already present are kept.
nlohmann::json asStoredObject(nlohmann::json object, const Crd& crd, std::uint64_t seed);

// Up to `count` schema-valid variants of `sample`, each with one field (below spec, status or
// another top-level field, never metadata) replaced by a value of that field's generator.
// Deterministic for a seed.
std::vector<nlohmann::json> sampleVariants(const nlohmann::json& sample, const ObjectGenerator& gen,
                                           const ValidityChecker& checker, std::uint64_t seed,
                                           int count);

}  // namespace convcheck
