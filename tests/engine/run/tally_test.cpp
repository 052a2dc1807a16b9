// The tally: problems (one per defect, over every property and pair) ranked and numbered; causes
// per (property, pair) most severe first, at most eight with an example each, the rest counted;
// counts, warnings per version pair and latency percentiles.
#include "engine/run/tally.h"

#include <algorithm>

#include "engine/run/zero_value_probe.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

CrdVersion version(const std::string& name, bool served, bool storage) {
  CrdVersion v;
  v.name = name;
  v.served = served;
  v.storage = storage;
  return v;
}

CheckResult failure(const std::string& key, Severity severity, const std::string& marker) {
  Finding f;
  f.property = "round-trip";
  f.from = "v1";
  f.to = "v2";
  f.summary = marker;
  f.batch = SharedObjects::own(std::vector<nlohmann::json>{nlohmann::json{{"marker", marker}}});
  f.causes = {Cause{key, severity, "title " + key, "spec." + key}};
  return {"round-trip", Outcome::Fail, f, ""};
}

TEST(Tally, ReportsTheEightMostSevereCausesWithTheirOwnExamplesAndCountsTheRest) {
  Tally tally({}, {});
  for (int i = 0; i < 12; ++i)
    tally.add(failure("cosmetic" + std::to_string(i), Severity::Cosmetic, "c" + std::to_string(i)),
              "v1", "v2");
  tally.add(failure("loss", Severity::DataLoss, "the loss"), "v1", "v2");
  tally.add(failure("loss", Severity::DataLoss, "the loss again"), "v1", "v2");
  for (int i = 0; i < 3; ++i)
    tally.add(failure("invented" + std::to_string(i), Severity::Invented, "i" + std::to_string(i)),
              "v1", "v2");
  KindReport report;
  tally.fill(report);
  ASSERT_EQ(report.tallies.size(), 1u);
  const auto& t = report.tallies[0];
  EXPECT_EQ(t.failed, 17);
  ASSERT_EQ(t.findings.size(), 8u);
  EXPECT_EQ(t.moreCauses, 8);
  // The data loss first with its first case, then the invented data, then the first cosmetic ones.
  EXPECT_EQ(t.findings[0].cause->key, "loss");
  EXPECT_EQ(t.findings[0].cases, 2);
  EXPECT_EQ(t.findings[0].summary, "the loss");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.findings[1 + i].summary, "i" + std::to_string(i));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t.findings[4 + i].summary, "c" + std::to_string(i));
    ASSERT_EQ(t.findings[4 + i].batch.size(), 1u);
  }
}

TEST(Tally, KeepsCountsPerPairAndPercentiles) {
  Crd crd;
  crd.versions = {version("v0", false, false), version("v1", true, true),
                  version("v2", true, false)};
  crd.storedVersions = {"v1"};
  Tally t({}, ConversionReach(crd));
  t.add({"order", Outcome::Pass, std::nullopt, ""}, "v1", "v2");
  t.add({"order", Outcome::Blocked, std::nullopt, "why"}, "v1", "v2");
  t.add({"order", Outcome::Pass, std::nullopt, ""}, "v0", "v2");
  for (int i = 1; i <= 100; ++i) t.latency("v1", "v2", 1, i);
  KindReport r;
  t.fill(r);
  ASSERT_EQ(r.tallies.size(), 2u);
  EXPECT_EQ(r.tallies[0].from, "v0");
  EXPECT_TRUE(r.tallies[0].warningOnly);
  EXPECT_NE(r.tallies[0].warningReason.find("never converts from v0"), std::string::npos)
      << r.tallies[0].warningReason;
  EXPECT_EQ(r.tallies[1].passed, 1);
  EXPECT_EQ(r.tallies[1].blocked, 1);
  EXPECT_EQ(r.tallies[1].blockedBy, "why");
  ASSERT_EQ(r.latency.size(), 1u);
  EXPECT_DOUBLE_EQ(r.latency[0].p50Ms, 50);
  EXPECT_DOUBLE_EQ(r.latency[0].p99Ms, 99);
}

