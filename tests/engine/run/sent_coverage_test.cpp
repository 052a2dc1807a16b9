// Coverage of what a run sent: one version's schema paths present, absent and at their boundaries
// (SchemaCoverage, on objects given here), and the run's coverage per version and pair, the same
// for the same seed (against the example webhook's conversion in this process, no socket).
#include "engine/run/sent_coverage.h"

#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/run/run_job.h"
#include "engine/run/schema_coverage.h"
#include "reports/coverage_json.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
    "spec": {
      "type": "object",
      "required": ["name"],
      "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 4},
        "size": {"type": "string", "enum": ["small", "large"], "default": "small"},
        "note": {"type": "string", "nullable": true},
        "tags": {"type": "array", "maxItems": 2, "items": {"type": "string"}},
        "count": {"type": "integer", "minimum": 0, "exclusiveMaximum": true, "maximum": 10},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "deep": {"type": "object", "properties": {"x": {"type": "string"}}}
      }
    }
  }
})");

SchemaNodePtr parsed() { return std::get<ParsedSchema>(parseSchema(kSchema)).root; }

const PathCoverage& path(const VersionCoverage& v, const std::string& p) {
  auto it = std::find_if(v.paths.begin(), v.paths.end(),
                         [&](const PathCoverage& c) { return c.path == p; });
  if (it == v.paths.end()) throw std::runtime_error("no path " + p);
  return *it;
}

std::int64_t hits(const PathCoverage& p, const std::string& kind, const std::string& value = "") {
  for (const auto& b : p.boundaries)
    if (b.kind == kind && (value.empty() || b.value == value)) return b.hits;
  throw std::runtime_error("no boundary " + kind + " " + value + " at " + p.path);
}

json object(json spec) {
  return {{"apiVersion", "g/v1"}, {"kind", "K"}, {"metadata", {{"name", "a"}}}, {"spec", spec}};
}

TEST(SchemaCoverage, CountsEachPathPresentAndAbsentBelowItsParent) {
  SchemaNodePtr root = parsed();
  SchemaCoverage c("v1", *root);
  c.add(object({{"name", "ab"}, {"tags", {"x", "y"}}, {"labels", {{"a", "1"}, {"b", "2"}}}}));
  c.add(object({{"name", "abcd"}, {"note", nullptr}}));
  c.add(object({{"name", "a"}, {"size", "large"}, {"count", 9}}));
  const VersionCoverage v = c.result();
  EXPECT_EQ(v.version, "v1");
  EXPECT_EQ(v.objects, 3);
  for (const auto& p : v.paths) EXPECT_TRUE(p.path.rfind("spec", 0) == 0) << p.path;
  EXPECT_EQ(path(v, "spec").present, 3);
  EXPECT_EQ(path(v, "spec.name").present, 3);
  EXPECT_TRUE(path(v, "spec.name").required);
  EXPECT_EQ(path(v, "spec.note").present, 1);
  EXPECT_EQ(path(v, "spec.note").absent, 2);
  EXPECT_EQ(path(v, "spec.tags[*]").present, 2);
  EXPECT_EQ(path(v, "spec.labels.*").present, 2);
  EXPECT_EQ(path(v, "spec.deep").present, 0);
  EXPECT_EQ(path(v, "spec.deep.x").present, 0);
  EXPECT_EQ(path(v, "spec.deep.x").absent, 0);  // its parent was never sent
}

TEST(SchemaCoverage, CountsTheValuesSentAtEachBoundary) {
  SchemaNodePtr root = parsed();
  SchemaCoverage c("v1", *root);
  c.add(object({{"name", "ab"}, {"tags", {"x", "y"}}, {"size", "small"}}));
  c.add(object({{"name", "abcd"}, {"note", nullptr}, {"count", 0}}));
  c.add(object({{"name", "añ"}, {"size", "large"}, {"count", 9}}));
  const VersionCoverage v = c.result();
  EXPECT_EQ(hits(path(v, "spec.name"), "minLength", "1"), 0);
  EXPECT_EQ(hits(path(v, "spec.name"), "maxLength", "4"), 1);  // "añ" is 2 code points, not 4
  EXPECT_EQ(hits(path(v, "spec.size"), "enum", "\"small\""), 1);
  EXPECT_EQ(hits(path(v, "spec.size"), "enum", "\"large\""), 1);
  EXPECT_EQ(hits(path(v, "spec.size"), "default"), 1);
  EXPECT_EQ(hits(path(v, "spec.size"), "non-default"), 1);
  EXPECT_EQ(hits(path(v, "spec.note"), "null"), 1);
  EXPECT_EQ(hits(path(v, "spec.tags"), "maxItems", "2"), 1);
  EXPECT_EQ(hits(path(v, "spec.count"), "minimum", "0"), 1);
  EXPECT_EQ(hits(path(v, "spec.count"), "maximum", "9"), 1);  // exclusive 10: 9 is the largest
}

