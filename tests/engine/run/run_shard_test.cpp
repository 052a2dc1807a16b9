// Sharding a run (--shard I/N): every (kind, version pair) of the run goes to exactly one shard,
// dealt out in run order, stored cases of a pair go with it, and shards beyond the pairs get none.
#include "engine/run/run_shard.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

Crd crdWith(const std::string& name, const std::vector<std::string>& versions) {
  Crd crd;
  crd.name = name;
  for (const auto& v : versions) {
    CrdVersion version;
    version.name = v;
    version.schema = {{"type", "object"}};
    crd.versions.push_back(version);
  }
  return crd;
}

TEST(RunShard, EveryPairOfTheRunIsRunByExactlyOneShardInRunOrder) {
  const Crd a = crdWith("a.example.com", {"v1", "v2", "v3"});  // 6 pairs
  Crd b = crdWith("b.example.com", {"v1", "v2"});              // 2 pairs
  b.versions.push_back(CrdVersion{});  // a version without a schema is not tested
  b.versions.back().name = "v0";
  const std::vector<const Crd*> crds = {&a, &b};
  std::vector<RunShard> shards;
  for (int i = 0; i < 3; ++i) shards.emplace_back(crds, i, 3);
  int units = 0;
  for (const Crd* crd : crds)
    for (const auto& from : crd->versions)
      for (const auto& to : crd->versions) {
        if (from.name == to.name || from.schema.is_null() || to.schema.is_null()) continue;
        int runBy = 0;
        for (int i = 0; i < 3; ++i)
          if (shards[i].runsPair(*crd, from.name, to.name)) {
            ++runBy;
            EXPECT_EQ(i, units % 3) << crd->name << " " << from.name << "->" << to.name;
          }
        EXPECT_EQ(runBy, 1) << crd->name << " " << from.name << "->" << to.name;
        ++units;
      }
  EXPECT_EQ(units, 8);
  EXPECT_EQ(shards[0].units(), 8);
  EXPECT_EQ(shards[0].unitsRun() + shards[1].unitsRun() + shards[2].unitsRun(), 8);
  EXPECT_EQ(shards[0].unitsRun(), 3);  // pairs 0, 3, 6
  // Shard 3 runs pairs 2 and 5, both of a: nothing of b.
  EXPECT_TRUE(shards[2].runsKind(a));
  EXPECT_FALSE(shards[2].runsKind(b));
  EXPECT_EQ(shards[2].kindsRun(), 1);
  // A stored case of a pair the kind does not test goes with the kind's first pair.
  EXPECT_TRUE(shards[0].runsPair(b, "v0", "v1") == shards[0].runsPair(b, "v1", "v2"));
}

TEST(RunShard, AKindWithNothingToConvertIsOneUnitAndExtraShardsRunNothing) {
  const Crd one = crdWith("one.example.com", {"v1"});
  const Crd two = crdWith("two.example.com", {"v1", "v2"});
  const std::vector<const Crd*> crds = {&one, &two};
  EXPECT_EQ(RunShard(crds, 0, 1).units(), 3);
  EXPECT_TRUE(RunShard(crds, 0, 5).runsKind(one));
  EXPECT_FALSE(RunShard(crds, 0, 5).runsKind(two));
  EXPECT_EQ(RunShard(crds, 3, 5).unitsRun(), 0);
  EXPECT_EQ(RunShard(crds, 3, 5).kindsRun(), 0);
  // Unsharded, everything runs.
  EXPECT_TRUE(RunShard(crds, 0, 1).runsPair(two, "v2", "v1"));
  EXPECT_EQ(RunShard(crds, 0, 1).unitsRun(), 3);
}

}  // namespace
}  // namespace convcheck
