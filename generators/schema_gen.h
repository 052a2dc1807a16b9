// The fold over a SchemaNode tree that returns composed generators of JSON values (JsonDrawGen,
// or rc::Gen<json> through schemaGen): every generated value satisfies its node, and every shrink
// stays inside the schema. Used by ObjectGenerator.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/format_gen.h"
#include "generators/json_draw.h"
#include "generators/schema_check.h"
#include "generators/schema_model.h"

namespace convcheck {

class PatternStrings;

// How much of the schema a value covers.
enum class FieldCoverage {
  Minimal,  // required fields only; arrays and maps at their minimum size
  Sparse,   // optional fields now and then
  Full,     // most optional fields, tapering off with depth
};

struct GenMode {
  FieldCoverage coverage = FieldCoverage::Sparse;
  bool unknownFields =
      false;  // add unknown fields where x-kubernetes-preserve-unknown-fields keeps them
  FormatOptions formats;
  // Containers as big as real objects hold them now and then (container_shapes): long lists,
  // maps of many keys, deep and wide free-form values. Off: every list and map stays short.
  bool longShapes = false;
};

// Honest notes collected while compiling generators (deduplicated, in order of discovery).
class GenNotes {
 public:
  void add(const std::string& note) {
    if (seen_.insert(note).second) notes_.push_back(note);
  }
  const std::vector<std::string>& all() const { return notes_; }

 private:
  std::vector<std::string> notes_;
  std::set<std::string> seen_;
};

struct SchemaGenEnv {
  GenMode mode;
  PatternStrings* patterns;  // shared pattern cache; must outlive compilation
  GenNotes* notes;           // where approximations are recorded; must outlive compilation
};

enum class Presence {
  Auto,      // required fields always, optional ones by coverage
  Always,    // always present, never shrunk away (apiVersion, kind, metadata of a resource)
  Included,  // present when generated, but shrinking may drop it unless the schema requires it
  Never,     // never generated unless the schema requires it
};

// Replaces the generator and/or the presence of one field of an object node.
struct FieldOverride {
  std::optional<JsonDrawGen> gen;
  Presence presence = Presence::Auto;
};

// Generator of values valid for `node`.
JsonDrawGen schemaDraws(const SchemaNodePtr& node, const SchemaGenEnv& env);

// The same generator for every coverage and unknown-fields choice: each draw takes them from its
// DrawOptions::mode (drawMode) instead of env.mode, so one compilation serves every shape.
JsonDrawGen schemaDrawsForAnyMode(const SchemaNodePtr& node, const SchemaGenEnv& env);

// The DrawOptions::mode of a coverage, unknown-fields and long-shapes choice, and back.
unsigned drawMode(FieldCoverage coverage, bool unknownFields, bool longShapes = false);
FieldCoverage coverageOf(unsigned mode);
bool unknownFieldsOf(unsigned mode);
bool longShapesOf(unsigned mode);

// schemaDraws as an rc::Gen (values with their shrink trees).
rc::Gen<nlohmann::json> schemaGen(const SchemaNodePtr& node, const SchemaGenEnv& env);

// Generator of objects for the object `node` with some fields overridden (the resource root, whose
// apiVersion/kind/metadata/status are decided by the caller). `check` is applied to every value
// and shrink. Draws in env.mode, the overrides included.
JsonDrawGen objectSchemaDraws(const SchemaNodePtr& node, const SchemaGenEnv& env,
                              std::map<std::string, FieldOverride> overrides, CheckOptions check);

// Probability that an optional field is present, for a coverage and RapidCheck size.
double presenceProbability(FieldCoverage coverage, int size);

}  // namespace convcheck
