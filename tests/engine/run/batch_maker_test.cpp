// The batch maker: a planned case's objects as the runner sends them, drawn by seed, named as a
// LIST names them, and taking an earlier case's identity when the plan says so.
#include <set>
#include <string>
#include <variant>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/run/batch_maker.h"
#include "tests/engine/run/example_crd.h"

namespace convcheck {
namespace {

using nlohmann::json;

KindContext widgetKind() {
  auto compiled =
      KindContext::compile(testing::loadExampleCrd("widgets.example.convcheck.dev.yaml"));
  return std::get<KindContext>(std::move(compiled));
}

PlannedCase planned(int index, std::vector<std::string> sources, std::uint64_t seed) {
  PlannedCase p;
  p.index = index;
  p.from = sources.front();
  p.to = "v1alpha1";
  p.sourceVersions = std::move(sources);
  p.seed = seed;
  p.genSize = 30;
  return p;
}

TEST(BatchMaker, EachObjectIsOfItsSourceVersionAndTheKind) {
  KindContext kind = widgetKind();
  BatchMaker batches(kind);
  auto batch = batches.make(planned(0, {"v1", "v1beta1", "v1"}, 11));
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch[0]["apiVersion"], "example.convcheck.dev/v1");
  EXPECT_EQ(batch[1]["apiVersion"], "example.convcheck.dev/v1beta1");
  for (const auto& object : batch) EXPECT_EQ(object["kind"], "Widget");
}

TEST(BatchMaker, TheSameCaseMakesTheSameBatch) {
  KindContext kind = widgetKind();
  BatchMaker one(kind), other(kind);
  EXPECT_EQ(one.make(planned(0, {"v1", "v1"}, 5)), other.make(planned(0, {"v1", "v1"}, 5)));
}

TEST(BatchMaker, NamesAreUniqueInsideABatch) {
  KindContext kind = widgetKind();
  BatchMaker batches(kind);
  auto batch = batches.make(planned(0, std::vector<std::string>(8, "v1"), 3));
  std::set<std::string> names;
  for (const auto& object : batch) names.insert(object["metadata"].value("name", ""));
  EXPECT_EQ(names.size(), batch.size());
}

TEST(BatchMaker, ACaseTakesTheIdentityOfTheEarlierCaseThePlanNames) {
  KindContext kind = widgetKind();
  BatchMaker batches(kind);
  json first = batches.make(planned(0, {"v1"}, 1)).front();
  PlannedCase again = planned(1, {"v1"}, 2);
  again.sameIdentityAs = 0;
  json second = batches.make(again).front();
  for (const char* key : {"name", "uid"})
    EXPECT_EQ(second["metadata"][key], first["metadata"][key]);
  EXPECT_NE(second["spec"], first["spec"]) << "new content under the old identity";
}

TEST(BatchMaker, ANewPairForgetsTheIdentities) {
  KindContext kind = widgetKind();
  BatchMaker batches(kind);
  json first = batches.make(planned(0, {"v1"}, 1)).front();
  batches.startPair();
  PlannedCase again = planned(1, {"v1"}, 2);
  again.sameIdentityAs = 0;
  json second = batches.make(again).front();
  EXPECT_NE(second["metadata"]["uid"], first["metadata"]["uid"]);
}

TEST(BatchMaker, ValuesCountEveryNodeOfTheBatch) {
  EXPECT_EQ(jsonValues({json{{"a", 1}, {"b", json::array({1, 2})}}, json(3)}), 6u);
}

}  // namespace
}  // namespace convcheck
