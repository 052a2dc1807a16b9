// Decoding fuzz inputs: every byte string is a valid case, the same bytes the same case, the
// canonical encoding decodes to itself, and a broken object of a batch leaves the others alone.
#include "harness/fuzz/fuzz_case.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/harness/fuzz/fuzz_kind_fixture.h"

namespace convcheck {
namespace {

using nlohmann::json;

std::vector<std::string> byteStrings() {
  std::vector<std::string> out = {"",
                                  "{",
                                  "null",
                                  "[]",
                                  "{}",
                                  R"({"to":"nope","objects":[{}]})",
                                  R"({"to":"v1","objects":[]})",
                                  R"({"to":"v1","objects":[1,2]})",
                                  std::string(3, '\0')};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 150; ++i) {
    std::string s(rng() % 64, '\0');
    for (auto& ch : s) ch = static_cast<char>(rng());
    out.push_back(s);
  }
  return out;
}

TEST_P(FuzzKindTest, EveryByteStringDecodesToAValidCase) {
  for (const auto& bytes : byteStrings()) expectValid(decodeText(kind, bytes));
}

TEST_P(FuzzKindTest, TheSameBytesGiveTheSameCase) {
  for (const auto& bytes : byteStrings()) {
    FuzzCase a = decodeText(kind, bytes);
    FuzzCase b = decodeText(kind, bytes);
    EXPECT_EQ(encodeFuzzCase(a), encodeFuzzCase(b));
  }
}

TEST_P(FuzzKindTest, OtherBytesGiveOtherCases) {
  std::set<std::string> seen;
  for (const auto& bytes : byteStrings()) seen.insert(encodeFuzzCase(decodeText(kind, bytes)));
  EXPECT_GT(seen.size(), byteStrings().size() * 9 / 10);
}

TEST_P(FuzzKindTest, TheCanonicalEncodingDecodesToItself) {
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    FuzzCase c = generatedFuzzCase(kind, seed);
    expectValid(c);
    const std::string bytes = encodeFuzzCase(c);
    FuzzCase back = decodeText(kind, bytes);
    EXPECT_EQ(back.to, c.to);
    EXPECT_EQ(back.versions, c.versions);
    EXPECT_EQ(encodeFuzzCase(back), bytes);
  }
}

TEST_P(FuzzKindTest, ABrokenObjectIsReplacedAndTheOthersKept) {
  FuzzCase c;
  for (std::uint64_t seed = 0; c.objects.size() < 3 && seed < 200; ++seed)
    c = generatedFuzzCase(kind, seed);
  ASSERT_GE(c.objects.size(), 3u);
  json doc = json::parse(encodeFuzzCase(c));
  doc["objects"][1]["kind"] = "NotTheKind";
  FuzzCase back = decodeText(kind, doc.dump());
  expectValid(back);
  ASSERT_EQ(back.objects.size(), c.objects.size());
  EXPECT_EQ(back.objects[0], c.objects[0]);
  EXPECT_NE(back.objects[1], c.objects[1]);
  EXPECT_EQ(back.objects[2], c.objects[2]);
}

TEST_P(FuzzKindTest, AnObjectInTheTargetVersionIsReplaced) {
  FuzzCase c = generatedFuzzCase(kind, 3);
  json doc = json::parse(encodeFuzzCase(c));
  doc["to"] = c.versions[0];
  expectValid(decodeText(kind, doc.dump()));
}

TEST_P(FuzzKindTest, ABatchIsCutToTheLargestSize) {
  FuzzCase c = generatedFuzzCase(kind, 3);
  json doc = json::parse(encodeFuzzCase(c));
  while (doc["objects"].size() < kind.maxBatch + 3) doc["objects"].push_back(doc["objects"][0]);
  FuzzCase back = decodeText(kind, doc.dump());
  expectValid(back);
  EXPECT_EQ(back.objects.size(), kind.maxBatch);
}

INSTANTIATE_TEST_SUITE_P(ExampleCrds, FuzzKindTest, kExampleCrds, crdTestName);

}  // namespace
}  // namespace convcheck
