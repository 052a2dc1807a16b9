// Stored metadata: generated ObjectMeta passes the metadata rules in every option, labels and
// annotations are valid and never empty, and the rules themselves catch what the API server would
// not store.
#include <gtest/gtest.h>

#include <set>

#include "generators/metadata_check.h"
#include "generators/metadata_gen.h"
#include "kube/names/name_rules.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;
using testing::sample;

std::vector<Violation> problems(const json& md, MetadataRules rules = {}) {
  std::vector<Violation> out;
  checkObjectMeta(md, rules, "metadata", out);
  return out;
}

TEST(Metadata, GeneratedMetadataPassesTheRulesForNamespacedAndClusterKinds) {
  for (bool namespaced : {true, false}) {
    MetadataOptions o;
    o.namespaced = namespaced;
    o.apiVersions = {"example.com/v1"};
    for (const auto& md : sample(objectMeta(o), 500)) {
      const auto p = problems(md, MetadataRules{namespaced, false});
      EXPECT_TRUE(p.empty()) << p.front().path << ": " << p.front().message << "\n" << md.dump();
    }
  }
}

TEST(Metadata, MinimalMetadataHasExactlyTheFieldsEveryStoredObjectHas) {
  MetadataOptions o;
  o.minimal = true;
  for (const auto& md : sample(objectMeta(o), 100)) {
    std::set<std::string> keys;
    for (auto it = md.begin(); it != md.end(); ++it) keys.insert(it.key());
    EXPECT_EQ(keys, (std::set<std::string>{"name", "namespace", "uid", "creationTimestamp",
                                           "generation"}));
  }
}

TEST(Metadata, FullMetadataSometimesHasEveryOptionalField) {
  MetadataOptions o;
  o.optionalProbability = 0.8;
  std::set<std::string> keys;
  for (const auto& md : sample(objectMeta(o), 300))
    for (auto it = md.begin(); it != md.end(); ++it) keys.insert(it.key());
  EXPECT_EQ(keys, (std::set<std::string>{"name", "namespace", "uid", "creationTimestamp",
                                         "generation", "resourceVersion", "labels", "annotations",
                                         "finalizers", "ownerReferences", "managedFields"}));
}

TEST(Metadata, NamesAreDns1123SubdomainsSometimesEndingInDigitsAndSometimesLong) {
  bool digits = false, dotted = false, longName = false;
  rc::Random r(3);
  for (int i = 0; i < 500; ++i) {
    const std::string n = dns1123Names()(r.split(), 50).value();
    EXPECT_TRUE(isDns1123Subdomain(n)) << n;
    digits = digits || std::isdigit(static_cast<unsigned char>(n.back()));
    dotted = dotted || n.find('.') != std::string::npos;
    longName = longName || n.size() > 200;
  }
  EXPECT_TRUE(digits && dotted && longName);
}

// Which characters occur first, inside and last in `names`, and which lengths.
struct NameCoverage {
  std::set<char> first, middle, last;
  std::set<std::size_t> lengths;
  explicit NameCoverage(const std::vector<std::string>& names) {
    for (const auto& n : names) {
      first.insert(n.front());
      last.insert(n.back());
      for (std::size_t i = 1; i + 1 < n.size(); ++i) middle.insert(n[i]);
      lengths.insert(n.size());
    }
  }
};

std::set<char> chars(const std::string& s) { return {s.begin(), s.end()}; }
const std::string kAlnum = "abcdefghijklmnopqrstuvwxyz0123456789";

TEST(Metadata, ObjectNamesUseEveryDns1123CharacterInEveryPositionItIsAllowedIn) {
  std::vector<std::string> names;
  for (const auto& md : sample(objectMeta(MetadataOptions{}), 2000))
    names.push_back(md["name"].get<std::string>());
  const NameCoverage c(names);
  EXPECT_EQ(c.first, chars(kAlnum));
  EXPECT_EQ(c.last, chars(kAlnum));
  EXPECT_EQ(c.middle, chars(kAlnum + "-."));
  for (const auto& n : names) EXPECT_TRUE(isDns1123Subdomain(n)) << n;
}

TEST(Metadata, ObjectNamesTakeTheLengthsNameRulesCareAbout) {
  std::vector<std::string> names;
  for (const auto& md : sample(objectMeta(MetadataOptions{}), 2000))
    names.push_back(md["name"].get<std::string>());
  const NameCoverage c(names);
  for (std::size_t length : {1, 63, 253}) EXPECT_TRUE(c.lengths.count(length)) << length;
  int atLimit = 0;
  for (const auto& n : names) atLimit += n.size() == 253 ? 1 : 0;
  EXPECT_GE(atLimit, 20);  // a useful share, not a fluke
}