TEST(Tally, SelectedPropertiesOnly) {
  Tally t({"round-trip"}, {});
  t.add({"order", Outcome::Pass, std::nullopt, ""}, "a", "b");
  KindReport r;
  t.fill(r);
  EXPECT_TRUE(r.tallies.empty());
  EXPECT_TRUE(t.wants("round-trip"));
}

CheckResult failureOf(const std::string& property, const std::string& problem, Severity severity,
                      const std::string& marker) {
  Finding f;
  f.property = property;
  f.summary = marker;
  f.causes = {Cause{property + "|" + problem, severity, "title " + marker, "", problem}};
  return {property, Outcome::Fail, f, ""};
}

TEST(Tally, OneDefectUnderThreePropertiesAndTwoPairsIsOneProblemWithItsSites) {
  Tally t({}, {});
  t.add(failureOf("round-trip", "lost|spec.a", Severity::DataLoss, "first"), "v1", "v2");
  t.add(failureOf("round-trip", "lost|spec.a", Severity::DataLoss, "again"), "v1", "v2");
  t.add(failureOf("transitivity", "lost|spec.a", Severity::DataLoss, "t"), "v1", "v3");
  t.add(failureOf("edit-round-trip", "lost|spec.a", Severity::DataLoss, "e"), "v2", "v1");
  KindReport r;
  t.fill(r);
  ASSERT_EQ(r.problems.size(), 1u);
  const Problem& p = r.problems[0];
  EXPECT_EQ(p.id, "P1");
  EXPECT_EQ(p.key, "lost|spec.a");
  EXPECT_EQ(p.cases, 4);
  EXPECT_EQ(p.title, "title first");
  EXPECT_EQ(p.example.summary, "first");
  ASSERT_EQ(p.sites.size(), 3u);
  // Catalogue order: round-trip, edit-round-trip, transitivity.
  EXPECT_EQ(p.sites[0].property, "round-trip");
  EXPECT_EQ(p.sites[0].cases, 2);
  EXPECT_EQ(p.sites[1].property, "edit-round-trip");
  EXPECT_EQ(p.sites[1].from, "v2");
  EXPECT_EQ(p.sites[2].property, "transitivity");
  EXPECT_EQ(p.sites[2].to, "v3");
}

TEST(Tally, ProblemsRankBySeverityThenCasesThenFirstFound) {
  Tally t({}, {});
  t.add(failureOf("round-trip", "added|metadata.x", Severity::Cosmetic, "c"), "v1", "v2");
  t.add(failureOf("round-trip", "changed|spec.b", Severity::DataLoss, "b"), "v1", "v2");
  t.add(failureOf("round-trip", "lost|spec.c", Severity::DataLoss, "c1"), "v1", "v2");
  t.add(failureOf("round-trip", "lost|spec.c", Severity::DataLoss, "c2"), "v1", "v2");
  t.add(failureOf("round-trip", "lost|spec.d", Severity::DataLoss, "d"), "v1", "v2");
  t.add({"order", Outcome::Pass, std::nullopt, ""}, "v1", "v2");
  t.add(failureOf("order", "rejected|result-status|boom", Severity::Rejected, "r"), "v1", "v2");
  KindReport r;
  t.fill(r);
  std::vector<std::string> order;
  for (const auto& p : r.problems) order.push_back(p.id + " " + p.key);
  EXPECT_EQ(order,
            (std::vector<std::string>{"P1 lost|spec.c", "P2 changed|spec.b", "P3 lost|spec.d",
                                      "P4 rejected|result-status|boom", "P5 added|metadata.x"}));
  EXPECT_EQ(r.problems[3].severity, Severity::Rejected);  // a case of its site passed
}

TEST(Tally, ARejectionNoCaseEscapedIsAnOutage) {
  Tally t({}, {});
  t.add(failureOf("converts-valid-input", "rejected|result-status|no", Severity::Rejected, "1"),
        "v1", "v2");
  t.add(failureOf("converts-valid-input", "rejected|result-status|no", Severity::Rejected, "2"),
        "v2", "v1");
  KindReport r;
  t.fill(r);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].severity, Severity::Outage);
}

