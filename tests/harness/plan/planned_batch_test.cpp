// A planned case's objects: the seeded draw per slot (minimal for object 0 of a Minimal case) and
// unique names and uids inside one batch, however the batch was cut down.
#include "harness/plan/planned_batch.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "kube/crd/crd_loader.h"

namespace convcheck {
namespace {

using nlohmann::json;

json object(const std::string& name, const std::string& uid) {
  return {{"metadata", {{"name", name}, {"uid", uid}}}};
}

TEST(UniqueIdentities, ARepeatedNameGetsItsSlotAsSuffix) {
  auto batch =
      uniqueIdentities({object("a", "1"), object("a", "2"), object("b", "3")}, {0, 4, 5}, 7);
  EXPECT_EQ(batch[0]["metadata"]["name"], "a");
  EXPECT_EQ(batch[1]["metadata"]["name"], "a-4");
  EXPECT_EQ(batch[2]["metadata"]["name"], "b");
}

TEST(UniqueIdentities, LongNamesThatAlreadyCarryTheSuffixStillBecomeUnique) {
  const std::string longName(200, 'n');
  auto batch = uniqueIdentities(
      {object(longName + "-3", "1"), object(longName + "-3", "2"), object(longName + "-3", "3")},
      {0, 3, 3}, 7);
  std::set<std::string> names;
  for (const auto& o : batch) {
    const std::string name = o["metadata"]["name"];
    EXPECT_LE(name.size(), 253u);
    EXPECT_TRUE(names.insert(name).second) << name;
  }
}

TEST(UniqueIdentities, ARepeatedUidIsReplacedByOneDrawnFromTheSeedAndTheSlot) {
  auto first = uniqueIdentities({object("a", "u"), object("b", "u")}, {0, 3}, 7);
  auto again = uniqueIdentities({object("x", "u"), object("y", "u")}, {0, 3}, 7);
  auto otherSlot = uniqueIdentities({object("a", "u"), object("b", "u")}, {0, 2}, 7);
  EXPECT_EQ(first[0]["metadata"]["uid"], "u");
  EXPECT_NE(first[1]["metadata"]["uid"], "u");
  EXPECT_EQ(first[1]["metadata"]["uid"], again[1]["metadata"]["uid"]);
  EXPECT_NE(first[1]["metadata"]["uid"], otherSlot[1]["metadata"]["uid"]);
}

TEST(UniqueIdentities, ObjectsWithoutMetadataAreLeftAlone) {
  auto batch = uniqueIdentities({json("not an object"), json::object()}, {0, 1}, 7);
  EXPECT_EQ(batch[0], "not an object");
  EXPECT_EQ(batch[1], json::object());
}

class PlannedDrawTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::istringstream none;
    LoadResult loaded = loadCrdInput(
        std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/crontabs.stable.example.com.yaml", none);
    ASSERT_FALSE(loaded.crds.empty());
    crd = loaded.crds.front();
    auto compiled = ObjectGenerator::compile(crd, "v1", {});
    ASSERT_TRUE(std::holds_alternative<ObjectGenerator>(compiled));
    gen.emplace(std::get<ObjectGenerator>(std::move(compiled)));
  }
  Crd crd;
  std::optional<ObjectGenerator> gen;
};

TEST_F(PlannedDrawTest, TheSameCaseAndSlotDrawTheSameObjectAndAnotherSlotAnother) {
  PlannedCase planned;
  planned.seed = 42;
  planned.genSize = 60;
  EXPECT_EQ(plannedDraw(*gen, planned, 1).value(), plannedDraw(*gen, planned, 1).value());
  EXPECT_NE(plannedDraw(*gen, planned, 1).value(), plannedDraw(*gen, planned, 2).value());
}

TEST_F(PlannedDrawTest, ObjectZeroOfAMinimalCaseComesFromTheMinimalGenerator) {
  PlannedCase planned;
  planned.seed = 42;
  planned.genSize = 60;
  planned.shape = CaseShape::Minimal;
  EXPECT_EQ(plannedDraw(*gen, planned, 0).value(), gen->minimal()(rc::Random(42), 60).value());
  EXPECT_EQ(plannedDraw(*gen, planned, 1).value(), gen->objects()(rc::Random(43), 60).value());
}

// A LIST returns stored objects: every one has managedFields and a resourceVersion, and most
// carry labels and annotations; objects of other cases often lack them.
TEST_F(PlannedDrawTest, EveryObjectOfAListChunkHasTheMetadataOfAStoredObject) {
  PlannedCase chunk;
  chunk.seed = 7;
  chunk.genSize = 47;
  chunk.listChunk = true;
  PlannedCase single = chunk;
  single.listChunk = false;
  int labelled = 0, singleWithout = 0;
  constexpr int kSlots = 200;
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    const json meta = plannedObject(*gen, chunk, slot)["metadata"];
    EXPECT_TRUE(meta.contains("managedFields")) << meta.dump();
    EXPECT_TRUE(meta.contains("resourceVersion")) << meta.dump();
    labelled += meta.contains("labels") && meta.contains("annotations");
    const json other = plannedObject(*gen, single, slot)["metadata"];
    singleWithout += !other.contains("managedFields") || !other.contains("resourceVersion");
  }
  EXPECT_GE(labelled, kSlots / 2);
  EXPECT_GT(singleWithout, 0);
}

TEST_F(PlannedDrawTest, TheObjectARunSendsIsTheValueOfTheTreeTheShrinkerRebuilds) {
  for (CaseShape shape : {CaseShape::Any, CaseShape::Minimal})
    for (std::uint64_t seed = 1; seed <= 40; ++seed)
      for (std::size_t slot : {0, 1, 5}) {
        PlannedCase planned;
        planned.seed = seed * 7919;
        planned.genSize = static_cast<int>(seed * 5 % 101);
        planned.shape = shape;
        EXPECT_EQ(plannedObject(*gen, planned, slot), plannedDraw(*gen, planned, slot).value())
            << "seed " << planned.seed << " slot " << slot;
      }
}

}  // namespace
}  // namespace convcheck
