// kube-apiserver's validation of a create or update for the keywords a new release tightens, with
// its field errors as `kubectl apply` prints them.
#include "kube/apiserver/update_validation.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

std::vector<std::string> errorTexts(const json& object, const json& schema) {
  std::vector<std::string> out;
  for (const auto& e : updateValidationErrors(object, schema)) out.push_back(e.text);
  return out;
}

const json kTightSchema = json::parse(R"({
  "type": "object",
  "required": ["spec"],
  "properties": {
    "spec": {
      "type": "object",
      "required": ["colour", "owner"],
      "properties": {
        "colour": {"type": "string", "maxLength": 8, "minLength": 2, "pattern": "^[a-z]+$"},
        "owner": {"type": "string"},
        "size": {"type": "string", "enum": ["small", "medium"]},
        "replicas": {"type": "integer", "minimum": 0, "maximum": 10},
        "ratio": {"type": "number", "exclusiveMaximum": true, "maximum": 1.5},
        "tags": {"type": "array", "maxItems": 2, "items": {"type": "string", "maxLength": 1}},
        "labels": {"type": "object", "additionalProperties": {"type": "string", "enum": ["a"]}}
      }
    }
  }
})");

TEST(UpdateValidation, AValidObjectHasNoErrors) {
  EXPECT_TRUE(errorTexts({{"apiVersion", "g/v1"},
                          {"kind", "K"},
                          {"metadata", {{"name", "x"}}},
                          {"spec", {{"colour", "red"}, {"owner", "me"}, {"size", "small"}}}},
                         kTightSchema)
                  .empty());
}

TEST(UpdateValidation, AMissingRequiredFieldIsRequiredValue) {
  EXPECT_EQ(errorTexts({{"spec", {{"colour", "red"}}}}, kTightSchema),
            std::vector<std::string>{"spec.owner: Required value"});
  EXPECT_EQ(errorTexts(json::object(), kTightSchema),
            std::vector<std::string>{"spec: Required value"});
}

TEST(UpdateValidation, AValueOutsideTheEnumIsUnsupportedValueListingTheOthers) {
  EXPECT_EQ(
      errorTexts({{"spec", {{"colour", "red"}, {"owner", "o"}, {"size", "large"}}}}, kTightSchema),
      std::vector<std::string>{
          R"(spec.size: Unsupported value: "large": supported values: "small", "medium")"});
}

TEST(UpdateValidation, LengthsPatternsAndBoundsReadAsKubeOpenApiWritesThem) {
  EXPECT_EQ(
      errorTexts({{"spec", {{"colour", "Abcdefghij"}, {"owner", "o"}}}}, kTightSchema),
      (std::vector<std::string>{
          "spec.colour: Too long: may not be more than 8 bytes",
          R"(spec.colour: Invalid value: "Abcdefghij": spec.colour in body should match '^[a-z]+$')"}));
  EXPECT_EQ(
      errorTexts({{"spec", {{"colour", "r"}, {"owner", "o"}}}}, kTightSchema),
      std::vector<std::string>{
          R"(spec.colour: Invalid value: "r": spec.colour in body should be at least 2 chars long)"});
  EXPECT_EQ(
      errorTexts({{"spec", {{"colour", "red"}, {"owner", "o"}, {"replicas", 11}}}}, kTightSchema),
      std::vector<std::string>{"spec.replicas: Invalid value: 11: spec.replicas in body "
                               "should be less than or equal to 10"});
  EXPECT_EQ(
      errorTexts({{"spec", {{"colour", "red"}, {"owner", "o"}, {"ratio", 1.5}}}}, kTightSchema),
      std::vector<std::string>{
          "spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1.5"});
}

TEST(UpdateValidation, ListsAndMapsAreWalked) {
  EXPECT_EQ(
      errorTexts({{"spec",
                   {{"colour", "red"},
                    {"owner", "o"},
                    {"tags", {"a", "bb", "c"}},
                    {"labels", {{"k", "b"}}}}}},
                 kTightSchema),
      (std::vector<std::string>{R"(spec.labels.k: Unsupported value: "b": supported values: "a")",
                                "spec.tags: Too many: 3: must have at most 2 items",
                                "spec.tags[1]: Too long: may not be more than 1 byte"}));
}

TEST(UpdateValidation, LengthsCountCharactersNotBytes) {
  EXPECT_TRUE(errorTexts({{"spec", {{"colour", "\xc3\xa9t\xc3\xa9"}, {"owner", "o"}}}},
                         json::parse(R"({"properties": {"spec": {"properties":
                        {"colour": {"type": "string", "maxLength": 3}}}}})"))
                  .empty());
}

}  // namespace
}  // namespace convcheck
