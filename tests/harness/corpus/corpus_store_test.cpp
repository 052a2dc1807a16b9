// The corpus directory: regressions are stored once per distinct case and read back for their
// CRD; samples are read from YAML and JSON files below samples/, other kinds ignored.
#include <gtest/gtest.h>

#include "harness/corpus/corpus_store.h"
#include "tests/harness/corpus/corpus_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

RegressionCase regression(const std::string& image) {
  RegressionCase c;
  c.crd = "crontabs.stable.example.com";
  c.kind = "CronTab";
  c.property = "round-trip";
  c.from = "v1";
  c.to = "v1beta1";
  c.part = "composite";
  c.caseTo = "v1beta1";
  c.seed = 7;
  c.objects = {json{
      {"apiVersion", "stable.example.com/v1"}, {"kind", "CronTab"}, {"spec", {{"image", image}}}}};
  return c;
}

TEST(CorpusStore, ASavedRegressionIsLoadedForItsCrd) {
  testing::ScratchDir dir;
  CorpusStore store(dir.path().string());
  bool created = false;
  std::string rel = store.save(regression("abcdefghi"), &created);
  EXPECT_TRUE(created);
  EXPECT_EQ(rel.rfind("regressions/crontabs.stable.example.com/round-trip-v1-v1beta1-", 0), 0u);
  auto contents = store.load(testing::cronTabKind().crd());
  ASSERT_EQ(contents.regressions.size(), 1u);
  EXPECT_EQ(contents.regressions[0].file, rel);
  EXPECT_EQ(contents.regressions[0].regression.objects, regression("abcdefghi").objects);
}

TEST(CorpusStore, SavingTheSameCaseTwiceKeepsOneFile) {
  testing::ScratchDir dir;
  CorpusStore store(dir.path().string());
  bool created = true;
  store.save(regression("abcdefghi"));
  store.save(regression("abcdefghi"), &created);
  EXPECT_FALSE(created);
  store.save(regression("other-image"));
  EXPECT_EQ(store.load(testing::cronTabKind().crd()).regressions.size(), 2u);
}

TEST(CorpusStore, AMissingDirectoryIsAnEmptyCorpus) {
  CorpusStore store("/nonexistent/convcheck-corpus");
  auto contents = store.load(testing::cronTabKind().crd());
  EXPECT_TRUE(contents.regressions.empty());
  EXPECT_TRUE(contents.samples.empty());
  EXPECT_TRUE(contents.notes.empty());
}

TEST(CorpusStore, BrokenRegressionFilesAreSkippedWithANote) {
  testing::ScratchDir dir;
  dir.write("regressions/crontabs.stable.example.com/broken.json", "{not json");
  dir.write("regressions/crontabs.stable.example.com/future.json", R"({"format": 9})");
  auto contents = CorpusStore(dir.path().string()).load(testing::cronTabKind().crd());
  EXPECT_TRUE(contents.regressions.empty());
  ASSERT_EQ(contents.notes.size(), 2u);
  EXPECT_NE(contents.notes[0].find("broken.json"), std::string::npos);
  EXPECT_NE(contents.notes[1].find("format 9"), std::string::npos);
}

TEST(CorpusStore, SamplesComeFromYamlAndJsonFilesAtAnyDepth) {
  testing::ScratchDir dir;
  dir.write("samples/config/samples/crontab.yaml",
            "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n"
            "spec: {host: h, port: '1'}\n---\napiVersion: v1\nkind: ConfigMap\n"
            "metadata: {name: c}\n---\napiVersion: other.example.com/v1\nkind: CronTab\n"
            "metadata: {name: d}\n");
  dir.write("samples/list.json",
            R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"stable.example.com/v1beta1",
               "kind":"CronTab","metadata":{"name":"b"},"spec":{"hostPort":"h:1"}}]})");
  auto contents = CorpusStore(dir.path().string()).load(testing::cronTabKind().crd());
  ASSERT_EQ(contents.samples.size(), 2u);
  EXPECT_EQ(contents.samples[0].version, "v1");
  EXPECT_EQ(contents.samples[0].where, "samples/config/samples/crontab.yaml, document 1");
  EXPECT_EQ(contents.samples[1].version, "v1beta1");
  EXPECT_EQ(contents.samples[1].where, "samples/list.json, document 1, items[0]");
}

TEST(CorpusStore, UnreadableSampleYamlIsNotedWithFileAndLine) {
  testing::ScratchDir dir;
  dir.write("samples/bad.yaml", "apiVersion: [unclosed\n");
  auto contents = CorpusStore(dir.path().string()).load(testing::cronTabKind().crd());
  ASSERT_EQ(contents.notes.size(), 1u);
  EXPECT_NE(contents.notes[0].find("samples/bad.yaml"), std::string::npos);
  EXPECT_NE(contents.notes[0].find("line"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
