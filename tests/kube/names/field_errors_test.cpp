// kube-apiserver's field errors as its messages read them: the value printed as Go prints a
// decoded JSON value, the supported values of an enum quoted, the length and count limits.
#include "kube/names/field_errors.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

TEST(FieldErrors, ValuesArePrintedAsFieldErrorPrintsThem) {
  EXPECT_EQ(fieldErrorValue("x\"y"), "\"x\\\"y\"");
  EXPECT_EQ(fieldErrorValue(42), "42");
  EXPECT_EQ(fieldErrorValue(1.5), "1.5");
  EXPECT_EQ(fieldErrorValue(1e6), "1e+06");
  EXPECT_EQ(fieldErrorValue(true), "true");
  EXPECT_EQ(fieldErrorValue(nullptr), "\"null\"");
  EXPECT_EQ(fieldErrorValue(json{{"name", "a"}}), "map[string]interface {}{\"name\":\"a\"}");
}

TEST(FieldErrors, EachTypeReadsAsKubeApiserverWritesIt) {
  EXPECT_EQ(requiredValue(), "Required value");
  EXPECT_EQ(requiredValue("must not be empty"), "Required value: must not be empty");
  EXPECT_EQ(invalidValue("abc", inBody("spec.name", "should match '^[0-9]+$'")),
            "Invalid value: \"abc\": spec.name in body should match '^[0-9]+$'");
  EXPECT_EQ(unsupportedValue("x", supportedValues({"a", "b", 3})),
            "Unsupported value: \"x\": supported values: \"a\", \"b\", \"3\"");
  EXPECT_EQ(unsupportedValue(7, {}), "Unsupported value: 7");
  EXPECT_EQ(duplicateValue("a"), "Duplicate value: \"a\"");
  EXPECT_EQ(tooLong(50), "Too long: may not be longer than 50");
  EXPECT_EQ(tooMany(5, 3), "Too many: 5: must have at most 3 items");
}

}  // namespace
}  // namespace convcheck
