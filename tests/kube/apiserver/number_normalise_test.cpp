// Numbers as Go's unstructured JSON round trip leaves them (reference §5.4).
#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "kube/apiserver/number_normalise.h"
#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace modeltest;

TEST(NumberNormaliseTest, IntegralFloatsBecomeIntegers) {
  for (double d : {5.0, 1e3, -7.0, 0.0, 1e15, 9.2e18}) {
    json n = normaliseNumbers(json(d));
    EXPECT_TRUE(n.is_number_integer()) << d;
    EXPECT_EQ(n.get<std::int64_t>(), static_cast<std::int64_t>(d));
  }
}

TEST(NumberNormaliseTest, NegativeZeroBecomesZero) {
  json n = normaliseNumbers(json(-0.0));
  EXPECT_TRUE(n.is_number_integer());
  EXPECT_EQ(n.get<std::int64_t>(), 0);
}

TEST(NumberNormaliseTest, FractionsAndHugeValuesStayFloats) {
  for (double d : {1.5, -0.25, 1e21, 1e19, 9223372036854775808.0, -1e300}) {
    json n = normaliseNumbers(json(d));
    EXPECT_TRUE(n.is_number_float()) << d;
    EXPECT_EQ(n.get<double>(), d);
  }
  json smallest = normaliseNumbers(json(-9223372036854775808.0));
  EXPECT_TRUE(smallest.is_number_integer());
  EXPECT_EQ(smallest.get<std::int64_t>(), INT64_MIN);
}

TEST(NumberNormaliseTest, UnsignedBeyondInt64BecomesFloat) {
  json big = normaliseNumbers(json(std::uint64_t(18446744073709551615ull)));
  EXPECT_TRUE(big.is_number_float());
  json small = normaliseNumbers(json(std::uint64_t(42)));
  EXPECT_TRUE(small.is_number_integer());
  EXPECT_FALSE(small.is_number_unsigned());
}

TEST(NumberNormaliseTest, AppliesRecursively) {
  json n = normaliseNumbers(json{{"a", {1.0, {{"b", 2.5}}}}, {"s", "5.0"}});
  EXPECT_TRUE(n["a"][0].is_number_integer());
  EXPECT_TRUE(n["a"][1]["b"].is_number_float());
  EXPECT_EQ(n["s"], "5.0");
}

// Through the model: the webhook's literal text decides what `returned` holds, Go's round trip
// decides what a client sees.
ModelVerdict judgeSpecText(const std::string& specText) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json object = converted(fooObject());
  object["spec"] = "PLACEHOLDER";
  std::string body = responseEnvelope(sent, {object}).dump();
  auto pos = body.find("\"PLACEHOLDER\"");
  body.replace(pos, std::string("\"PLACEHOLDER\"").size(), specText);
  return judgeConversion(sent, answer(body), nullptr);
}

TEST(NumberModelTest, FivePointZeroIsSeenAsTheIntegerFive) {
  auto v = judgeSpecText(R"({"replicas":5.0,"scale":1e3,"ratio":0.5})");
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_TRUE(v.visible[0]["spec"]["replicas"].is_number_integer());
  EXPECT_EQ(v.visible[0]["spec"]["replicas"], 5);
  EXPECT_EQ(v.visible[0]["spec"]["scale"], 1000);
  EXPECT_TRUE(v.visible[0]["spec"]["scale"].is_number_integer());
  EXPECT_TRUE(v.visible[0]["spec"]["ratio"].is_number_float());
}

TEST(NumberModelTest, IntegersBeyondInt64AreFloats) {
  auto v = judgeSpecText(R"({"big":9223372036854775808,"max":9223372036854775807})");
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_TRUE(v.visible[0]["spec"]["big"].is_number_float());
  EXPECT_TRUE(v.visible[0]["spec"]["max"].is_number_integer());
  EXPECT_EQ(v.visible[0]["spec"]["max"].get<std::int64_t>(), INT64_MAX);
}

}  // namespace
}  // namespace convcheck
