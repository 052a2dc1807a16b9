// What a run's cases exercised: per version the schema paths sent present, absent and at their
// boundaries, per version pair the cases, requests, objects and bytes sent. Filled by the runner's
// coverage collector (engine/run/sent_coverage); read by the JSON, Markdown and HTML reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace convcheck {

// One boundary of a schema path: an enum value, a length, size or number bound, null, the default.
struct BoundaryCoverage {
  std::string kind;   // "enum", "minLength", "maxLength", "minItems", "maxItems", "minProperties",
                      // "maxProperties", "minimum", "maximum", "null", "default", "non-default"
  std::string value;  // the enum value or the default as JSON, the bound as a number; "" for null
  std::int64_t hits = 0;  // values sent at this boundary
};

// One field of a version's schema ("spec.ports[*].name"; "[*]" items, ".*" map values).
struct PathCoverage {
  std::string path;
  std::string type;          // the schema's type ("string", …), "" when it names none
  bool required = false;     // never absent: its parent requires it, or a list item or map value
  std::int64_t present = 0;  // values sent at the path (null ones included)
  std::int64_t absent = 0;   // objects sent at the parent path without it
  std::vector<BoundaryCoverage> boundaries;
};

struct VersionCoverage {
  std::string version;
  std::int64_t objects = 0;         // objects of this version sent as a case's input
  std::vector<PathCoverage> paths;  // schema order (properties by name, depth first)
};

struct PairCoverage {
  std::string from, to;
  int cases = 0;
  std::int64_t requests = 0;  // every call of those cases (round trips, edits, …)
  std::int64_t objects = 0;   // objects in those calls
  std::int64_t bytes = 0;     // request bodies of those calls
};

// Counts for a summary line: how many of the version's paths and boundaries were reached.
struct CoverageCounts {
  int paths = 0, presentPaths = 0;
  int optionalPaths = 0, absentPaths = 0;  // optional paths, and those sent absent at least once
  int boundaries = 0, reachedBoundaries = 0;
};

struct KindCoverage {
  std::vector<VersionCoverage> versions;  // the kind's versions with a schema, in CRD order
  std::vector<PairCoverage> pairs;        // in run order
  bool collected() const { return !versions.empty() || !pairs.empty(); }
};

CoverageCounts coverageCounts(const VersionCoverage& version);

// What a green run did not test at `version`, one line each: "spec.suspend: never sent",
// "spec.mode: never absent (optional)", "spec.mode = \"Legacy\": enum value never sent",
// "spec.name: maxLength 63 never reached". Paths below a path never sent are not listed again.
std::vector<std::string> unexercised(const VersionCoverage& version);

// 1536 -> "1.5 KiB"
std::string byteSize(std::int64_t bytes);

}  // namespace convcheck
