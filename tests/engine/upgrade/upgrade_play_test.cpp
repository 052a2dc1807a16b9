// The play of one object through an upgrade, step by step, against the example webhook's two
// releases converting in this process (no socket, tests/engine/run/in_process_target.h): what each
// step reports, at which sites, with which causes. The same checks against real webhook processes
// are in tests/integration.
#include "engine/upgrade/upgrade_play.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "engine/upgrade/upgrade_objects.h"
#include "kube/crd/crd_loader.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

Crd loadCrd(const std::string& relative) {
  std::istringstream none;
  LoadResult loaded = loadCrdInput(std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/" + relative, none);
  if (!loaded.ok() || loaded.crds.empty()) throw std::runtime_error("cannot load " + relative);
  return loaded.crds.front();
}

KindContext compiled(const Crd& crd) { return std::get<KindContext>(KindContext::compile(crd)); }

ResolvedTarget inProcess() {
  ResolvedTarget t;
  t.url = "inprocess://example";
  return t;
}

// Both releases of the example Widget and the play between them.
struct Upgrade {
  // `migrates`: the release has its migration step (the runner finds its StorageVersionMigration).
  explicit Upgrade(const std::string& newCrd, example::FaultSet newFaults = {},
                   const AckConfig* acks = nullptr, bool migrates = true)
      : oldKind(compiled(loadCrd("widgets.example.convcheck.dev.yaml"))),
        newKind(compiled(loadCrd(newCrd))),
        oldRelease(
            "old", oldKind, inProcess(),
            [](const ResolvedTarget&) {
              return std::make_unique<testing::ExampleTarget>(example::FaultSet{},
                                                              example::KindMode::examples);
            },
            1),
        newRelease(
            "new", newKind, inProcess(),
            [newFaults](const ResolvedTarget&) {
              return std::make_unique<testing::ExampleTarget>(newFaults,
                                                              example::KindMode::release2);
            },
            1),
        play(oldRelease, newRelease, {migrates, {"v1alpha1", "v1beta1"}}, acks) {}

  // Every result of every object generated for the old release.
  std::vector<StepResult> playAll(int perVersion = 4) {
    auto oldCalls = oldRelease.open();
    auto newCalls = newRelease.open();
    std::vector<StepResult> all;
    const UpgradeInputs inputs =
        upgradeObjects(oldKind, {"v1alpha1", "v1beta1"}, {perVersion, 0, {}, {}, 11});
    std::uint64_t seed = 1;
    for (const auto& object : inputs.objects)
      for (auto& r : play.play(object, seed++, *oldCalls, *newCalls).results)
        all.push_back(std::move(r));
    return all;
  }

  KindContext oldKind, newKind;
  Release oldRelease, newRelease;
  UpgradePlay play;
};

// (property, problem of each cause) of every failing result.
std::set<std::pair<std::string, std::string>> failures(const std::vector<StepResult>& results) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& r : results)
    if (r.result.outcome == Outcome::Fail)
      for (const auto& c : r.result.finding->causes) out.insert({r.result.property, c.problem});
  return out;
}

TEST(UpgradePlay, TheCorrectSecondReleaseBreaksNoStep) {
  Upgrade u("release2/widgets.example.convcheck.dev.yaml");
  const auto results = u.playAll();
  EXPECT_EQ(failures(results), (std::set<std::pair<std::string, std::string>>{}));
  std::set<std::string> steps;
  for (const auto& r : results) steps.insert(r.result.property);
  EXPECT_EQ(steps, (std::set<std::string>{"store", "read-after-upgrade", "migrate", "rollback",
                                          "crd-change"}));
}

TEST(UpgradePlay, AStoredVersionReadDifferentlyBreaksReadMigrateAndRollBackOnOnePath) {
  Upgrade u("release2/widgets.example.convcheck.dev.yaml",
            {example::Fault::ConvertsStoredDifferently});
  EXPECT_EQ(failures(u.playAll()), (std::set<std::pair<std::string, std::string>>{
                                       {"read-after-upgrade", "field|spec.size"},
                                       {"migrate", "field|spec.size"},
                                       {"rollback", "field|spec.size"}}));
}