TEST(Tally, AProblemWarnsOnlyWhenEveryOneOfItsSitesIsAConversionTheApiServerNeverRequests) {
  Crd crd;
  // v0: not served, not stored: never converted from or to; v1 storage; v2 served.
  crd.versions = {version("v0", false, false), version("v1", true, true),
                  version("v2", true, false)};
  crd.storedVersions = {"v1"};
  Tally t({}, ConversionReach(crd));
  t.add(failureOf("round-trip", "lost|spec.a", Severity::DataLoss, "a"), "v0", "v1");
  t.add(failureOf("round-trip", "lost|spec.b", Severity::DataLoss, "b"), "v0", "v1");
  t.add(failureOf("round-trip", "lost|spec.b", Severity::DataLoss, "b"), "v2", "v1");
  KindReport r;
  t.fill(r);
  ASSERT_EQ(r.problems.size(), 2u);
  const Problem& b = r.problems[0].key == "lost|spec.b" ? r.problems[0] : r.problems[1];
  const Problem& a = r.problems[0].key == "lost|spec.a" ? r.problems[0] : r.problems[1];
  EXPECT_TRUE(a.warningOnly);
  EXPECT_FALSE(a.warningReason.empty());
  EXPECT_FALSE(b.warningOnly);
  EXPECT_TRUE(b.warningReason.empty());
  ASSERT_EQ(b.sites.size(), 2u);
  EXPECT_TRUE(b.sites[0].warningOnly);  // v0 -> v1
  EXPECT_FALSE(b.sites[1].warningOnly);
}

TEST(Tally, AShrunkExampleReplacesTheProblemsExampleAndTitle) {
  Tally t({}, {});
  t.add(failureOf("round-trip", "lost|spec.a", Severity::DataLoss, "big"), "v1", "v2");
  Finding shrunk = *failureOf("round-trip", "lost|spec.a", Severity::DataLoss, "small").finding;
  t.setProblemExample("lost|spec.a", shrunk);
  KindReport r;
  t.fill(r);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].example.summary, "small");
  EXPECT_EQ(r.problems[0].title, "title small");
}

}  // namespace
}  // namespace convcheck

