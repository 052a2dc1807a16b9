// Metadata as the API server records an object's writers: managedFields entries whose fieldsV1
// mirror the object's own fields (f:, k:, v: as structured-merge-diff writes them), split by
// manager role, and the last-applied-configuration a client-side kubectl apply leaves; shrinking
// keeps them in step with the object and drops them with their managers.
#include <gtest/gtest.h>

#include <set>

#include "generators/applied_metadata.h"
#include "generators/object_gen.h"
#include "generators/validity.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;
using testing::crdWithSchema;

const json kSchema = {
    {"type", "object"},
    {"properties",
     {{"apiVersion", {{"type", "string"}}},
      {"kind", {{"type", "string"}}},
      {"metadata", {{"type", "object"}}},
      {"spec",
       {{"type", "object"},
        {"properties",
         {{"replicas", {{"type", "integer"}}},
          {"image", {{"type", "string"}}},
          {"args", {{"type", "array"}, {"items", {{"type", "string"}}}}},
          {"tags",
           {{"type", "array"}, {"x-kubernetes-list-type", "set"}, {"items", {{"type", "string"}}}}},
          {"ports",
           {{"type", "array"},
            {"x-kubernetes-list-type", "map"},
            {"x-kubernetes-list-map-keys", {"name"}},
            {"items",
             {{"type", "object"},
              {"required", {"name"}},
              {"properties", {{"name", {{"type", "string"}}}, {"port", {{"type", "integer"}}}}}}}}},
          {"selector", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}}}}}},
      {"status",
       {{"type", "object"},
        {"properties",
         {{"phase", {{"type", "string"}}}, {"observedGeneration", {{"type", "integer"}}}}}}}}}};

ObjectGenerator generator(const std::vector<std::string>& versions = {"v1"}) {
  auto g = ObjectGenerator::compile(crdWithSchema(kSchema, true, versions), versions.front());
  if (auto* e = std::get_if<std::string>(&g)) {
    ADD_FAILURE() << *e;
    std::abort();
  }
  return std::get<ObjectGenerator>(g);
}

SchemaNodePtr root() { return testing::parsedRoot(kSchema); }

// Every "f:" path of a FieldsV1 set (with `prefix`), down to its leaves: ["spec", "image"] …
void fieldPaths(const json& set, std::vector<std::string> prefix,
                std::set<std::vector<std::string>>& out) {
  for (auto it = set.begin(); it != set.end(); ++it) {
    if (it.key().rfind("f:", 0) != 0) continue;
    auto path = prefix;
    path.push_back(it.key().substr(2));
    out.insert(path);
    fieldPaths(it.value(), path, out);
  }
}

// The union of the fields the entries own.
std::set<std::vector<std::string>> owned(const json& meta) {
  std::set<std::vector<std::string>> out;
  for (const auto& e : meta.value("managedFields", json::array()))
    fieldPaths(e["fieldsV1"], {}, out);
  return out;
}

bool hasPath(const json& object, const std::vector<std::string>& path) {
  const json* v = &object;
  for (const auto& k : path) {
    if (!v->is_object() || !v->contains(k)) return false;
    v = &(*v)[k];
  }
  return true;
}

TEST(AppliedMetadata, FieldsV1EncodesObjectsListMapsSetsAndAtomicLists) {
  const auto r = root();
  const json spec = {{"replicas", 3},
                     {"args", {"a", "b"}},
                     {"tags", {"x", "y"}},
                     {"ports", {{{"name", "http"}, {"port", 80}}}},
                     {"selector", {{"app", "web"}}}};
  const json set = fieldsV1Of(spec, r->property("spec"));
  EXPECT_EQ(set, json::parse(R"({
    "f:replicas": {},
    "f:args": {},
    "f:tags": {".": {}, "v:\"x\"": {}, "v:\"y\"": {}},
    "f:ports": {".": {}, "k:{\"name\":\"http\"}": {".": {}, "f:name": {}, "f:port": {}}},
    "f:selector": {".": {}, "f:app": {}}
  })"));
}