TEST(UpgradePlay, ObjectsStoredInADroppedVersionCannotBeReadAfterTheUpgrade) {
  Upgrade u("release2/widgets.example.convcheck.dev.yaml", {example::Fault::DropsV1alpha1});
  for (const auto& r : u.playAll()) {
    if (r.result.outcome != Outcome::Fail) continue;
    EXPECT_EQ(r.from, "v1alpha1") << r.result.property;
    EXPECT_EQ(r.result.finding->causes.front().problem.rfind("rejected|result-status|", 0), 0u);
  }
}

TEST(UpgradePlay, EachCrdChangeIsItsOwnCauseAtItsStep) {
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {"required-without-default", {"crd-change", "unwritable|spec.owner"}},
      {"storage-without-migration",
       {"crd-change", "crd-change|storage-without-migration|v1beta1|v1"}},
      {"storage-on-new-version", {"rollback", "rollback|impossible|v2"}},
      {"v1alpha1-removed", {"crd-change", "crd-change|stored-version-removed|v1alpha1"}}};
  for (const auto& [fault, failure] : expected) {
    Upgrade u("release2/faults/" + fault + ".yaml", {}, nullptr,
              fault != "storage-without-migration");
    EXPECT_EQ(failures(u.playAll()), (std::set<std::pair<std::string, std::string>>{failure}))
        << fault;
  }
}

TEST(UpgradePlay, AnAcknowledgedPathPassesAndIsListed) {
  auto acks = parseAckConfig(
      "acknowledge:\n  - path: spec.size\n    property: read-after-upgrade\n    reason: new "
      "sizes\n",
      "test.yaml");
  ASSERT_TRUE(std::holds_alternative<AckConfig>(acks));
  Upgrade u("release2/widgets.example.convcheck.dev.yaml",
            {example::Fault::ConvertsStoredDifferently}, &std::get<AckConfig>(acks));
  const auto results = u.playAll();
  int acknowledged = 0;
  for (const auto& r : results) {
    acknowledged += static_cast<int>(r.result.acknowledged.size());
    if (r.result.property == "read-after-upgrade") {
      EXPECT_NE(r.result.outcome, Outcome::Fail);
    }
  }
  EXPECT_GT(acknowledged, 0);
  // Other steps are not covered by an acknowledgement of read-after-upgrade.
  EXPECT_TRUE(failures(results).count({"migrate", "field|spec.size"}));
}

TEST(UpgradeObjects, EachServedVersionIsWrittenAndEachOtherStoredVersionStoredAsItIs) {
  KindContext kind = compiled(loadCrd("widgets.example.convcheck.dev.yaml"));
  const UpgradeInputs in = upgradeObjects(kind, {"v1alpha1", "v1beta1"}, {2, 0, {}, {}, 1});
  std::multiset<std::string> shapes;
  std::set<std::string> names;
  for (const auto& o : in.objects) {
    shapes.insert(o.object["apiVersion"].get<std::string>() + (o.stored ? " stored" : " written"));
    names.insert(o.object["metadata"]["namespace"].get<std::string>() + "/" +
                 o.object["metadata"]["name"].get<std::string>());
    EXPECT_TRUE(o.requestedVersions.empty());  // generated objects name no real client
  }
  EXPECT_EQ(shapes,
            (std::multiset<std::string>{
                "example.convcheck.dev/v1alpha1 written", "example.convcheck.dev/v1alpha1 written",
                "example.convcheck.dev/v1alpha1 stored", "example.convcheck.dev/v1alpha1 stored",
                "example.convcheck.dev/v1beta1 written", "example.convcheck.dev/v1beta1 written",
                "example.convcheck.dev/v1 written", "example.convcheck.dev/v1 written"}));
  EXPECT_EQ(names.size(), in.objects.size());  // unique identities, as in one cluster
}

TEST(UpgradeObjects, ManagedFieldsNameTheVersionsClientsWroteAt) {
  const Crd crd = loadCrd("widgets.example.convcheck.dev.yaml");
  const json object = {{"metadata",
                        {{"managedFields",
                          {{{"apiVersion", "example.convcheck.dev/v1alpha1"}},
                           {{"apiVersion", "example.convcheck.dev/v1"}},
                           {{"apiVersion", "example.convcheck.dev/v1alpha1"}},
                           {{"apiVersion", "other.example/v1"}}}}}}};
  EXPECT_EQ(managedFieldVersions(object, crd), (std::vector<std::string>{"v1alpha1", "v1"}));
}

}  // namespace
}  // namespace convcheck
