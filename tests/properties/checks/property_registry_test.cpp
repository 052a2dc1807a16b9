// The property registry: every SPEC id once, in SPEC order, each with the judge its scope needs,
// the severity and the traits the rest of the tool reads from it; the Case-scope properties make
// exactly the calls their registry entry states.
#include "properties/checks/property_registry.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "kube/apiserver/group_version.h"
#include "properties/checks/cause_analysis.h"
#include "properties/checks/stored_form.h"

namespace convcheck {
namespace {

using nlohmann::json;

TEST(PropertyRegistry, ListsEverySpecIdOnceInSpecOrder) {
  const std::vector<std::string> spec = {"response-envelope",
                                         "uid-echo",
                                         "object-count",
                                         "order",
                                         "target-version",
                                         "kind-unchanged",
                                         "metadata-immutable",
                                         "labels-annotations-valid",
                                         "converts-valid-input",
                                         "round-trip",
                                         "edit-round-trip",
                                         "transitivity",
                                         "determinism",
                                         "batch-independence",
                                         "schema-valid",
                                         "no-pruned-fields",
                                         "tls",
                                         "timeout",
                                         "store",
                                         "read-after-upgrade",
                                         "migrate",
                                         "rollback",
                                         "crd-change",
                                         "same-behaviour"};
  std::vector<std::string> ids;
  for (const auto& p : propertyRegistry()) ids.emplace_back(p.id);
  EXPECT_EQ(ids, spec);
  EXPECT_TRUE(isKnownProperty("round-trip"));
  EXPECT_FALSE(isKnownProperty("round-trips"));
  EXPECT_EQ(findProperty("nope"), nullptr);
}

TEST(PropertyRegistry, EachPropertyHasExactlyTheJudgeOfItsScope) {
  for (const auto& p : propertyRegistry()) {
    SCOPED_TRACE(std::string(p.id));
    EXPECT_FALSE(p.holdsWhen.empty());
    EXPECT_FALSE(p.calls.empty());
    int judges = (p.judgeExchange != nullptr) + (p.judgeOutput != nullptr) +
                 (p.runCase != nullptr) + (p.judgeEndpoint != nullptr);
    // The properties of two releases are judged by engine/upgrade, not through the registry.
    EXPECT_EQ(judges, p.scope == PropertyScope::Release ? 0 : 1);
    switch (p.scope) {
      case PropertyScope::Exchange:
        EXPECT_NE(p.judgeExchange, nullptr);
        break;
      case PropertyScope::Output:
        EXPECT_NE(p.judgeOutput, nullptr);
        break;
      case PropertyScope::Case:
        EXPECT_NE(p.runCase, nullptr);
        break;
      case PropertyScope::Endpoint:
        EXPECT_NE(p.judgeEndpoint, nullptr);
        break;
      case PropertyScope::Release:
        break;
    }
  }
}

TEST(PropertyRegistry, APlainFailureHasTheSeverityItsPropertyStates) {
  const std::map<std::string, Severity> expected = {{"uid-echo", Severity::Cosmetic},
                                                    {"metadata-immutable", Severity::Cosmetic},
                                                    {"labels-annotations-valid", Severity::Outage},
                                                    {"tls", Severity::Outage},
                                                    {"timeout", Severity::Outage},
                                                    {"schema-valid", Severity::Invented},
                                                    {"store", Severity::Rejected},
                                                    {"crd-change", Severity::Rejected}};
  for (const auto& p : propertyRegistry()) {
    const std::string id(p.id);
    const auto it = expected.find(id);
    EXPECT_EQ(p.severity, it == expected.end() ? Severity::DataLoss : it->second) << id;
    Finding f;
    f.property = id;
    f.summary = "it failed";
    const auto causes = causesOf(f, nullptr);
    ASSERT_EQ(causes.size(), 1u) << id;
    EXPECT_EQ(causes[0].severity, p.severity) << id;
  }
}

TEST(PropertyRegistry, TheTraitsOtherLayersAskForBelongToTheirProperties) {
  std::set<std::string> convertsBack, aboutMetadata, aboutLatency, causesInDetails, ownContent;
  for (const auto& p : propertyRegistry()) {
    if (p.convertsBack) convertsBack.emplace(p.id);
    if (p.aboutMetadata) aboutMetadata.emplace(p.id);
    if (p.aboutLatency) aboutLatency.emplace(p.id);
    if (p.causesInDetails != nullptr) causesInDetails.emplace(p.id);
    if (p.drawsOwnContent) ownContent.emplace(p.id);
  }
  EXPECT_EQ(convertsBack, std::set<std::string>{"round-trip"});
  EXPECT_EQ(aboutMetadata, std::set<std::string>{"metadata-immutable"});
  EXPECT_EQ(aboutLatency, std::set<std::string>{"timeout"});
  EXPECT_EQ(causesInDetails, (std::set<std::string>{"schema-valid", "no-pruned-fields"}));
  // Its failures on a shrunk case are not evidence of what the case's objects meet.
  EXPECT_EQ(ownContent, std::set<std::string>{"edit-round-trip"});
}

TEST(PropertyRegistry, CheckExchangeJudgesEveryExchangeScopePropertyOnce) {
  Exchange ex;
  ex.sent.objects = SharedObjects::own({json{{"apiVersion", "g/v1"}, {"kind", "K"}}});
  ex.sent.desiredApiVersion = "g/v2";
  ex.http.status = 200;
  std::multiset<std::string> judged;
  for (const auto& r : checkExchange(share(ex), {"v1", "v2"})) judged.insert(r.property);
  std::multiset<std::string> expected;
  for (const auto& p : propertyRegistry())
    if (p.scope == PropertyScope::Exchange) expected.insert(std::string(p.id));
  EXPECT_EQ(judged, expected);
}

// A webhook that converts by rewriting apiVersion, counting what a property asks of the case.
class CountingCase : public CaseCalls {
 public:
  CountingCase(std::vector<json> batch, std::string from, std::string to,
               std::vector<std::string> versions)
      : batch_(SharedObjects::own(std::move(batch))),
        context_{std::move(from), std::move(to)},
        versions_(std::move(versions)) {
    forward_ = convert(batch_, "g/" + context_.to);
  }
  const SharedObjects& batch() const override { return batch_; }
  const ExchangeRef& forward() const override { return forward_; }
  const CaseContext& context() const override { return context_; }
  std::uint64_t seed() const override { return 7; }
  using CaseCalls::send;
  ExchangeRef send(SharedObjects objects, const std::string& to) override {
    sentTo.push_back(to);
    return convert(objects, "g/" + to);
  }
  void judgeCall(const ExchangeRef&, const std::string& from, const std::string& to) override {
    judgedCalls.push_back(from + "->" + to);
  }
  void record(CheckResult r) override { recorded.push_back(std::move(r)); }
  const std::vector<std::string>& versions() const override { return versions_; }
  std::optional<json> edit(const json& object, const std::string&, std::uint64_t) const override {
    json edited = object;
    edited["spec"]["edited"] = true;
    return edited;
  }
  const json* schemaOf(const std::string&) const override { return &schema_; }
  bool isStorage(const std::string&) const override { return false; }
  json defaulted(json object) const override { return object; }
  bool rawObjects() const override { return false; }

