// Label and annotation validation as a library (used by the generators and properties too).
#include <gtest/gtest.h>

#include "kube/apiserver/label_validation.h"

namespace convcheck {
namespace {

using nlohmann::json;

TEST(LabelKeyTest, AcceptsQualifiedNames) {
  for (const char* key : {"app", "a", "A-b_c.d", "example.com/app", "k8s.io/My.Name-1", "9"})
    EXPECT_TRUE(isValidLabelKey(key)) << key;
}

TEST(LabelKeyTest, NameRulesAreReportedPerPart) {
  EXPECT_EQ(labelKeyErrors("").size(), 2u);  // must be non-empty + regex
  EXPECT_EQ(labelKeyErrors("")[0], "name part must be non-empty");
  EXPECT_EQ(labelKeyErrors(std::string(64, 'a')),
            std::vector<std::string>{"name part must be no more than 63 bytes"});
  EXPECT_TRUE(isValidLabelKey(std::string(63, 'a')));
  EXPECT_EQ(labelKeyErrors("/app"), std::vector<std::string>{"prefix part must be non-empty"});
  EXPECT_EQ(labelKeyErrors("example.com/").size(), 2u);
  EXPECT_FALSE(isValidLabelKey("app-"));
  EXPECT_FALSE(isValidLabelKey("a b"));
}

TEST(LabelKeyTest, PrefixIsALowercaseDnsSubdomainOfAtMost253Bytes) {
  EXPECT_FALSE(isValidLabelKey("EXAMPLE.com/a"));
  EXPECT_FALSE(isValidLabelKey("example..com/a"));
  EXPECT_FALSE(isValidLabelKey("-example.com/a"));
  std::string longPrefix;
  while (longPrefix.size() < 254) longPrefix += "abcdefgh.";
  longPrefix = longPrefix.substr(0, 254);
  if (longPrefix.back() == '.') longPrefix.back() = 'x';
  auto errors = labelKeyErrors(longPrefix + "/a");
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0], "prefix part must be no more than 253 bytes");
}

TEST(LabelValueTest, EmptyIsValidAndLengthIsCapped) {
  EXPECT_TRUE(isValidLabelValue(""));
  EXPECT_TRUE(isValidLabelValue(std::string(63, 'z')));
  EXPECT_FALSE(isValidLabelValue(std::string(64, 'z')));
  EXPECT_FALSE(isValidLabelValue("a/b"));
  EXPECT_FALSE(isValidLabelValue("_a"));
  EXPECT_TRUE(isValidLabelValue("a_b.c-d"));
}

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
