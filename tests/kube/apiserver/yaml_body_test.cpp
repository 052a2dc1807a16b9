// The YAML fallback of the API server's decoder: go-yaml's parser, its messages and its limits.
#include "kube/apiserver/yaml_body.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace convcheck {
namespace {

using nlohmann::json;

const std::string kPrefix = "error converting YAML to JSON: yaml: ";

TEST(YamlBody, AYamlAnswerBecomesItsJson) {
  // go-yaml v2 reads the plain key `n` as false, and YAMLToJSON writes that key as "false".
  const YamlAsJson out = yamlToJson("kind: ConversionReview\nresponse:\n  uid: 'x'\n  n: 0x1F\n");
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(json::parse(out.json),
            json({{"kind", "ConversionReview"}, {"response", {{"uid", "x"}, {"false", 31}}}}));
}

TEST(YamlBody, OnlyTheFirstDocumentIsRead) {
  const YamlAsJson out = yamlToJson("a: 1\n---\nb: 2\n");
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(json::parse(out.json), json({{"a", 1}}));
}

TEST(YamlBody, TheEventAfterTheFirstDocumentIsStillRead) {
  // go-yaml's Unmarshal reads the next document's start too: a bad directive there fails.
  EXPECT_EQ(yamlToJson("a: 1\n...\n%FOO\n---\n").error,
            kPrefix + "line 3: found unknown directive name");
  // Anything later is never read.
  EXPECT_EQ(yamlToJson("a: 1\n---\n'unterminated\n").error, "");
}

TEST(YamlBody, SyntaxErrorsAreGoYamlsMessagesWithItsLineNumbers) {
  // A scanner error on the first line: go-yaml names no line (its lines count from 0 there).
  EXPECT_EQ(yamlToJson("a: b: c\n").error,
            kPrefix + "mapping values are not allowed in this context");
  // On the second line: scanner errors are printed 1-based.
  EXPECT_EQ(yamlToJson("x: 1\na: b: c\n").error,
            kPrefix + "line 2: mapping values are not allowed in this context");
  // A parser error is printed with its 0-based line, as go-yaml's parser.fail does: the problem
  // is on the second line.
  EXPECT_EQ(yamlToJson("a: [1, 2\nb: 3\n").error,
            kPrefix + "line 1: did not find expected ',' or ']'");
}

TEST(YamlBody, AnUnterminatedQuotedScalarIsRefusedAsGoYamlRefusesIt) {
  const YamlAsJson out = yamlToJson("kind: \"ConversionReview\n");
  EXPECT_EQ(out.json, "");
  EXPECT_EQ(out.error, kPrefix + "line 2: found unexpected end of stream");
}

TEST(YamlBody, AnAliasToAnUndefinedOrUnfinishedAnchorIsRefusedInGoYamlsWords) {
  EXPECT_EQ(yamlToJson("a: *nowhere\n").error, kPrefix + "unknown anchor 'nowhere' referenced");
  EXPECT_EQ(yamlToJson("a: &x [1, *x]\n").error, kPrefix + "anchor 'x' value contains itself");
}

TEST(YamlBody, QuotedAndBlockScalarsStayStrings) {
  const YamlAsJson out = yamlToJson("a: '1'\nb: \"true\"\nc: |\n  null\nd: 1\n");
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(json::parse(out.json), json({{"a", "1"}, {"b", "true"}, {"c", "null\n"}, {"d", 1}}));
}

TEST(YamlBody, PlainScalarsResolveByGoYamlsTable) {
  // Go's ParseFloat takes no '_' without a base prefix and fails beyond float64: strings stay.
  const YamlAsJson out =
      yamlToJson("a: _1\nb: ._5\nc: 1e400\nd: 1_000\ne: -9223372036854775809\nf: 1.0\n");
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(json::parse(out.json),
            json({{"a", "_1"},
                  {"b", "._5"},
                  {"c", "1e400"},
                  {"d", 1000},
                  {"e", INT64_MIN},  // float64, which json.Marshal writes whole
                  {"f", 1}}));
}

TEST(YamlBody, ANonFiniteValueIsRefusedByJsonMarshalButIsAFineKey) {
  EXPECT_EQ(yamlToJson("a: .inf\n").error,
            "error converting YAML to JSON: json: unsupported value: +Inf");
  EXPECT_EQ(yamlToJson("a: [-.Inf]\n").error,
            "error converting YAML to JSON: json: unsupported value: -Inf");
  const YamlAsJson keys = yamlToJson(".inf: 1\n1.5: 2\ntrue: 3\n");
  ASSERT_EQ(keys.error, "");
  EXPECT_EQ(json::parse(keys.json), json({{".inf", 1}, {"1.5", 2}, {"true", 3}}));
}

}  // namespace
}  // namespace convcheck
