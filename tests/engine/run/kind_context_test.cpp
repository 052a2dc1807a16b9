// The per-kind context run, replay and minimize share: which versions it compiles, which ones
// two-hop paths may go through, and what it says about the versions it cannot test.
#include <stdexcept>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "engine/run/kind_context.h"
#include "tests/engine/run/example_crd.h"

namespace convcheck {
namespace {

using nlohmann::json;

Crd widgetCrd() { return testing::loadExampleCrd("widgets.example.convcheck.dev.yaml"); }

CrdVersion& version(Crd& crd, const std::string& name) {
  for (auto& v : crd.versions)
    if (v.name == name) return v;
  throw std::runtime_error("no version " + name);
}

const KindContext& compiled(const std::variant<KindContext, KindContext::Error>& c) {
  if (auto* e = std::get_if<KindContext::Error>(&c)) throw std::runtime_error(e->message);
  return std::get<KindContext>(c);
}

TEST(KindContext, EveryVersionWithASchemaIsCompiledAndIsAVia) {
  auto c = KindContext::compile(widgetCrd());
  const KindContext& kind = compiled(c);
  EXPECT_EQ(kind.versions(), (std::vector<std::string>{"v1alpha1", "v1beta1", "v1"}));
  EXPECT_EQ(kind.vias(), kind.versions());
  for (const auto& v : kind.versions()) EXPECT_TRUE(kind.hasVersion(v)) << v;
}

// A version's schema model is parsed once: the validity checker uses the generator's nodes.
TEST(KindContext, TheGeneratorAndTheCheckerOfAVersionShareOneSchemaModel) {
  auto c = KindContext::compile(widgetCrd());
  const KindContext& kind = compiled(c);
  for (const auto& v : kind.versions()) {
    const SchemaNodePtr& generated = kind.generators().at(v).schema().root;
    ASSERT_NE(generated, nullptr) << v;
    EXPECT_EQ(kind.checkers().at(v).schema().root.get(), generated.get()) << v;
  }
}

// Replay and minimize used to let transitivity go through every version; the run only through
// versions objects can be in. The context now decides for all three.
TEST(KindContext, AVersionNoObjectCanBeInIsTestedButNeverAVia) {
  Crd crd = widgetCrd();
  version(crd, "v1alpha1").served = false;
  crd.storedVersions = {"v1beta1"};
  auto c = KindContext::compile(crd);
  const KindContext& kind = compiled(c);
  EXPECT_EQ(kind.versions(), (std::vector<std::string>{"v1alpha1", "v1beta1", "v1"}));
  EXPECT_EQ(kind.vias(), (std::vector<std::string>{"v1beta1", "v1"}));
}

TEST(KindContext, AnUnservedVersionInStoredVersionsIsAVia) {
  Crd crd = widgetCrd();
  version(crd, "v1alpha1").served = false;
  crd.storedVersions = {"v1alpha1", "v1beta1"};
  auto c = KindContext::compile(crd);
  EXPECT_EQ(compiled(c).vias(), (std::vector<std::string>{"v1alpha1", "v1beta1", "v1"}));
}

TEST(KindContext, AVersionWithoutSchemaIsLeftOutWithANote) {
  Crd crd = widgetCrd();
  version(crd, "v1").schema = nullptr;
  auto c = KindContext::compile(crd);
  const KindContext& kind = compiled(c);
  EXPECT_FALSE(kind.hasVersion("v1"));
  EXPECT_EQ(kind.versions(), (std::vector<std::string>{"v1alpha1", "v1beta1"}));
  ASSERT_FALSE(kind.notes().empty());
  EXPECT_EQ(kind.notes().front(), "version v1 has no schema and is not tested");
}

TEST(KindContext, ASchemaThatCannotBeCompiledNamesItsVersion) {
  Crd crd = widgetCrd();
  version(crd, "v1beta1").schema = json{{"type", "object"}, {"properties", {{"spec", 7}}}};
  auto c = KindContext::compile(crd);
  ASSERT_TRUE(std::holds_alternative<KindContext::Error>(c));
  EXPECT_EQ(std::get<KindContext::Error>(c).version, "v1beta1");
  EXPECT_FALSE(std::get<KindContext::Error>(c).message.empty());
}

TEST(KindContext, KeepsTheSettingsThatShapeCases) {
  KindSettings settings;
  settings.generation.formats.canonicalDateTimes = false;
  settings.rawObjects = true;
  auto c = KindContext::compile(widgetCrd(), settings);
  EXPECT_FALSE(compiled(c).settings().generation.formats.canonicalDateTimes);
  EXPECT_TRUE(compiled(c).settings().rawObjects);
}

TEST(KindContext, AnEditKeepsTheMetadataAndIsValidForItsVersion) {
  auto c = KindContext::compile(widgetCrd());
  const KindContext& kind = compiled(c);
  // The edit keeps the object's metadata and replaces its content with a valid one.
  const json object = kind.generators().at("v1").objects()(rc::Random(5), 20).value();
  ASSERT_TRUE(kind.violations(object, "v1").empty());
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto edited = kind.editedCopy(object, "v1", seed);
    ASSERT_TRUE(edited.has_value());
    EXPECT_EQ((*edited)["metadata"], object["metadata"]);
    auto violations = kind.violations(*edited, "v1");
    EXPECT_TRUE(violations.empty()) << edited->dump() << "\n" << violations.front();
  }
  EXPECT_FALSE(kind.editedCopy(object, "v9", 1).has_value());
}

}  // namespace
}  // namespace convcheck
