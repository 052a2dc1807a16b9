// What the objects sent at one version exercised of its schema: each path present or absent, and
// its boundaries reached (enum values, length, size and number bounds, null, the default). Used by
// the run's coverage collector (sent_coverage.h), one per version with a schema.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/schema_model.h"
#include "reports/run_coverage.h"

namespace convcheck {

class SchemaCoverage {
 public:
  // Every structural path below `root` but the object's apiVersion, kind and metadata, which every
  // object carries. `root` must outlive the coverage.
  SchemaCoverage(std::string version, const SchemaNode& root);

  // Counts one object sent at this version: one walk over the values its schema names.
  void add(const nlohmann::json& object);

  VersionCoverage result() const;

 private:
  enum class Bound {
    Enum,
    MinLength,
    MaxLength,
    MinItems,
    MaxItems,
    MinProps,
    MaxProps,
    Min,
    Max,
    Null,
    Default,
    NonDefault
  };
  struct Boundary {
    Bound bound;
    nlohmann::json value;  // the enum value or the default; the number for the others
    std::int64_t hits = 0;
  };
  struct Slot {
    std::string path;
    const SchemaNode* node = nullptr;
    bool required = false;
    std::vector<std::pair<std::string, std::size_t>> fields = {};  // by name (binary search)
    std::size_t items = 0, values = 0;                             // item/map-value slot; 0: none
    std::int64_t present = 0;
    std::int64_t asObject = 0;  // values sent as objects (their fields' absences count from it)
    std::vector<Boundary> boundaries = {};
  };

  std::size_t addSlot(std::string path, const SchemaNode& node, bool required);
  void addBoundaries(Slot& slot) const;
  void visit(std::size_t slot, const nlohmann::json& value);
  static bool at(const Boundary& b, const nlohmann::json& value);

  std::string version_;
  std::int64_t objects_ = 0;
  std::vector<Slot> slots_;  // [0] is the root, not reported
};

}  // namespace convcheck