namespace convcheck {
namespace {

// A data loss at `path` (a field problem) seen by round-trip on (from, to).
CheckResult lostAt(const std::string& path, const std::string& marker) {
  Finding f;
  f.property = "round-trip";
  f.summary = marker;
  f.causes = {
      Cause{"round-trip|lost|" + path, Severity::DataLoss, "lost " + path, path, "field|" + path}};
  return {"round-trip", Outcome::Fail, f, ""};
}

// The keys of the problems `t` reports, sorted.
std::vector<std::string> problemKeys(Tally& t) {
  KindReport r;
  t.fill(r);
  std::vector<std::string> keys;
  for (const auto& p : r.problems) keys.push_back(p.key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

TEST(TallyDefects, ProblemsWhoseShrunkCasesShowEachOtherAreOneProblemWithSeveralSymptoms) {
  Tally t({}, {});
  t.add(lostAt("spec.port", "a"), "v1", "v2");
  t.add(failureOf("schema-valid", "invalid|spec.port", Severity::Invented, "b"), "v1", "v2");
  t.add(lostAt("spec.other", "c"), "v1", "v2");
  t.setProblemWitness("field|spec.port", {"field|spec.port", "invalid|spec.port"});
  t.setProblemWitness("invalid|spec.port", {"invalid|spec.port", "field|spec.port"});
  // spec.other's shrunk case shows spec.port too, but not the other way round: another defect
  // that the same minimal object happens to meet.
  t.setProblemWitness("field|spec.other", {"field|spec.other", "field|spec.port"});
  KindReport r;
  t.fill(r);
  ASSERT_EQ(r.problems.size(), 2u);
  const Problem& folded = r.problems[0].key == "field|spec.port" ? r.problems[0] : r.problems[1];
  EXPECT_EQ(folded.key, "field|spec.port");  // the most severe symptom names the problem
  EXPECT_EQ(folded.symptomKeys, std::vector<std::string>{"invalid|spec.port"});
  EXPECT_EQ(folded.symptoms, std::vector<std::string>{"title b"});
  EXPECT_EQ(folded.sites.size(), 2u);  // round-trip and schema-valid
}

TEST(TallyDefects, WithoutAShrunkCaseNothingIsFolded) {
  Tally t({}, {});
  t.add(lostAt("spec.port", "a"), "v1", "v2");
  t.add(failureOf("schema-valid", "invalid|spec.port", Severity::Invented, "b"), "v1", "v2");
  t.setProblemWitness("field|spec.port", {"field|spec.port", "invalid|spec.port"});
  KindReport r;
  t.fill(r);
  EXPECT_EQ(r.problems.size(), 2u);
}

TEST(TallyDefects, FieldsThatLoseOnlyZerosAreOneProblemWhateverTheirNames) {
  Tally t({}, {});
  t.add(lostAt("spec.replicas", "a"), "v1", "v2");
  t.add(lostAt("spec.count", "b"), "v2", "v1");
  t.add(lostAt("status.ready", "c"), "v1", "v2");
  t.add(lostAt("spec.name", "d"), "v1", "v2");
  for (const char* key : {"field|spec.replicas", "field|spec.count", "field|status.ready"})
    t.setProblemWitness(key, {key, kDropsZeroValues});
  KindReport r;
  t.fill(r);
  ASSERT_EQ(r.problems.size(), 2u);
  const Problem& zeros = r.problems[0].key == "field|spec.name" ? r.problems[1] : r.problems[0];
  EXPECT_EQ(zeros.symptomKeys.size(), 2u);
  EXPECT_NE(zeros.title.find("zeros"), std::string::npos) << zeros.title;
  EXPECT_NE(zeros.title.find("status.ready"), std::string::npos) << zeros.title;
}

TEST(TallyDefects, FieldsOfOneParentBelowTheTopLevelOnTheSamePairsAreOneProblem) {
  Tally t({}, {});
  for (const char* pair : {"v2", "v3"}) {
    t.add(lostAt("spec.routes[*].host", "h"), "v1", pair);
    t.add(lostAt("spec.routes[*].port", "p"), "v1", pair);
    t.add(lostAt("spec.routes[*].backend.scheme", "s"), "v1", pair);
    t.add(lostAt("spec.a", "a"), "v1", pair);  // top-level: no failure lost them together
    t.add(lostAt("spec.b", "b"), "v1", pair);
    t.add(lostAt("metadata.annotations.x", "x"), "v1", pair);  // nor annotations
    t.add(lostAt("metadata.annotations.y", "y"), "v1", pair);
  }
  t.add(lostAt("spec.routes[*].weight", "w"), "v2", "v1");  // other pairs: another defect
  const std::vector<std::string> keys = problemKeys(t);
  EXPECT_EQ(keys,
            (std::vector<std::string>{
                "field|metadata.annotations.x", "field|metadata.annotations.y", "field|spec.a",
                "field|spec.b", "field|spec.routes[*].host", "field|spec.routes[*].weight"}));
}

}  // namespace
}  // namespace convcheck

namespace convcheck {
namespace {

CheckResult lostZeroAt(const std::string& path, bool zero) {
  CheckResult r = lostAt(path, "z");
  r.finding->causes.front().lostZero = zero;
  return r;
}

TEST(TallyDefects, WhereNothingWasProbedFieldsThatLostOnlyZerosInThreeCasesAreOneProblem) {
  Tally t({}, {});
  for (int i = 0; i < 3; ++i) {
    t.add(lostZeroAt("spec.replicas", true), "v1", "v2");
    t.add(lostZeroAt("spec.count", true), "v2", "v1");
    t.add(lostZeroAt("spec.size", i != 1), "v1", "v2");  // once a non-zero value: any value
  }
  t.add(lostZeroAt("spec.weight", true), "v1", "v2");  // once: no evidence
  t.setProblemWitness("field|spec.count", {"field|spec.count", kLosesAnyValue});  // probed: no
  KindReport r;
  t.fill(r);
  EXPECT_EQ(r.problems.size(), 4u);
  t = Tally({}, {});
  for (int i = 0; i < 3; ++i) {
    t.add(lostZeroAt("spec.replicas", true), "v1", "v2");
    t.add(lostZeroAt("spec.count", true), "v2", "v1");
  }
  KindReport folded;
  t.fill(folded);
  EXPECT_EQ(folded.problems.size(), 1u);
}

// A flattening that drops host and timeoutSeconds of every route, and a rename that loses
// apiType, fail on the same pairs in the same list; the rename's failure kept host beside the
// lost apiType, so they are two defects. Without that failure they would read as one.
TEST(TallyDefects, SiblingsAreTwoDefectsWhereAFailureLostOneAndKeptTheOtherInOneItem) {
  auto lostIn = [](const std::string& path, nlohmann::json before, nlohmann::json after) {
    CheckResult r = lostAt(path, path);
    r.finding->expected = std::move(before);
    r.finding->got = std::move(after);
    return r;
  };
  auto route = [](nlohmann::json item) {
    return nlohmann::json{{"spec", {{"routes", nlohmann::json::array({std::move(item)})}}}};
  };
  for (const bool evidence : {true, false}) {
    Tally t({}, {});
    for (const char* pair : {"v2", "v3"}) {
      t.add(lostIn("spec.routes[*].host", route({{"host", "h"}, {"timeoutSeconds", 3}}),
                   route(nlohmann::json::object())),
            "v1", pair);
      t.add(lostAt("spec.routes[*].timeoutSeconds", "t"), "v1", pair);
      if (evidence)
        t.add(lostIn("spec.routes[*].apiType", route({{"host", "h"}, {"apiType", "grpc"}}),
                     route({{"host", "h"}})),
              "v1", pair);
      else
        t.add(lostAt("spec.routes[*].apiType", "a"), "v1", pair);
    }
    const std::vector<std::string> keys = problemKeys(t);
    if (evidence)
      EXPECT_EQ(keys, (std::vector<std::string>{"field|spec.routes[*].apiType",
                                                "field|spec.routes[*].host"}));
    else
      EXPECT_EQ(keys, (std::vector<std::string>{"field|spec.routes[*].host"}));
  }
}

TEST(TallyDefects, AFieldLostOnlyAsZeroIsNotASiblingOfFieldsLostWhateverTheirValue) {
  Tally t({}, {});
  for (const char* pair : {"v2", "v3"}) {
    t.add(lostAt("spec.routes[*].host", "h"), "v1", pair);
    t.add(lostAt("spec.routes[*].port", "p"), "v1", pair);
    t.add(lostAt("spec.routes[*].weight", "w"), "v1", pair);  // a truthiness test elsewhere
  }
  t.setProblemWitness("field|spec.routes[*].weight",
                      {"field|spec.routes[*].weight", kDropsZeroValues});
  const std::vector<std::string> keys = problemKeys(t);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"field|spec.routes[*].host", "field|spec.routes[*].weight"}));
}

TEST(TallyDefects, ACosmeticProblemIsNotFoldedWithADataLossEvenWhereTheyShowEachOther) {
  // A stamp annotation on every conversion and a field lost on every conversion: each minimal
  // case shows the other, and they are still two defects.
  Tally t({}, {});
  t.add(lostAt("spec.port", "p"), "v1", "v2");
  Finding stamp;
  stamp.property = "round-trip";
  stamp.causes = {Cause{"round-trip|added|metadata.annotations.by", Severity::Cosmetic, "stamp",
                        "metadata.annotations.by", "field|metadata.annotations.by"}};
  t.add({"round-trip", Outcome::Fail, stamp, ""}, "v1", "v2");
  t.setProblemWitness("field|spec.port", {"field|spec.port", "field|metadata.annotations.by"});
  t.setProblemWitness("field|metadata.annotations.by",
                      {"field|metadata.annotations.by", "field|spec.port"});
  EXPECT_EQ(problemKeys(t),
            (std::vector<std::string>{"field|metadata.annotations.by", "field|spec.port"}));
}

}  // namespace
}  // namespace convcheck

