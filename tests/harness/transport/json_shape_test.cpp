// approximateJsonShape: the cheap value count and nesting depth behind the response caps.
#include <gtest/gtest.h>

#include <string>

#include "harness/transport/json_shape.h"

namespace convcheck {
namespace {

JsonShape shapeOf(const std::string& body) {
  return approximateJsonShape(body, SIZE_MAX, SIZE_MAX);
}

TEST(JsonShape, CountsContainersAndCommasAndTheDeepestNesting) {
  EXPECT_EQ(shapeOf("1").values, 1u);
  EXPECT_EQ(shapeOf("1").depth, 0u);
  const JsonShape shape = shapeOf(R"({"a":[1,2,{"b":[]}],"c":{}})");
  EXPECT_EQ(shape.values, 9u);  // 1 + 5 containers + 3 commas
  EXPECT_EQ(shape.depth, 4u);   // { [ { [
}

TEST(JsonShape, IgnoresBracketsAndCommasInsideStringsIncludingEscapedQuotes) {
  const JsonShape shape = shapeOf(R"({"k":"[[[{,,,\"[[[,"})");
  EXPECT_EQ(shape.values, 2u);
  EXPECT_EQ(shape.depth, 1u);
}

TEST(JsonShape, LongStringsWithEscapesControlsAndNonAsciiHideTheirBrackets) {
  // Long enough that strings are passed over in words: escaped quotes, backslashes, control
  // bytes and UTF-8 at every place inside them still hide what they hold.
  const std::string body =
      "{\"annotations\":{\"a-long-key-of-many-bytes\":\"[x,y] \\\"{z}\\\" "
      "caf\xc3\xa9 \x01\t[[,\\\\\",\"b\":[\"0123456789abcdef\\\"\",\"\"]}}";
  const JsonShape shape = shapeOf(body);
  EXPECT_EQ(shape.values, 6u);  // 1 + 3 containers + 2 commas
  EXPECT_EQ(shape.depth, 3u);
}

TEST(JsonShape, DepthIsTheDeepestPointNotTheSumOfSiblings) {
  EXPECT_EQ(shapeOf("[[1],[2],[3]]").depth, 2u);
  // Unbalanced closers do not drive the depth below zero.
  EXPECT_EQ(shapeOf("]]]][").depth, 1u);
}

TEST(JsonShape, StopsOnceACapIsPassed) {
  const std::string deep(1'000'000, '[');
  const JsonShape byDepth = approximateJsonShape(deep, SIZE_MAX, 1000);
  EXPECT_EQ(byDepth.depth, 1001u);
  const std::string commas(1'000'000, ',');
  const JsonShape byValues = approximateJsonShape(commas, 500, SIZE_MAX);
  EXPECT_EQ(byValues.values, 501u);
}

}  // namespace
}  // namespace convcheck
