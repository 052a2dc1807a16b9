// Label and annotation validation (the key and value rules: tests/kube/names/name_rules_test).
#include <gtest/gtest.h>

#include "kube/apiserver/label_validation.h"

namespace convcheck {
namespace {

using nlohmann::json;

TEST(ValidateLabelsTest, ReturnsFieldErrorLinesInKeyOrder) {
  auto errors = validateLabels(json{{"z z", "ok"}, {"a", "bad value!"}});
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].rfind("metadata.labels: Invalid value: \"bad value!\": a valid label", 0),
            0u);
  EXPECT_EQ(errors[1].rfind("metadata.labels: Invalid value: \"z z\": name part must consist", 0),
            0u);
  EXPECT_TRUE(validateLabels(json{{"app", "demo"}}).empty());
}

TEST(ValidateLabelsTest, PathCanBeChosen) {
  auto errors = validateLabels(json{{"a b", "x"}}, "spec.selector");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("spec.selector: Invalid value: \"a b\"", 0), 0u);
}

TEST(ValidateAnnotationsTest, SizeLimitIsInclusive) {
  const std::string key = "k";
  EXPECT_TRUE(validateAnnotations(json{{key, std::string(262143, 'v')}}).empty());
  EXPECT_EQ(
      validateAnnotations(json{{key, std::string(262144, 'v')}}),
      std::vector<std::string>{"metadata.annotation: Too long: may not be more than 262144 bytes"});
}

TEST(ValidateAnnotationsTest, KeysAreLowerCasedBeforeChecking) {
  EXPECT_TRUE(validateAnnotations(json{{"Example.COM/Some-Key", "v"}}).empty());
  EXPECT_FALSE(validateAnnotations(json{{"a b", "v"}}).empty());
}

TEST(AggregateTest, OneMessageStaysBareAndDuplicatesCollapse) {
  EXPECT_EQ(aggregateErrors({}), "");
  EXPECT_EQ(aggregateErrors({"x"}), "x");
  EXPECT_EQ(aggregateErrors({"x", "x"}), "x");
  EXPECT_EQ(aggregateErrors({"x", "y", "x"}), "[x, y]");
}

}  // namespace
}  // namespace convcheck
