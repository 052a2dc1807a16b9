// YAML streams to JSON: documents, anchors/aliases, merge keys, map keys, errors and limits.
#include "kube/crd/yaml_json.h"

#include <chrono>
#include <string>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

// The only document of `text`, which must convert without errors.
json one(const std::string& text) {
  YamlStream s = parseYamlStream(text);
  EXPECT_FALSE(s.fatal) << s.fatal->text();
  EXPECT_EQ(s.documents.size(), 1u);
  if (s.documents.empty()) return nullptr;
  for (const auto& e : s.documents[0].errors) ADD_FAILURE() << e.text();
  return s.documents[0].value;
}

// The first error of the only document of `text`.
YamlIssue errorOf(const std::string& text) {
  YamlStream s = parseYamlStream(text);
  EXPECT_FALSE(s.fatal) << s.fatal->text();
  if (s.documents.size() != 1 || s.documents[0].errors.empty()) {
    ADD_FAILURE() << "expected a document error for: " << text;
    return {};
  }
  EXPECT_TRUE(s.documents[0].value.is_null());
  return s.documents[0].errors[0];
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(YamlJson, ReadsEveryDocumentOfAStreamInOrder) {
  YamlStream s = parseYamlStream("a: 1\n---\nb: [x, z]\n---\nc: true\n");
  ASSERT_FALSE(s.fatal);
  ASSERT_EQ(s.documents.size(), 3u);
  EXPECT_EQ(s.documents[0].value, json({{"a", 1}}));
  EXPECT_EQ(s.documents[1].value, json({{"b", {"x", "z"}}}));
  EXPECT_EQ(s.documents[2].value, json({{"c", true}}));
  EXPECT_EQ(s.documents[2].index, 3);
  EXPECT_EQ(s.documents[2].line, 4);  // its "---" line
}

TEST(YamlJson, EmptyAndCommentOnlyDocumentsAreNullButCounted) {
  YamlStream s = parseYamlStream("---\n---\n# only a comment\n---\na: 1\n...\n");
  ASSERT_FALSE(s.fatal);
  ASSERT_EQ(s.documents.size(), 3u);
  EXPECT_TRUE(s.documents[0].value.is_null());
  EXPECT_TRUE(s.documents[1].value.is_null());
  EXPECT_EQ(s.documents[2].index, 3);
  EXPECT_EQ(s.documents[2].value, json({{"a", 1}}));
}

TEST(YamlJson, ScalarsResolveAsKubernetesDoes) {
  const json v =
      one("bool: yes\noff: on\nnull1: ~\nempty:\nint: 0x10\noct: 017\nflt: 1.5\nwhole: 2.0\n"
          "quoted: \"true\"\nstr: !!str 12\neq: =\ntagged_eq: !!value =\nblock: |\n  text\n");
  EXPECT_EQ(v["bool"], json(true));
  EXPECT_EQ(v["false"], json(true));  // the key `off` becomes "false", its value `on` true
  EXPECT_TRUE(v["null1"].is_null());
  EXPECT_TRUE(v.contains("empty") && v["empty"].is_null());
  EXPECT_EQ(v["int"], json(16));
  EXPECT_EQ(v["oct"], json(15));
  EXPECT_EQ(v["flt"], json(1.5));
  EXPECT_TRUE(v["whole"].is_number_integer());  // 2.0 travels as JSON 2
  EXPECT_EQ(v["quoted"], json("true"));
  EXPECT_EQ(v["str"], json("12"));
  EXPECT_EQ(v["eq"], json("="));
  EXPECT_EQ(v["tagged_eq"], json("="));
  EXPECT_EQ(v["block"], json("text\n"));
}

TEST(YamlJson, MapKeysBecomeStrings) {
  const json v = one("1: a\n0x10: b\ntrue: c\nyes: d\n1.5: e\n\"2\": f\n");
  EXPECT_EQ(v, json({{"1", "a"}, {"16", "b"}, {"true", "d"}, {"1.5", "e"}, {"2", "f"}}));
}

TEST(YamlJson, NullMapKeyIsAnError) {
  const YamlIssue e = errorOf("~: a\n");
  EXPECT_NE(e.message.find("null map key"), std::string::npos) << e.message;
}

TEST(YamlJson, CollectionMapKeyIsAnError) {
  const YamlIssue e = errorOf("outer:\n  ? [a, b]\n  : c\n");
  EXPECT_NE(e.message.find("sequence cannot be a map key"), std::string::npos) << e.message;
  EXPECT_EQ(e.path, "outer");
  EXPECT_EQ(e.line, 2);
}

TEST(YamlJson, AliasesRepeatTheAnchoredValue) {
  const json v = one("a: &x {k: 1, l: [1, 2]}\nb: *x\nc: &s scalar\nd: *s\n");
  EXPECT_EQ(v["b"], v["a"]);
  EXPECT_EQ(v["d"], json("scalar"));
}

TEST(YamlJson, AliasMayBeAMapKey) {
  const json v = one("k: &key name\n*key : value\n");
  EXPECT_EQ(v["name"], json("value"));
}

TEST(YamlJson, MergeKeyWithOneMapAddsItsKeys) {
  const json v = one("base: &b {p: 1, q: 2}\nderived:\n  <<: *b\n  r: 3\n");
  EXPECT_EQ(v["derived"], json({{"p", 1}, {"q", 2}, {"r", 3}}));
}

TEST(YamlJson, ExplicitKeysWinOverMergedOnesWhereverTheyAppear) {
  const json v =
      one("base: &b {p: 1, q: 2}\n"
          "before:\n  p: explicit\n  <<: *b\n"
          "after:\n  <<: *b\n  p: explicit\n");
  EXPECT_EQ(v["before"], json({{"p", "explicit"}, {"q", 2}}));
  EXPECT_EQ(v["after"], json({{"p", "explicit"}, {"q", 2}}));
}

TEST(YamlJson, MergeKeyWithAListOfMapsPrefersEarlierMaps) {
  const json v =
      one("a: &a {x: a, only_a: 1}\nb: &b {x: b, only_b: 2}\n"
          "m:\n  <<: [*a, *b]\n  own: 3\n");
  EXPECT_EQ(v["m"], json({{"x", "a"}, {"only_a", 1}, {"only_b", 2}, {"own", 3}}));
}

TEST(YamlJson, MergeKeyWorksInSequenceItemsAsKnativeUsesIt) {
  const json v =
      one("versions:\n"
          "- &version\n  name: v1alpha1\n  served: true\n  storage: false\n"
          "- << : *version\n  name: v1\n  storage: true\n");
  ASSERT_EQ(v["versions"].size(), 2u);
  EXPECT_EQ(v["versions"][1], json({{"name", "v1"}, {"served", true}, {"storage", true}}));
}

TEST(YamlJson, MergedMapsResolveTheirOwnMerges) {
  const json v = one("a: &a {p: 1}\nb: &b {<<: *a, q: 2}\nc: {<<: *b, r: 3}\n");
  EXPECT_EQ(v["c"], json({{"p", 1}, {"q", 2}, {"r", 3}}));
}

TEST(YamlJson, QuotedMergeMarkerIsAnOrdinaryKey) {
  const json v = one("m:\n  \"<<\": {x: 1}\n");
  EXPECT_EQ(v["m"], json({{"<<", {{"x", 1}}}}));
}

TEST(YamlJson, MergeOfAScalarIsAnError) {
  const YamlIssue e = errorOf("m:\n  <<: 5\n");
  EXPECT_EQ(e.message, "map merge requires map or sequence of maps as the value");
  EXPECT_EQ(e.path, "m[\"<<\"]");
}

TEST(YamlJson, DuplicateKeysWarnAndTheLastValueWins) {
  YamlStream s = parseYamlStream("spec:\n  kind: A\n  kind: B\n");
  ASSERT_EQ(s.documents.size(), 1u);
  EXPECT_EQ(s.documents[0].value["spec"]["kind"], json("B"));
  ASSERT_EQ(s.documents[0].warnings.size(), 1u);
  EXPECT_EQ(s.documents[0].warnings[0].line, 3);
  EXPECT_NE(s.documents[0].warnings[0].message.find("duplicate key \"kind\""), std::string::npos);
}

TEST(YamlJson, InfinityValueIsAnErrorNamingItsPath) {
  const YamlIssue e = errorOf("spec:\n  versions:\n  - x: 1\n  - x: -.Inf\n");
  EXPECT_EQ(e.path, "spec.versions[1].x");
  EXPECT_EQ(e.line, 4);
  EXPECT_NE(e.message.find("-Inf, which JSON cannot hold"), std::string::npos) << e.message;
}

TEST(YamlJson, NaNValueIsAnError) {
  EXPECT_NE(errorOf("a: .nan\n").message.find("NaN"), std::string::npos);
}

TEST(YamlJson, InfinityAsKeyIsAllowed) { EXPECT_EQ(one(".inf: x\n"), json({{".inf", "x"}})); }

TEST(YamlJson, ConversionErrorFailsOnlyItsDocument) {
  YamlStream s = parseYamlStream("a: .inf\n---\nb: 1\n");
  ASSERT_FALSE(s.fatal);
  ASSERT_EQ(s.documents.size(), 2u);
  EXPECT_FALSE(s.documents[0].errors.empty());
  EXPECT_TRUE(s.documents[1].errors.empty());
  EXPECT_EQ(s.documents[1].value, json({{"b", 1}}));
}

TEST(YamlJson, SyntaxErrorIsFatalWithLineAndColumnAndKeepsEarlierDocuments) {
  YamlStream s = parseYamlStream("ok: 1\n---\na: [1, 2\nb: 3\n");
  ASSERT_TRUE(s.fatal);
  EXPECT_EQ(s.fatal->document, 2);
  EXPECT_EQ(s.fatal->line, 4);
  EXPECT_GT(s.fatal->column, 0);
  EXPECT_NE(s.fatal->message.find("YAML syntax error"), std::string::npos);
  ASSERT_EQ(s.documents.size(), 1u);
  EXPECT_EQ(s.documents[0].value, json({{"ok", 1}}));
}

TEST(YamlJson, StrayTopLevelCommaIsASyntaxErrorNotAnEndlessStream) {
  // yaml-cpp 0.7 reported empty documents forever for this input; libyaml's message is go-yaml's.
  const auto start = std::chrono::steady_clock::now();
  YamlStream s = parseYamlStream("# header\n,\na: 1\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  ASSERT_TRUE(s.fatal);
  EXPECT_EQ(s.fatal->message, "YAML syntax error: did not find expected node content");
  EXPECT_EQ(s.fatal->line, 2);
  EXPECT_EQ(s.fatal->column, 1);
  EXPECT_EQ(s.fatal->document, 1);
  EXPECT_TRUE(s.documents.empty());
}

TEST(YamlJson, UndefinedAliasIsFatal) {
  YamlStream s = parseYamlStream("a: *nowhere\n");
  ASSERT_TRUE(s.fatal);
  EXPECT_EQ(s.fatal->line, 1);
}

TEST(YamlJson, InvalidUtf8IsFatalWithItsPosition) {
  YamlStream s = parseYamlStream("a: 1\nb: \xff\xfe\n");
  ASSERT_TRUE(s.fatal);
  EXPECT_EQ(s.fatal->line, 2);
  EXPECT_EQ(s.fatal->column, 4);
  EXPECT_NE(s.fatal->message.find("UTF-8"), std::string::npos);
}

TEST(YamlJson, ByteOrderMarkIsAccepted) {
  EXPECT_EQ(one("\xEF\xBB\xBF"
                "a: 1\n"),
            json({{"a", 1}}));
}

TEST(YamlJson, DeepFlowNestingStopsWithAClearError) {
  YamlStream s = parseYamlStream(repeat("[", 100000));
  ASSERT_TRUE(s.fatal);
  EXPECT_EQ(s.fatal->message, "nesting deeper than 256 levels");
}

TEST(YamlJson, DeepBlockNestingStopsWithAClearError) {
  YamlStream s = parseYamlStream(repeat("- ", 5000) + "x\n");
  ASSERT_TRUE(s.fatal);
  EXPECT_EQ(s.fatal->message, "nesting deeper than 256 levels");
}

TEST(YamlJson, NestingWithinTheLimitIsFine) {
  const json v = one(repeat("[", 200) + repeat("]", 200));
  EXPECT_TRUE(v.is_array());
}

TEST(YamlJson, NestingLimitIsConfigurable) {
  YamlLimits limits;
  limits.maxDepth = 3;
  EXPECT_TRUE(parseYamlStream("a: {b: {c: {}}}\n", limits).fatal);
  EXPECT_FALSE(parseYamlStream("a: {b: {}}\n", limits).fatal);
}

TEST(YamlJson, AliasExpandingBeyondTheDepthLimitIsAnError) {
  YamlLimits limits;
  limits.maxDepth = 4;
  YamlStream s = parseYamlStream("a: &x [[[1]]]\nb: [[*x]]\n", limits);
  ASSERT_FALSE(s.fatal);
  ASSERT_EQ(s.documents.size(), 1u);
  ASSERT_FALSE(s.documents[0].errors.empty());
  EXPECT_NE(s.documents[0].errors[0].message.find("expanding this alias"), std::string::npos);
}

TEST(YamlJson, RecursiveAliasIsAnErrorNotAHang) {
  const YamlIssue e = errorOf("a: &a [1, *a]\n");
  EXPECT_NE(e.message.find("recursive alias"), std::string::npos);
  EXPECT_EQ(e.path, "a[1]");
}

TEST(YamlJson, BillionLaughsIsRefusedQuickly) {
  std::string text =
      "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  const std::string names = "abcdefghi";
  for (std::size_t i = 1; i < names.size(); ++i) {
    const std::string prev(1, names[i - 1]);
    text += std::string(1, names[i]) + ": &" + names[i] + " [" + repeat("*" + prev + ",", 8) + "*" +
            prev + "]\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const YamlIssue e = errorOf(text);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_NE(e.message.find("excessive aliasing"), std::string::npos) << e.message;
}

TEST(YamlJson, ModerateAliasUseIsAccepted) {
  std::string text = "base: &b {a: 1, b: 2, c: 3}\nitems:\n";
  for (int i = 0; i < 300; ++i) text += "- *b\n";
  const json v = one(text);
  EXPECT_EQ(v["items"].size(), 300u);
}

TEST(YamlJson, NodeBudgetStopsHugeExpansions) {
  YamlLimits limits;
  limits.maxNodes = 50;
  YamlStream s = parseYamlStream("a: [" + repeat("1, ", 100) + "1]\n", limits);
  ASSERT_EQ(s.documents.size(), 1u);
  ASSERT_FALSE(s.documents[0].errors.empty());
  EXPECT_NE(s.documents[0].errors[0].message.find("more than 50 values"), std::string::npos);
}

TEST(YamlJson, UnquotedHelmExpressionIsReportedAsAHelmTemplate) {
  const YamlIssue e = errorOf("metadata:\n  name: {{ .Release.Name }}\n");
  EXPECT_NE(e.message.find("unrendered Helm template expression `{{ .Release.Name }}`"),
            std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("helm template"), std::string::npos);
  EXPECT_EQ(e.path, "metadata.name");
}

TEST(YamlJson, HelmExpressionAfterNonAsciiTextIsFoundAtItsCharacterColumn) {
  // libyaml counts characters; the snippet is cut from the bytes after "é", a two-byte character.
  const YamlIssue e = errorOf("\xC3\xA9t\xC3\xA9: {{ x }}\n");
  EXPECT_NE(e.message.find("unrendered Helm template expression `{{ x }}`"), std::string::npos)
      << e.message;
  EXPECT_EQ(e.line, 1);
  EXPECT_EQ(e.column, 7);  // the inner "{", the mapping used as a key: 7th character, 9th byte
}

TEST(YamlJson, SyntaxErrorsAreWordedAsGoYamlWordsThem) {
  // go-yaml v2 is a port of libyaml: kubectl prints "yaml: line 1: mapping values are not
  // allowed in this context" for this file.
  YamlStream s = parseYamlStream("a: b: c\n");
  ASSERT_TRUE(s.fatal);
  EXPECT_EQ(s.fatal->message, "YAML syntax error: mapping values are not allowed in this context");
  EXPECT_EQ(s.fatal->line, 1);
  EXPECT_EQ(s.fatal->column, 5);
}

TEST(YamlJson, UnterminatedQuotedScalarIsASyntaxError) {
  // go-yaml refuses it ("found unexpected end of stream"); it must not become a string.
  YamlStream s = parseYamlStream("name: \"unterminated\n");
  ASSERT_TRUE(s.fatal);
  EXPECT_NE(s.fatal->message.find("found unexpected end of stream"), std::string::npos)
      << s.fatal->message;
  EXPECT_TRUE(s.documents.empty());
}

TEST(YamlJson, AnExplicitDocumentStartsAtItsMarkerAfterDirectives) {
  YamlStream s = parseYamlStream("%YAML 1.1\n---\na: 1\n---\nb: 2\n");
  ASSERT_FALSE(s.fatal) << s.fatal->text();
  ASSERT_EQ(s.documents.size(), 2u);
  EXPECT_EQ(s.documents[0].line, 2);
  EXPECT_EQ(s.documents[1].line, 4);
  EXPECT_EQ(s.documents[1].value, json({{"b", 2}}));
}

TEST(YamlJson, IssueTextNamesDocumentLineColumnAndPath) {
  YamlIssue issue;
  issue.document = 2;
  issue.line = 3;
  issue.column = 5;
  issue.path = "spec.x";
  issue.message = "bad";
  EXPECT_EQ(issue.text(), "document 2, line 3, column 5, spec.x: bad");
}

TEST(YamlJson, PathKeysWithDotsOrSlashesAreBracketed) {
  std::string path = "metadata.annotations";
  appendPathKey(path, "example.com/x");
  EXPECT_EQ(path, "metadata.annotations[\"example.com/x\"]");
  std::string simple;
  appendPathKey(simple, "spec");
  appendPathKey(simple, "x-kubernetes-int-or-string");
  EXPECT_EQ(simple, "spec.x-kubernetes-int-or-string");
}

}  // namespace
}  // namespace convcheck
