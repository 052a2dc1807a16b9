// Small helpers for generator tests: a Crd around a schema, sampling a Gen deterministically, and
// compiling a schema into a Gen in a chosen mode.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/pattern_strings.h"
#include "generators/schema_gen.h"
#include "generators/schema_model.h"
#include "kube/crd/crd.h"

namespace convcheck::testing {

inline Crd crdWithSchema(const nlohmann::json& schema, bool namespaced = true,
                         const std::vector<std::string>& versions = {"v1"}) {
  Crd crd;
  crd.name = "widgets.example.com";
  crd.group = "example.com";
  crd.kind = "Widget";
  crd.listKind = "WidgetList";
  crd.plural = "widgets";
  crd.namespaced = namespaced;
  for (const auto& v : versions) {
    CrdVersion cv;
    cv.name = v;
    cv.storage = v == versions.front();
    cv.schema = schema;
    crd.versions.push_back(cv);
  }
  return crd;
}

inline std::vector<nlohmann::json> sample(const rc::Gen<nlohmann::json>& g, int n,
                                          std::uint64_t seed = 1, int size = -1) {
  std::vector<nlohmann::json> out;
  rc::Random r(seed);
  for (int i = 0; i < n; ++i) out.push_back(g(r.split(), size < 0 ? i % 101 : size).value());
  return out;
}

inline SchemaNodePtr parsedRoot(const nlohmann::json& schema) {
  auto r = parseSchema(schema);
  if (auto* e = std::get_if<std::vector<SchemaError>>(&r)) {
    ADD_FAILURE() << e->front().str();
    return nullptr;
  }
  return std::get<ParsedSchema>(r).root;
}

// Compiles one schema (wrapped as the property "v" of an object root, so any type is allowed)
// and keeps what compilation needs alive.
struct CompiledField {
  PatternStrings patterns;
  GenNotes notes;
  SchemaNodePtr root;
  SchemaNodePtr node;
  rc::Gen<nlohmann::json> gen = rc::gen::just(nlohmann::json());

  explicit CompiledField(const nlohmann::json& fieldSchema, GenMode mode = {}) {
    root = parsedRoot({{"type", "object"}, {"properties", {{"v", fieldSchema}}}});
    if (!root) return;
    node = root->properties.at("v");
    gen = schemaGen(node, SchemaGenEnv{mode, &patterns, &notes});
  }
};

}  // namespace convcheck::testing
