// The mutator reaches the shapes real objects have: strings edited character by character (with
// the punctuation real values carry), keys added and values nested deeper inside preserve-unknown
// and free-form maps, list items that share a `type` or a part of a composite map key (never a
// whole one), lists at their maxItems and int-or-string integers beyond int32; every mutant stays
// valid. On a CRD beside these tests that has all of these.
#include "harness/fuzz/case_mutator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "tests/harness/fuzz/fuzz_kind_fixture.h"

namespace convcheck {
namespace {

using nlohmann::json;

class MutatorShapesTest : public FuzzKindTest {
 protected:
  // `steps` mutants in chains from generated cases, each checked valid, handed to `each` with
  // the case it came from.
  template <typename F>
  void mutants(int chains, int steps, F each) {
    CaseMutator mutator(kind);
    for (int chain = 0; chain < chains; ++chain) {
      FuzzCase c = generatedFuzzCase(kind, static_cast<std::uint64_t>(chain));
      for (int step = 0; step < steps; ++step) {
        Mutation m = mutator.mutate(c, static_cast<std::uint64_t>(chain) * 100000 + step);
        expectValid(m.result);
        each(c, m);
        c = std::move(m.result);
      }
    }
  }
};

// The strings at the same places of two JSON values (same keys, same indices).
void pairedStrings(const json& a, const json& b,
                   std::vector<std::pair<std::string, std::string>>& out) {
  if (a.is_string() && b.is_string()) {
    out.emplace_back(a.get<std::string>(), b.get<std::string>());
    return;
  }
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it)
      if (b.contains(it.key())) pairedStrings(it.value(), b[it.key()], out);
  } else if (a.is_array() && b.is_array()) {
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) pairedStrings(a[i], b[i], out);
  }
}

// Whether `edited` is `original` (a string of some length) with a few characters inserted, removed
// or replaced: of `original`, at most a few characters (in bytes: 12) differ, the rest is kept.
bool smallEdit(const std::string& original, const std::string& edited) {
  if (original.size() <= 20 || original == edited) return false;
  std::size_t prefix = 0;
  while (prefix < original.size() && prefix < edited.size() && original[prefix] == edited[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix + prefix < original.size() && suffix + prefix < edited.size() &&
         original[original.size() - 1 - suffix] == edited[edited.size() - 1 - suffix])
    ++suffix;
  return original.size() - prefix - suffix <= 12;
}

std::ptrdiff_t marks(const std::string& s) {
  return std::count_if(s.begin(), s.end(), [](char ch) {
    return std::string_view("=,;:?&@%[").find(ch) != std::string_view::npos;
  });
}

TEST_P(MutatorShapesTest, StringsAreEditedCharacterByCharacter) {
  int small = 0, punctuated = 0;
  mutants(20, 60, [&](const FuzzCase& before, const Mutation& m) {
    if (m.kind != MutationKind::EditString) return;
    for (std::size_t i = 0; i < before.objects.size(); ++i) {
      std::vector<std::pair<std::string, std::string>> pairs;
      pairedStrings(before.objects[i], m.result.objects[i], pairs);
      for (const auto& [a, b] : pairs) {
        if (!smallEdit(a, b)) continue;
        ++small;
        if (marks(b) > marks(a)) ++punctuated;
      }
    }
  });
  EXPECT_GE(small, 10);
  EXPECT_GE(punctuated, 3);
}

int depthOf(const json& v) {
  if (!v.is_structured()) return 0;
  int d = 0;
  for (const auto& c : v) d = std::max(d, depthOf(c));
  return d + 1;
}

// The spec's field `field` of object `i` of `c`, or null.
json specField(const FuzzCase& c, std::size_t i, const char* field) {
  if (i >= c.objects.size()) return nullptr;
  return c.objects[i].value("spec", json::object()).value(field, json());
}

TEST_P(MutatorShapesTest, FreeFormMapsGainKeysAndNestDeeper) {
  int wider = 0, deeper = 0;
  mutants(10, 60, [&](const FuzzCase& before, const Mutation& m) {
    if (m.kind != MutationKind::EditFreeForm || before.objects.size() != m.result.objects.size())
      return;
    for (std::size_t i = 0; i < before.objects.size(); ++i)
      for (const char* field : {"config", "settings", "extra"}) {
        const json a = specField(before, i, field), b = specField(m.result, i, field);
        if (a.is_object() && b.is_object() && b.size() >= a.size() + 8) ++wider;
        if (depthOf(b) > depthOf(a)) ++deeper;
      }
  });
  EXPECT_GE(wider, 5) << "a dozen keys or more added at once";
  EXPECT_GE(deeper, 5);
}

int repeated(const json& list, const std::string& field) {
  std::set<json> seen;
  int n = 0;
  for (const auto& item : list)
    if (item.is_object() && item.contains(field) && !seen.insert(item[field]).second) ++n;
  return n;
}

TEST_P(MutatorShapesTest, ItemsShareATypeOrPartOfACompositeKeyButNeverAWholeKey) {
  int types = 0, ports = 0;
  mutants(30, 60, [&](const FuzzCase& before, const Mutation& m) {
    if (m.kind != MutationKind::RepeatKey || before.objects.size() != m.result.objects.size())
      return;
    for (std::size_t i = 0; i < before.objects.size(); ++i) {
      for (const char* list : {"conditions", "ports"})
        types += repeated(specField(m.result, i, list), "type") >
                 repeated(specField(before, i, list), "type");
      ports += repeated(specField(m.result, i, "routes"), "port") >
               repeated(specField(before, i, "routes"), "port");
      EXPECT_EQ(repeated(specField(m.result, i, "ports"), "name"), 0);
    }
  });
  EXPECT_GT(types, 3);
  EXPECT_GT(ports, 0);
}

TEST_P(MutatorShapesTest, ListsGrowToTheirMaxItemsAndIntOrStringsLeaveInt32) {
  int toMax = 0, beyondInt32 = 0;
  mutants(40, 80, [&](const FuzzCase& before, const Mutation& m) {
    if (before.objects.size() != m.result.objects.size()) return;
    for (std::size_t i = 0; i < before.objects.size(); ++i) {
      if (m.kind == MutationKind::ResizeList && specField(m.result, i, "tags").size() == 20 &&
          specField(before, i, "tags").size() < 20)
        ++toMax;
      const json r = specField(m.result, i, "replicas");
      if (m.kind == MutationKind::SetValue && r != specField(before, i, "replicas") &&
          r.is_number_integer()) {
        const auto v = r.get<std::int64_t>();
        beyondInt32 += v > 2147483647 || v < -2147483648LL;
      }
    }
  });
  EXPECT_GT(toMax, 0);
  EXPECT_GT(beyondInt32, 0);
}

INSTANTIATE_TEST_SUITE_P(Gadgets, MutatorShapesTest,
                         ::testing::Values("gadgets.shapes.example.dev.yaml"), crdTestName);

}  // namespace
}  // namespace convcheck
