// ObjectGenerator: whole custom resources in every stored shape, with stored metadata, valid for
// the version, deterministic by seed, with honest notes.
#include <gtest/gtest.h>

#include <set>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "kube/names/name_rules.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;
using testing::crdWithSchema;
using testing::sample;

const json kSchema = {
    {"type", "object"},
    {"required", {"spec"}},
    {"properties",
     {{"apiVersion", {{"type", "string"}}},
      {"kind", {{"type", "string"}}},
      {"metadata", {{"type", "object"}}},
      {"spec",
       {{"type", "object"},
        {"required", {"size"}},
        {"x-kubernetes-validations", {{{"rule", "self.size > 0"}}}},
        {"properties",
         {{"size", {{"type", "integer"}, {"format", "int32"}}},
          {"label", {{"type", "string"}, {"pattern", "^[a-z]+$"}}},
          {"extra", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}}},
      {"status", {{"type", "object"}, {"properties", {{"phase", {{"type", "string"}}}}}}}}}};

ObjectGenerator compiled(const Crd& crd, const std::string& version = "v1") {
  auto g = ObjectGenerator::compile(crd, version);
  if (auto* e = std::get_if<std::string>(&g)) {
    ADD_FAILURE() << *e;
    std::abort();
  }
  return std::get<ObjectGenerator>(g);
}

TEST(ObjectGen, CompileRefusesAnUnknownVersion) {
  auto g = ObjectGenerator::compile(crdWithSchema(kSchema), "v9");
  ASSERT_TRUE(std::holds_alternative<std::string>(g));
  EXPECT_NE(std::get<std::string>(g).find("v9"), std::string::npos);
}

TEST(ObjectGen, CompileReportsNonStructuralSchemasWithPathAndKeyword) {
  json bad = kSchema;
  bad["properties"]["spec"]["properties"]["oops"] = {{"$ref", "#/x"}};
  auto g = ObjectGenerator::compile(crdWithSchema(bad), "v1");
  ASSERT_TRUE(std::holds_alternative<std::string>(g));
  EXPECT_NE(std::get<std::string>(g).find("properties[spec].properties[oops].$ref"),
            std::string::npos)
      << std::get<std::string>(g);
}

TEST(ObjectGen, ObjectsCarryApiVersionKindAndStoredMetadata) {
  const auto g = compiled(crdWithSchema(kSchema));
  std::set<std::string> names;
  bool digitEnd = false, managed = false, rv = false, noRv = false;
  for (const auto& o : generateObjects(g, 3, 300)) {
    EXPECT_EQ(o["apiVersion"], "example.com/v1");
    EXPECT_EQ(o["kind"], "Widget");
    const json& md = o["metadata"];
    const std::string name = md["name"];
    EXPECT_TRUE(isDns1123Subdomain(name)) << name;
    names.insert(name);
    digitEnd = digitEnd || std::isdigit(static_cast<unsigned char>(name.back()));
    EXPECT_TRUE(isDns1123Label(md["namespace"].get<std::string>()));
    EXPECT_GE(md["generation"].get<std::int64_t>(), 1);
    EXPECT_EQ(md["creationTimestamp"].get<std::string>().size(), 20u);
    EXPECT_TRUE(md["uid"].is_string());
    managed = managed || md.contains("managedFields");
    rv = rv || md.contains("resourceVersion");
    noRv = noRv || !md.contains("resourceVersion");
    if (md.contains("labels")) {
      EXPECT_FALSE(md["labels"].empty());
    }
    if (md.contains("annotations")) {
      EXPECT_FALSE(md["annotations"].empty());
    }
  }
  EXPECT_GT(names.size(), 100u);
  EXPECT_TRUE(digitEnd);
  EXPECT_TRUE(managed);
  EXPECT_TRUE(rv && noRv);
}

TEST(ObjectGen, ClusterScopedKindsHaveNoNamespace) {
  const auto g = compiled(crdWithSchema(kSchema, false));
  for (const auto& o : generateObjects(g, 3, 100))
    EXPECT_FALSE(o["metadata"].contains("namespace"));
}

TEST(ObjectGen, MinimalObjectsHaveOnlyRequiredFieldsAndMinimalMetadata) {
  const auto g = compiled(crdWithSchema(kSchema));
  for (const auto& o : sample(g.minimal(), 100)) {
    EXPECT_EQ(o.size(), 4u) << o;  // apiVersion, kind, metadata, spec
    EXPECT_EQ(o["spec"].size(), 1u) << o;
    EXPECT_EQ(o["metadata"].size(), 5u)
        << o;  // name, namespace, uid, creationTimestamp, generation
    EXPECT_FALSE(o["metadata"].contains("labels"));
  }
}

TEST(ObjectGen, ShapesDecideStatusAndUnknownFields) {
  const auto g = compiled(crdWithSchema(kSchema));
  for (const auto& o : sample(g.shaped({FieldCoverage::Full, true, false, true}), 100, 1, 100)) {
    EXPECT_TRUE(o.contains("status"));
    if (o["spec"].contains("extra")) {
      EXPECT_TRUE(o["spec"]["extra"].empty());
    }
  }
  int unknown = 0;
  for (const auto& o : sample(g.shaped({FieldCoverage::Full, false, true, true}), 100, 1, 100)) {
    EXPECT_FALSE(o.contains("status"));
    if (o["spec"].contains("extra")) unknown += !o["spec"]["extra"].empty();
  }
  EXPECT_GT(unknown, 0);
}

TEST(ObjectGen, AnyShapeMixesMinimalAndFullObjectsWithAndWithoutStatus) {
  const auto g = compiled(crdWithSchema(kSchema));
  int status = 0, minimal = 0;
  const auto objects = generateObjects(g, 5, 400);
  for (const auto& o : objects) {
    status += o.contains("status");
    minimal += o["spec"].size() == 1;
  }
  EXPECT_GT(status, 0);
  EXPECT_LT(status, 400);
  EXPECT_GT(minimal, 0);
}

TEST(ObjectGen, GeneratedObjectsAreValid) {
  const Crd crd = crdWithSchema(kSchema);
  const auto g = compiled(crd);
  auto c = ValidityChecker::compile(crd, "v1");
  ASSERT_TRUE(std::holds_alternative<ValidityChecker>(c));
  for (const auto& o : generateObjects(g, 11, 500)) {
    const auto v = std::get<ValidityChecker>(c).check(o);
    EXPECT_TRUE(v.empty()) << v.front().path << ": " << v.front().message << "\n" << o.dump();
  }
}

TEST(ObjectGen, SameSeedSameObjectsOtherSeedOtherObjects) {
  const Crd crd = crdWithSchema(kSchema);
  EXPECT_EQ(generateObjects(compiled(crd), 42, 50), generateObjects(compiled(crd), 42, 50));
  EXPECT_NE(generateObjects(compiled(crd), 42, 50), generateObjects(compiled(crd), 43, 50));
}

TEST(ObjectGen, GenerateObjectsGivesWhatTheObjectsGenGives) {
  const auto g = compiled(crdWithSchema(kSchema));
  const auto objects = generateObjects(g, 5, 120);
  rc::Random random(5);
  for (int i = 0; i < 120; ++i)
    EXPECT_EQ(objects[i], g.objects()(random.split(), 10 + (i * 37) % 91).value()) << i;
}

TEST(ObjectGen, ForEachGeneratedObjectHandsOverTheSameObjectsInOrder) {
  const auto g = compiled(crdWithSchema(kSchema));
  std::vector<json> each;
  forEachGeneratedObject(g, 9, 80, [&each](int i, json&& o) {
    EXPECT_EQ(i, static_cast<int>(each.size()));
    each.push_back(std::move(o));
  });
  EXPECT_EQ(each, generateObjects(g, 9, 80));
}

TEST(ObjectGen, ForEachGeneratedObjectOnThreadsMakesObjectIFromTheIthSplit) {
  const auto g = compiled(crdWithSchema(kSchema));
  std::vector<json> each(150);
  std::vector<int> calls(150);
  forEachGeneratedObject(
      g, 9, 150,
      [&](int i, json&& o) {
        ++calls[static_cast<std::size_t>(i)];
        each[static_cast<std::size_t>(i)] = std::move(o);
      },
      3);
  EXPECT_EQ(each, generateObjects(g, 9, 150));
  EXPECT_EQ(calls, std::vector<int>(150, 1));
}

TEST(ObjectGen, ForEachGeneratedObjectOnThreadsReportsTheLowestFailingIndex) {
  const json unsatisfiable = {{"type", "object"},
                              {"required", {"spec"}},
                              {"properties",
                               {{"spec",
                                 {{"type", "object"},
                                  {"required", {"x"}},
                                  {"properties", {{"x", {{"type", "string"}, {"enum", {5}}}}}}}}}}};
  const auto g = compiled(crdWithSchema(unsatisfiable));
  for (int threads : {1, 4}) {
    try {
      forEachGeneratedObject(
          g, 1, 40, [](int, json&&) {}, threads);
      ADD_FAILURE() << "no failure with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(": object 0 (seed 1)"), std::string::npos) << e.what();
    }
  }
}

TEST(ObjectGen, CelRulesAreEvaluatedSoNoNoteSaysOtherwise) {
  const auto g = compiled(crdWithSchema(kSchema));
  ASSERT_NE(g.validationRules(), nullptr);
  for (const auto& n : g.notes()) EXPECT_EQ(n.find("are not evaluated"), std::string::npos) << n;
}

TEST(ObjectGen, ManagedFieldsNameTheCrdsVersions) {
  const auto g = compiled(crdWithSchema(kSchema, true, {"v1", "v2beta1"}));
  std::set<std::string> versions;
  for (const auto& o : generateObjects(g, 1, 300))
    for (const auto& m : o["metadata"].value("managedFields", json::array()))
      versions.insert(m["apiVersion"]);
  EXPECT_EQ(versions, (std::set<std::string>{"example.com/v1", "example.com/v2beta1"}));
}

TEST(ObjectGen, ValueForResolvesFieldPaths) {
  const auto g = compiled(crdWithSchema(kSchema));
  for (const auto& v : sample(g.valueFor("spec.label"), 50)) {
    ASSERT_TRUE(v.is_string());
    EXPECT_FALSE(v.get<std::string>().empty());
  }
  rc::Random r(1);
  EXPECT_THROW((void)g.valueFor("spec.nothing")(r, 10).value(), rc::GenerationFailure);
}

TEST(ObjectGen, VersionsWithoutSchemaGeneratePreservedObjects) {
  Crd crd = crdWithSchema(kSchema);
  crd.versions[0].schema = nullptr;
  const auto g = compiled(crd);
  EXPECT_FALSE(g.notes().empty());
  for (const auto& o : generateObjects(g, 1, 20)) EXPECT_EQ(o["kind"], "Widget");
}

TEST(ObjectGen, RootMetadataNameRestrictionsAreHonoured) {
  json schema = kSchema;
  schema["properties"]["metadata"] = {
      {"type", "object"}, {"properties", {{"name", {{"type", "string"}, {"maxLength", 12}}}}}};
  const auto g = compiled(crdWithSchema(schema));
  for (const auto& o : generateObjects(g, 1, 200))
    EXPECT_LE(o["metadata"]["name"].get<std::string>().size(), 12u);
}

}  // namespace
}  // namespace convcheck