  std::vector<std::string> sentTo, judgedCalls;
  std::vector<CheckResult> recorded;

 private:
  // What a client sees of each converted object, as the API-server model would show it.
  ExchangeRef convert(const SharedObjects& objects, const std::string& apiVersion) const {
    Exchange ex;
    ex.sent.objects = objects;
    ex.sent.desiredApiVersion = apiVersion;
    for (auto o : objects) {
      o["apiVersion"] = apiVersion;
      ex.verdict.visible.push_back(storedForm(o, schema_));
    }
    return share(std::move(ex));
  }
  // Every version keeps whatever it is given (nothing pruned).
  json schema_ = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  SharedObjects batch_;
  CaseContext context_;
  std::vector<std::string> versions_;
  ExchangeRef forward_;
};

json caseObject(const std::string& version, const std::string& name) {
  return {{"apiVersion", "g/" + version},
          {"kind", "K"},
          {"metadata", {{"name", name}}},
          {"spec", {{"a", 1}}}};
}

struct CaseCallsExpectation {
  std::string property;
  std::vector<json> batch;
  std::vector<std::string> sentTo;       // the calls the property makes, in order
  std::vector<std::string> judgedCalls;  // which of them are judged like any answer
  bool records = true;                   // false: not applicable to this batch
};

void PrintTo(const CaseCallsExpectation& e, std::ostream* os) {
  *os << e.property << " on " << e.batch.size() << " object(s)";
}

class CaseProperty : public ::testing::TestWithParam<CaseCallsExpectation> {};

TEST_P(CaseProperty, MakesTheCallsItsEntryStatesAndPassesOnAnIdentityConversion) {
  const auto& e = GetParam();
  const Property* p = findProperty(e.property);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->scope, PropertyScope::Case);
  CountingCase c(e.batch, objectVersion(e.batch.front()), "v2", {"v1", "v2", "v3"});
  p->runCase(c);
  EXPECT_EQ(c.sentTo, e.sentTo);
  EXPECT_EQ(c.judgedCalls, e.judgedCalls);
  if (!e.records) {
    EXPECT_TRUE(c.recorded.empty());
    return;
  }
  ASSERT_EQ(c.recorded.size(), 1u);
  EXPECT_EQ(c.recorded[0].property, e.property);
  // edit-round-trip's fake edit survives an identity conversion too.
  EXPECT_EQ(c.recorded[0].outcome, Outcome::Pass) << c.recorded[0].blockedBy;
}

INSTANTIATE_TEST_SUITE_P(
    Registry, CaseProperty,
    ::testing::Values(
        // One backward call per source version, each judged for the pair to -> source.
        CaseCallsExpectation{"round-trip",
                             {caseObject("v1", "a"), caseObject("v3", "b"), caseObject("v1", "c")},
                             {"v1", "v3"},
                             {"v2->v1", "v2->v3"}},
        CaseCallsExpectation{
            "determinism", {caseObject("v1", "a"), caseObject("v1", "b")}, {"v2"}, {}},
        // Through the one other version (seed 7 % 1), then on to the target.
        CaseCallsExpectation{"transitivity", {caseObject("v1", "a")}, {"v3", "v2"}, {}},
        CaseCallsExpectation{
            "transitivity", {caseObject("v1", "a"), caseObject("v1", "b")}, {}, {}, false},
        CaseCallsExpectation{"edit-round-trip", {caseObject("v1", "a")}, {"v1", "v2"}, {}},
        CaseCallsExpectation{
            "edit-round-trip", {caseObject("v1", "a"), caseObject("v1", "b")}, {}, {}, false},
        // First, last and one in between alone, then the batch reordered.
        CaseCallsExpectation{"batch-independence",
                             {caseObject("v1", "a"), caseObject("v1", "b"), caseObject("v1", "c")},
                             {"v2", "v2", "v2", "v2"},
                             {}},
        CaseCallsExpectation{"batch-independence", {caseObject("v1", "a")}, {}, {}, false}),
    [](const auto& info) {
      std::string name = info.param.property + "_" + std::to_string(info.param.batch.size());
      for (auto& ch : name)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

TEST(PropertyRegistry, TheTableHasOneRowPerProperty) {
  std::string table = propertyTable(true);
  std::size_t rows = 0;
  for (char ch : table) rows += ch == '\n';
  EXPECT_EQ(rows, propertyRegistry().size() + 2);
  EXPECT_NE(table.find("| `round-trip` | "), std::string::npos);
}

}  // namespace
}  // namespace convcheck