namespace convcheck {
namespace {

// A failure of `property` on v1 -> v2 that lost `lost` from `before` (each path a key of spec).
CheckResult lostFrom(const std::string& property, const std::vector<std::string>& lost,
                     const nlohmann::json& before) {
  Finding f;
  f.property = property;
  f.from = "v1";
  f.to = "v2";
  f.expected = before;
  f.got = before;
  for (const auto& key : lost) {
    f.got["spec"].erase(key);
    const std::string path = "spec." + key;
    f.causes.push_back(Cause{property + "|lost|" + path, Severity::DataLoss, "lost " + path, path,
                             "field|" + path});
  }
  return {property, Outcome::Fail, f, ""};
}

// `result`'s finding as a shrinker leaves it: shrunk to `objects`, with the case seed `seed`.
Finding shrunkTo(const CheckResult& result, const nlohmann::json& object, std::uint64_t seed) {
  Finding f = *result.finding;
  f.caseObjects = SharedObjects::own(std::vector<nlohmann::json>{object});
  f.seed = seed;
  f.caseTo = "v2";
  f.shrink = ShrinkInfo{};
  f.shrink->calls = 6;
  return f;
}

// The shrinker, aiming at each of two problems, ends at the same case: the case fails once, and
// they are one problem. Another problem shrunk to another object stays apart.
TEST(TallyDefects, ProblemsWhoseShrunkExamplesAreTheSameCaseAreOneProblem) {
  const nlohmann::json object = {{"spec", {{"port", 1}, {"name", "a"}, {"owner", "o"}}}};
  const CheckResult port = lostFrom("round-trip", {"port"}, object);
  const CheckResult name = lostFrom("round-trip", {"name"}, object);
  const CheckResult owner = lostFrom("round-trip", {"owner"}, object);
  Tally t({}, {});
  for (const auto* r : {&port, &name, &owner}) t.add(*r, "v1", "v2");
  t.setProblemExample("field|spec.port", shrunkTo(port, object, 7));
  t.setProblemExample("field|spec.name", shrunkTo(name, object, 7));
  t.setProblemExample("field|spec.owner", shrunkTo(owner, {{"spec", {{"owner", "o"}}}}, 7));
  EXPECT_EQ(problemKeys(t), (std::vector<std::string>{"field|spec.owner", "field|spec.port"}));
  // The same objects with another seed (transitivity's via version, an edit) are another case.
  Tally seeds({}, {});
  for (const auto* r : {&port, &name}) seeds.add(*r, "v1", "v2");
  seeds.setProblemExample("field|spec.port", shrunkTo(port, object, 7));
  seeds.setProblemExample("field|spec.name", shrunkTo(name, object, 9));
  EXPECT_EQ(problemKeys(seeds).size(), 2u);
}

// An edit is content the shrinker cannot take away: one edit adding listeners and an owner meets
// a listener defect and an owner defect in one shrunk case. A listener lost and the fields of
// listeners lost are one problem there; the owner is another, and so is the owner's name whose
// case drew another edit (another seed).
TEST(TallyDefects, InAnEditsShrunkCaseOnlyAnItemAndWhatIsInsideItAreOneProblem) {
  const nlohmann::json object = {{"spec", {{"port", 1}}}};
  auto edited = [](const std::string& path) {
    Finding f;
    f.property = "edit-round-trip";
    f.from = "v1";
    f.to = "v2";
    f.causes = {Cause{"edit-round-trip|lost|" + path, Severity::DataLoss, "lost " + path, path,
                      "field|" + path}};
    return CheckResult{"edit-round-trip", Outcome::Fail, f, ""};
  };
  const CheckResult item = edited("spec.listeners[*]");
  const CheckResult port = edited("spec.listeners[*].port");
  const CheckResult owner = edited("spec.owner");
  const CheckResult other = edited("spec.owner.name");
  Tally t({}, {});
  for (const auto* r : {&item, &port, &owner, &other}) t.add(*r, "v1", "v2");
  t.setProblemExample("field|spec.listeners[*]", shrunkTo(item, object, 7));
  t.setProblemExample("field|spec.listeners[*].port", shrunkTo(port, object, 7));
  t.setProblemExample("field|spec.owner", shrunkTo(owner, object, 7));
  t.setProblemExample("field|spec.owner.name", shrunkTo(other, object, 8));
  EXPECT_EQ(problemKeys(t), (std::vector<std::string>{"field|spec.listeners[*]", "field|spec.owner",
                                                      "field|spec.owner.name"}));
}

// A listener not moved back converting to v1: the output lacks spec.port, which v1 requires, and
// every round trip from v1 through a version it was converted from loses spec.port (the back leg
// is that conversion). spec.size, invalid from v2 but lost only through v3, is two defects.
TEST(TallyDefects, AFieldInvalidInTheOutputAndLostOnTheRoundTripsBackIsOneProblem) {
  Tally t({}, {});
  for (const char* from : {"v2", "v3"}) {
    t.add(failureOf("schema-valid", "invalid|spec.port", Severity::Invented, "p"), from, "v1");
    t.add(lostAt("spec.port", "p"), "v1", from);
  }
  t.add(failureOf("schema-valid", "invalid|spec.size", Severity::Invented, "s"), "v2", "v1");
  t.add(lostAt("spec.size", "s"), "v1", "v3");
  EXPECT_EQ(problemKeys(t),
            (std::vector<std::string>{"field|spec.port", "field|spec.size", "invalid|spec.size"}));
}

// A listener list written to v1, which has none: kube-apiserver prunes it, and every round trip
// from a version it was written from through v1 loses the listeners. spec.tls, pruned on the way
// from v2 but lost only on trips through v3, is two defects.
TEST(TallyDefects, AFieldPrunedInTheOutputAndLostOnTheRoundTripsThroughItIsOneProblem) {
  Tally t({}, {});
  for (const char* from : {"v2", "v3"}) {
    t.add(failureOf("no-pruned-fields", "pruned|spec.listeners", Severity::DataLoss, "p"), from,
          "v1");
    t.add(lostAt("spec.listeners", "l"), from, "v1");
  }
  t.add(failureOf("no-pruned-fields", "pruned|spec.tls", Severity::DataLoss, "t"), "v2", "v1");
  t.add(lostAt("spec.tls", "t"), "v3", "v1");
  EXPECT_EQ(problemKeys(t), (std::vector<std::string>{"field|spec.tls", "pruned|spec.listeners",
                                                      "pruned|spec.tls"}));
}

// A root listener (port, hostname) not moved back: both are lost from every object on the same
// pairs. A field lost on fewer pairs in the same failures (another conversion's defect) stays its
// own problem, and so do top-level fields a failure lost apart.
TEST(TallyDefects, TopLevelFieldsLostTogetherOnExactlyTheSameSitesAreOneProblem) {
  const nlohmann::json object = {
      {"spec", {{"port", 1}, {"hostname", "h"}, {"parameters", {{"a", "b"}}}}}};
  Tally t({}, {});
  for (const char* to : {"v2", "v3"})
    t.add(lostFrom("round-trip", {"port", "hostname"}, object), "v1", to);
  t.add(lostFrom("round-trip", {"port", "hostname", "parameters"}, object), "v1", "v4");
  EXPECT_EQ(problemKeys(t), (std::vector<std::string>{"field|spec.parameters", "field|spec.port"}));
  // The same failures with port lost once where hostname was kept (the first failure of port):
  // two defects.
  Tally apart({}, {});
  apart.add(lostFrom("round-trip", {"port"}, object), "v1", "v2");
  for (const char* to : {"v2", "v3"})
    apart.add(lostFrom("round-trip", {"port", "hostname"}, object), "v1", to);
  EXPECT_EQ(problemKeys(apart),
            (std::vector<std::string>{"field|spec.hostname", "field|spec.port"}));
}

}  // namespace
}  // namespace convcheck