TEST(AppliedMetadata, EveryFieldOfTheObjectIsOwnedAndEveryOwnedFieldExists) {
  const auto g = generator();
  int checked = 0;
  for (const auto& o : generateObjects(g, 3, 600)) {
    const json& meta = o["metadata"];
    if (!meta.contains("managedFields")) continue;
    bool applier = false, statusWriter = false;
    for (const auto& e : meta["managedFields"]) {
      EXPECT_FALSE(e["fieldsV1"].empty()) << "an entry owning nothing is dropped";
      applier = applier || managerRole(e) == ManagerRole::Applier;
      statusWriter = statusWriter || managerRole(e) == ManagerRole::StatusWriter;
    }
    const auto paths = owned(meta);
    for (const auto& p : paths) {
      if (p.front() == "metadata") continue;
      EXPECT_TRUE(hasPath(o, p)) << "owned but absent: " << p.back() << "\n" << o.dump();
    }
    if (applier && o.contains("spec"))
      for (auto it = o["spec"].begin(); it != o["spec"].end(); ++it) {
        EXPECT_TRUE(paths.count({"spec", it.key()})) << it.key() << "\n" << meta.dump();
        ++checked;
      }
    if (statusWriter && o.contains("status")) {
      EXPECT_TRUE(paths.count({"status"})) << meta.dump();
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(AppliedMetadata, ClientSideApplyLeavesTheLastAppliedConfigurationOfTheObject) {
  const auto g = generator({"v1", "v2"});
  int withIt = 0, without = 0;
  for (const auto& o : generateObjects(g, 4, 600)) {
    const json& meta = o["metadata"];
    const json managedFields = meta.value("managedFields", json::array());
    const json* csa = nullptr;
    for (const auto& e : managedFields)
      if (e["manager"] == "kubectl-client-side-apply" && !csa) csa = &e;
    const bool annotated =
        meta.contains("annotations") && meta["annotations"].contains(kLastAppliedAnnotation);
    EXPECT_EQ(annotated, csa != nullptr) << meta.dump();
    if (!annotated) {
      ++without;
      continue;
    }
    ++withIt;
    const std::string text = meta["annotations"][kLastAppliedAnnotation];
    ASSERT_EQ(text.back(), '\n');
    const json applied = json::parse(text);
    EXPECT_EQ(applied["apiVersion"], (*csa)["apiVersion"]);
    EXPECT_EQ(applied["kind"], "Widget");
    EXPECT_EQ(applied["metadata"]["name"], meta["name"]);
    EXPECT_FALSE(applied.contains("status"));
    EXPECT_EQ(applied.value("spec", json()), o.value("spec", json()));
    EXPECT_FALSE(
        applied["metadata"].value("annotations", json::object()).contains(kLastAppliedAnnotation));
    EXPECT_TRUE(owned(meta).count({"metadata", "annotations", kLastAppliedAnnotation}));
  }
  EXPECT_GT(withIt, 100);
  EXPECT_GT(without, 100);
}

TEST(AppliedMetadata, LastAppliedIsLeftOutWhenAnnotationsWouldPass256KiB) {
  json o = {{"apiVersion", "example.com/v1"},
            {"kind", "Widget"},
            {"metadata",
             {{"name", "w"},
              {"annotations", {{"big", std::string(200 * 1024, 'x')}}},
              {"managedFields",
               {{{"manager", "kubectl-client-side-apply"},
                 {"operation", "Update"},
                 {"apiVersion", "example.com/v1"},
                 {"fieldsType", "FieldsV1"},
                 {"fieldsV1", json::object()}}}}}},
            {"spec", {{"image", std::string(100 * 1024, 'y')}}}};
  const json out = withAppliedMetadata(o, *root());
  EXPECT_FALSE(out["metadata"]["annotations"].contains(kLastAppliedAnnotation));
  EXPECT_TRUE(owned(out["metadata"]).count({"spec", "image"}));
}

TEST(AppliedMetadata, ManyAppliersSplitTheSpecFieldByField) {
  json o = {
      {"metadata",
       {{"name", "w"},
        {"labels", {{"app", "web"}}},
        {"finalizers", {"example.com/cleanup"}},
        {"managedFields",
         {{{"manager", "kubectl"}, {"operation", "Apply"}, {"fieldsV1", json::object()}},
          {{"manager", "kubectl-edit"}, {"operation", "Update"}, {"fieldsV1", json::object()}},
          {{"manager", "kubectl-label"}, {"operation", "Update"}, {"fieldsV1", json::object()}},
          {{"manager", "manager"}, {"operation", "Update"}, {"fieldsV1", json::object()}},
          {{"manager", "manager"},
           {"operation", "Update"},
           {"subresource", "status"},
           {"fieldsV1", json::object()}}}}}},
      {"spec", {{"image", "i"}, {"replicas", 2}}}};
  const json out = withAppliedMetadata(o, *root());
  const json& mf = out["metadata"]["managedFields"];
  ASSERT_EQ(mf.size(), 4u) << "the status writer owns nothing without a status: " << mf.dump();
  EXPECT_EQ(mf[0]["fieldsV1"], json::parse(R"({"f:spec": {".": {}, "f:image": {}}})"));
  EXPECT_EQ(mf[1]["fieldsV1"], json::parse(R"({"f:spec": {"f:replicas": {}}})"));
  EXPECT_EQ(mf[2]["fieldsV1"],
            json::parse(R"({"f:metadata": {"f:labels": {".": {}, "f:app": {}}}})"));
  EXPECT_EQ(mf[3]["fieldsV1"],
            json::parse(
                R"({"f:metadata": {"f:finalizers": {".": {}, "v:\"example.com/cleanup\"": {}}}})"));
}

TEST(AppliedMetadata, GeneratedObjectsWithItAreStillValid) {
  const auto g = generator();
  auto checker = std::get<ValidityChecker>(
      ValidityChecker::compile(crdWithSchema(kSchema, true, {"v1"}), "v1"));
  for (const auto& o : generateObjects(g, 5, 300)) {
    const auto problems = checker.check(o);
    EXPECT_TRUE(problems.empty()) << problems.front().path << ": " << problems.front().message;
  }
}

TEST(AppliedMetadata, ShrinksKeepItInStepWithTheObjectAndManagedFieldsShrinkAway) {
  const auto g = generator();
  rc::Random r(6);
  int walked = 0;
  bool dropped = false;
  for (int i = 0; i < 200 && walked < 10; ++i) {
    auto s = g.objects()(r.split(), 60);
    if (!s.value()["metadata"].contains("managedFields")) continue;
    ++walked;
    // The first shrinks: the object's optional fields, then its metadata's.
    rc::seq::forEach(rc::seq::take(200, s.shrinks()), [&](const rc::Shrinkable<json>& x) {
      const json v = x.value();
      EXPECT_EQ(v, withAppliedMetadata(v, *root())) << "derived metadata out of step";
      dropped = dropped || !v["metadata"].contains("managedFields");
    });
  }
  EXPECT_EQ(walked, 10);
  EXPECT_TRUE(dropped);
}

}  // namespace
}  // namespace convcheck