TEST(SchemaCoverage, SaysWhatWasNotExercisedOncePerSubtree) {
  SchemaNodePtr root = parsed();
  SchemaCoverage c("v1", *root);
  c.add(object({{"name", "ab"}, {"size", "small"}}));
  const std::vector<std::string> gaps = unexercised(c.result());
  auto has = [&](const std::string& line) {
    return std::find(gaps.begin(), gaps.end(), line) != gaps.end();
  };
  EXPECT_TRUE(has("spec.deep: never sent"));
  EXPECT_FALSE(has("spec.deep.x: never sent"));
  EXPECT_TRUE(has("spec.size = \"large\": enum value never sent"));
  EXPECT_TRUE(has("spec.size: only its default \"small\" sent"));
  EXPECT_TRUE(has("spec.name: minLength 1 never reached"));
  EXPECT_TRUE(has("spec: never absent (optional)"));
  EXPECT_FALSE(has("spec.name: never absent (optional)"));  // required
  EXPECT_FALSE(has("spec.size: never absent (optional)"));  // defaulted by the API server
}

// The run against the example webhook's conversion in this process.
RunReport runWidgets(std::uint64_t seed) {
  RunConfig c;
  c.crdInput = std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/widgets.example.convcheck.dev.yaml";
  c.url = "inprocess://example";
  c.seed = seed;
  c.testsPerPair = 12;
  c.testsGiven = true;
  c.jobs = 4;
  c.maxBatchSize = 32;
  std::istringstream none;
  AccessOptions access;
  access.targets = [](const ResolvedTarget&) {
    return std::make_unique<testing::ExampleTarget>(example::FaultSet{});
  };
  return runJob(c, std::move(access), none).report;
}

TEST(SentCoverage, ARunReportsEveryVersionAndWhatEachPairSent) {
  const RunReport r = runWidgets(11);
  ASSERT_EQ(r.kinds.size(), 1u);
  const KindReport& k = r.kinds[0];
  ASSERT_EQ(k.coverage.versions.size(), k.versions.size());
  std::int64_t objects = 0;
  for (std::size_t i = 0; i < k.versions.size(); ++i) {
    EXPECT_EQ(k.coverage.versions[i].version, k.versions[i]);
    EXPECT_GT(k.coverage.versions[i].objects, 0) << k.versions[i];
    EXPECT_GT(coverageCounts(k.coverage.versions[i]).presentPaths, 0) << k.versions[i];
    objects += k.coverage.versions[i].objects;
  }
  ASSERT_EQ(k.coverage.pairs.size(), k.versions.size() * (k.versions.size() - 1));
  std::int64_t requests = 0, sent = 0;
  for (const auto& p : k.coverage.pairs) {
    EXPECT_EQ(p.cases, 12) << p.from << "->" << p.to;
    EXPECT_GE(p.requests, p.cases);
    EXPECT_GT(p.bytes, p.objects * 50);  // an object takes more than 50 bytes of JSON
    requests += p.requests;
    sent += p.objects;
  }
  // The cases' calls are the kind's calls but shrinking's (no failure here, so none).
  EXPECT_EQ(requests, k.requests);
  EXPECT_EQ(sent, k.objectsSent);
  EXPECT_LE(objects, sent);  // inputs are a part of what was sent
}

TEST(SentCoverage, IsTheSameForTheSameSeed) {
  const json first = coverageToJson(runWidgets(5).kinds.at(0).coverage);
  EXPECT_EQ(first, coverageToJson(runWidgets(5).kinds.at(0).coverage));
  EXPECT_NE(first, coverageToJson(runWidgets(6).kinds.at(0).coverage));
}

}  // namespace
}  // namespace convcheck
