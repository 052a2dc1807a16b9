// A FuzzKind of an example CRD, or of a CRD beside these tests (every version a source and a
// target), for the fuzz-case tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "engine/run/kind_context.h"
#include "harness/fuzz/fuzz_case.h"
#include "kube/crd/crd_loader.h"

namespace convcheck {

class FuzzKindTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::istringstream none;
    const std::string beside = std::string(CONVCHECK_FUZZ_TESTS_DIR) + "/" + GetParam();
    LoadResult loaded =
        loadCrdInput(std::filesystem::exists(beside)
                         ? beside
                         : std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/" + GetParam(),
                     none);
    ASSERT_FALSE(loaded.crds.empty());
    auto compiled = KindContext::compile(loaded.crds.front());
    ASSERT_TRUE(std::holds_alternative<KindContext>(compiled));
    context.emplace(std::get<KindContext>(std::move(compiled)));
    kind.generators = &context->generators();
    kind.checkers = &context->checkers();
    kind.targets = context->versions();
    kind.sources = context->vias();
    kind.maxBatch = 6;
  }

  // Every object valid for its version, none in the target, names and uids unique.
  void expectValid(const FuzzCase& c) const {
    ASSERT_FALSE(c.objects.empty());
    ASSERT_LE(c.objects.size(), kind.maxBatch);
    ASSERT_EQ(c.objects.size(), c.versions.size());
    std::set<std::string> names, uids;
    for (std::size_t i = 0; i < c.objects.size(); ++i) {
      EXPECT_NE(c.versions[i], c.to);
      EXPECT_EQ(kind.versionOf(c.objects[i]), c.versions[i]);
      EXPECT_TRUE(kind.valid(c.objects[i], c.versions[i])) << c.objects[i].dump();
      EXPECT_TRUE(names.insert(c.objects[i]["metadata"]["name"].dump()).second);
      EXPECT_TRUE(uids.insert(c.objects[i]["metadata"]["uid"].dump()).second);
    }
  }

  std::optional<KindContext> context;
  FuzzKind kind;
};

// The example CRDs the fuzz-case suites run on, and their test-name suffixes.
inline const auto kExampleCrds =
    ::testing::Values("crontabs.stable.example.com.yaml", "widgets.example.convcheck.dev.yaml");
inline std::string crdTestName(const ::testing::TestParamInfo<std::string>& info) {
  return info.param.substr(0, info.param.find('.'));
}

inline FuzzCase decodeText(const FuzzKind& kind, const std::string& text) {
  return decodeFuzzCase(kind, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

}  // namespace convcheck
