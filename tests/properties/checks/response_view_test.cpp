#include "properties/checks/response_view.h"

#include <gtest/gtest.h>

#include <tuple>

namespace convcheck {
namespace {

using nlohmann::json;

HttpResult answer(std::string body) {
  HttpResult http;
  http.status = 200;
  http.body = std::move(body);
  return http;
}

// Of each converted object the view keeps what the per-answer properties read (apiVersion, kind,
// metadata), as Go decodes them: spec and status are the visible objects' business.
TEST(ResponseView, KeepsTheHeadOfEachConvertedObject) {
  ResponseView v = viewResponse(answer(R"({"response":{"uid":"u","result":{"status":"Success"},
    "convertedObjects":[{"apiVersion":"g/v2","kind":"W","metadata":{"name":"a","labels":{"x":"1"}},
    "spec":{"big":[1,2,3]},"status":{"ok":true}}, 7]}})"));
  ASSERT_TRUE(v.decoded);
  EXPECT_EQ(v.uid, "u");
  EXPECT_EQ(v.resultStatus, "Success");
  EXPECT_EQ(v.convertedCount, 2u);
  ASSERT_EQ(v.convertedHeads.size(), 2u);
  EXPECT_EQ(v.convertedHeads[0], (json{{"apiVersion", "g/v2"},
                                       {"kind", "W"},
                                       {"metadata", {{"name", "a"}, {"labels", {{"x", "1"}}}}}}));
  EXPECT_EQ(v.convertedHeads[1], 7) << "an element that is not an object is kept whole";
}

TEST(ResponseView, ALaterDuplicateKeyWinsAsInGo) {
  ResponseView v = viewResponse(
      answer(R"({"response":{"convertedObjects":[{"kind":"A","metadata":{"name":"x"},"kind":"B",)"
             R"("metadata":{"name":"y"}}]}})"));
  ASSERT_EQ(v.convertedHeads.size(), 1u);
  EXPECT_EQ(v.convertedHeads[0], (json{{"kind", "B"}, {"metadata", {{"name", "y"}}}}));
}

TEST(ResponseView, TheLastResponseMemberIsTheWholeViewEvenWhenAnEarlierOneHadMore) {
  ResponseView v = viewResponse(answer(
      R"({"response":{"uid":"a","result":{"status":"Success"},"convertedObjects":[{"kind":"A"}]},)"
      R"("response":{"uid":"b"}})"));
  EXPECT_TRUE(v.hasResponse);
  EXPECT_EQ(v.uid, std::optional<std::string>("b"));
  EXPECT_EQ(v.resultStatus, "");
  EXPECT_EQ(v.convertedCount, 0u);
  EXPECT_TRUE(v.convertedHeads.empty());
  ResponseView gone = viewResponse(answer(R"({"response":{"uid":"a"},"response":null})"));
  EXPECT_TRUE(gone.decoded);
  EXPECT_FALSE(gone.hasResponse);
  EXPECT_EQ(gone.uid, std::nullopt);
}

TEST(ResponseView, ReadsThroughWhitespaceAroundEveryToken) {
  ResponseView v = viewResponse(
      answer(" { \"other\" : [ 1 , { \"response\" : 2 } ] , \"response\" : { \"uid\" : \"u\" , "
             "\"convertedObjects\" : [ { \"kind\" : \"A\" , \"spec\" : { } } , 5 ] } } \n"));
  EXPECT_EQ(v.uid, std::optional<std::string>("u"));
  EXPECT_EQ(v.convertedCount, 2u);
  ASSERT_EQ(v.convertedHeads.size(), 2u);
  EXPECT_EQ(v.convertedHeads[0], (json{{"kind", "A"}}));
  EXPECT_EQ(v.convertedHeads[1], 5);
}

TEST(ResponseView, KeepsOnlyTheFirstObjectsButCountsThemAll) {
  ResponseView v = viewResponse(
      answer(R"({"response":{"convertedObjects":[{"kind":"A"},{"kind":"B"},{}]}})"), 1);
  EXPECT_EQ(v.convertedCount, 3u);
  ASSERT_EQ(v.convertedHeads.size(), 1u);
  EXPECT_EQ(v.convertedHeads[0], (json{{"kind", "A"}}));
}

// A body the model already found valid is not checked again: the view is the same.
TEST(ResponseView, ABodyKnownValidGivesTheSameView) {
  const HttpResult http = answer(R"( {"response":{"uid":"u","result":{"status":"Failure"},
    "convertedObjects":[{"kind":"A","metadata":{"name":"x"}},3]}})");
  auto fields = [](const ResponseView& v) {
    return std::tuple(v.decoded, v.hasResponse, v.uid, v.resultStatus, v.convertedHeads,
                      v.convertedCount);
  };
  const ResponseView known = viewResponse(http, 1, true);
  EXPECT_EQ(fields(known), fields(viewResponse(http, 1)));
  EXPECT_TRUE(known.decoded);
  // An empty body is never taken for valid.
  EXPECT_FALSE(viewResponse(answer(""), SIZE_MAX, true).decoded);
}

}  // namespace
}  // namespace convcheck
