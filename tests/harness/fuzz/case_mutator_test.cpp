// Schema-level mutation: mutants and cross-overs stay valid cases, each mutation kind happens and
// changes the case, and the same case and seed give the same mutant.
#include "harness/fuzz/case_mutator.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/harness/fuzz/fuzz_kind_fixture.h"

namespace convcheck {
namespace {

class CaseMutatorTest : public FuzzKindTest {};

TEST_P(CaseMutatorTest, ChainsOfMutantsStayValid) {
  CaseMutator mutator(kind);
  std::map<MutationKind, int> kinds;
  for (std::uint64_t chain = 0; chain < 6; ++chain) {
    FuzzCase c = generatedFuzzCase(kind, chain);
    for (std::uint64_t step = 0; step < 60; ++step) {
      Mutation m = mutator.mutate(c, chain * 1000 + step);
      expectValid(m.result);
      EXPECT_NE(encodeFuzzCase(m.result), encodeFuzzCase(c)) << mutationName(m.kind);
      ++kinds[m.kind];
      // What the engine hands back is the encoding: it decodes to the mutant.
      EXPECT_EQ(encodeFuzzCase(decodeText(kind, encodeFuzzCase(m.result))),
                encodeFuzzCase(m.result));
      c = std::move(m.result);
    }
  }
  for (MutationKind k :
       {MutationKind::SetValue, MutationKind::DropField, MutationKind::AddObject,
        MutationKind::RemoveObject, MutationKind::RegenerateObject, MutationKind::ChangeTarget})
    EXPECT_GT(kinds[k], 0) << mutationName(k);
  // Only the widgets CRD has lists (spec.tags).
  if (GetParam().rfind("widgets", 0) == 0) {
    EXPECT_GT(kinds[MutationKind::ResizeList], 0);
  }
  // The gadgets CRD has every shape: free strings, keyed lists, preserve-unknown maps.
  if (GetParam().rfind("gadgets", 0) == 0) {
    for (MutationKind k : {MutationKind::ResizeList, MutationKind::EditString,
                           MutationKind::RepeatKey, MutationKind::EditFreeForm})
      EXPECT_GT(kinds[k], 0) << mutationName(k);
  }
  EXPECT_GT(kinds[MutationKind::EditString], 0);
}

TEST_P(CaseMutatorTest, AValueMutationChangesOneObjectOnly) {
  CaseMutator mutator(kind);
  int seen = 0;
  for (std::uint64_t seed = 0; seed < 200 && seen < 10; ++seed) {
    FuzzCase c = generatedFuzzCase(kind, seed);
    Mutation m = mutator.mutate(c, seed);
    if (m.kind != MutationKind::SetValue) continue;
    ++seen;
    ASSERT_EQ(m.result.objects.size(), c.objects.size());
    int changed = 0;
    for (std::size_t i = 0; i < c.objects.size(); ++i) {
      changed += m.result.objects[i] != c.objects[i];
      EXPECT_EQ(m.result.objects[i]["metadata"], c.objects[i]["metadata"]);
    }
    EXPECT_EQ(changed, 1);
    EXPECT_EQ(m.result.to, c.to);
  }
  EXPECT_EQ(seen, 10);
}

TEST_P(CaseMutatorTest, ListsReachLengthsTheGeneratorsNeverDraw) {
  if (GetParam().rfind("widgets", 0) != 0) GTEST_SKIP() << "only the widgets CRD has lists";
  CaseMutator mutator(kind);
  std::set<std::size_t> lengths;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    FuzzCase c = generatedFuzzCase(kind, seed % 40);
    for (std::uint64_t step = 0; step < 5; ++step) {
      c = mutator.mutate(c, seed * 10 + step).result;
      for (const auto& o : c.objects)
        if (o.contains("spec") && o["spec"].contains("tags"))
          lengths.insert(o["spec"]["tags"].size());
    }
  }
  // spec.tags has maxItems 16; generated objects carry at most five.
  EXPECT_GE(lengths.size(), 10u);
  EXPECT_GT(*lengths.rbegin(), 8u);
  EXPECT_LE(*lengths.rbegin(), 16u);
}

TEST_P(CaseMutatorTest, TheSameCaseAndSeedGiveTheSameMutant) {
  CaseMutator mutator(kind);
  CaseMutator other(kind);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    FuzzCase c = generatedFuzzCase(kind, seed);
    EXPECT_EQ(encodeFuzzCase(mutator.mutate(c, seed).result),
              encodeFuzzCase(other.mutate(c, seed).result));
  }
}

TEST_P(CaseMutatorTest, CrossOversStayValidAndTakeFromBoth) {
  CaseMutator mutator(kind);
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    FuzzCase a = generatedFuzzCase(kind, seed);
    FuzzCase b = generatedFuzzCase(kind, seed + 100);
    FuzzCase c = mutator.crossOver(a, b, seed);
    expectValid(c);
    EXPECT_EQ(c.to, a.to);
    EXPECT_EQ(c.objects[0]["spec"], a.objects[0]["spec"]);
  }
}

INSTANTIATE_TEST_SUITE_P(ExampleCrds, CaseMutatorTest, kExampleCrds, crdTestName);
INSTANTIATE_TEST_SUITE_P(Gadgets, CaseMutatorTest,
                         ::testing::Values("gadgets.shapes.example.dev.yaml"), crdTestName);

}  // namespace
}  // namespace convcheck