TEST(Metadata, NamespacesAreDns1123LabelsWithEveryCharacterUpTo63Long) {
  std::vector<std::string> names;
  rc::Random r(5);
  for (int i = 0; i < 2000; ++i) names.push_back(namespaceNames()(r.split(), 50).value());
  const NameCoverage c(names);
  EXPECT_EQ(c.first, chars(kAlnum));
  EXPECT_EQ(c.last, chars(kAlnum));
  EXPECT_EQ(c.middle, chars(kAlnum + "-"));
  EXPECT_TRUE(c.lengths.count(63));
  for (const auto& n : names) EXPECT_TRUE(isDns1123Label(n)) << n;
}

TEST(Metadata, ManagedFieldsLookAsTheApiServerStoresThem) {
  MetadataOptions o;
  o.apiVersions = {"example.com/v1", "example.com/v2"};
  int seen = 0;
  for (const auto& md : sample(objectMeta(o), 200)) {
    if (!md.contains("managedFields")) continue;
    for (const auto& e : md["managedFields"]) {
      ++seen;
      EXPECT_EQ(e["fieldsType"], "FieldsV1");
      EXPECT_EQ(e["fieldsV1"], json::object());
      EXPECT_TRUE(e["operation"] == "Update" || e["operation"] == "Apply");
    }
  }
  EXPECT_GT(seen, 50);
}

TEST(Metadata, AtMostOneOwnerReferenceIsTheController) {
  MetadataOptions o;
  o.optionalProbability = 1;
  for (const auto& md : sample(objectMeta(o), 200)) {
    int controllers = 0;
    for (const auto& ref : md.value("ownerReferences", json::array()))
      controllers += ref.value("controller", false);
    EXPECT_LE(controllers, 1);
  }
}

TEST(Metadata, LabelAndAnnotationMapsAreValidAndNeverEmpty) {
  for (const auto& l : sample(labelMaps(), 300)) {
    std::vector<Violation> p;
    checkLabels(l, "labels", p);
    EXPECT_TRUE(p.empty()) << l.dump();
  }
  for (const auto& a : sample(annotationMaps(), 300)) {
    std::vector<Violation> p;
    checkAnnotations(a, "annotations", p);
    EXPECT_TRUE(p.empty()) << a.dump();
  }
}

TEST(Metadata, LabelMapsShrinkButNeverToEmpty) {
  rc::Random r(8);
  for (int i = 0; i < 50; ++i) {
    auto s = labelMaps()(r.split(), 50);
    rc::seq::forEach(s.shrinks(),
                     [](const rc::Shrinkable<json>& x) { EXPECT_FALSE(x.value().empty()); });
  }
}

TEST(MetadataCheck, RequiresTheFieldsEveryStoredObjectHas) {
  std::set<std::string> paths;
  for (const auto& v : problems(json::object())) paths.insert(v.path);
  EXPECT_EQ(paths, (std::set<std::string>{"metadata.name", "metadata.namespace", "metadata.uid",
                                          "metadata.creationTimestamp", "metadata.generation"}));
}

TEST(MetadataCheck, FlagsInvalidLabelKeysAndValuesAndUnknownMetadataFields) {
  const json md = {
      {"name", "a"},
      {"namespace", "b"},
      {"uid", "6f1c0c3e-1a2b-4c3d-8e4f-5a6b7c8d9e0f"},
      {"creationTimestamp", "2024-01-01T00:00:00Z"},
      {"generation", 1},
      {"labels", {{"-bad", "ok"}, {"good", "bad value"}}},
      {"finalizers", {"orphan", "foregroundDeletion"}},
      {"ownerReferences",
       {{{"apiVersion", "v1"}, {"kind", "A"}, {"name", "a"}, {"uid", "1"}, {"controller", true}},
        {{"apiVersion", "v1"}, {"kind", "A"}, {"name", "b"}, {"uid", "2"}, {"controller", true}}}},
      {"clusterName", "x"}};
  std::set<std::string> paths;
  for (const auto& v : problems(md)) paths.insert(v.path);
  EXPECT_EQ(paths, (std::set<std::string>{"metadata.labels.-bad", "metadata.labels.good",
                                          "metadata.finalizers", "metadata.ownerReferences",
                                          "metadata.clusterName"}));
}

TEST(MetadataCheck, EmbeddedMetadataNeedsNothingButValidatesWhatIsThere) {
  EXPECT_TRUE(problems(json::object(), MetadataRules{true, true}).empty());
  EXPECT_FALSE(problems({{"name", "UPPER"}}, MetadataRules{true, true}).empty());
}

}  // namespace
}  // namespace convcheck
