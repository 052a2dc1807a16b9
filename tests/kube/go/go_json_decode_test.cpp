// Go-compatible JSON reading and Go formatting helpers the model's messages depend on.
#include <gtest/gtest.h>

#include "kube/apiserver/group_version.h"
#include "kube/go/go_format.h"
#include "kube/go/go_json_decode.h"

namespace convcheck {
namespace {

using nlohmann::json;

TEST(GoJsonSyntaxTest, ValidDocumentsHaveNoError) {
  for (const char* text :
       {"{}", " [1, 2.5e-3, -0, true, false, null] ", "\"\\u00e9\\n\"", "{\"a\":{\"b\":[]}}"})
    EXPECT_EQ(goJsonSyntaxError(text), std::nullopt) << text;
}

TEST(GoJsonSyntaxTest, ErrorsUseGoScannerMessages) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "unexpected end of JSON input"},
      {"{", "unexpected end of JSON input"},
      {"x", "invalid character 'x' looking for beginning of value"},
      {"{\"a\" 1}", "invalid character '1' after object key"},
      {"{\"a\":1 \"b\"}", "invalid character '\"' after object key:value pair"},
      {"[1 2]", "invalid character '2' after array element"},
      {"{1:2}", "invalid character '1' looking for beginning of object key string"},
      {"{} {}", "invalid character '{' after top-level value"},
      {"\"a\tb\"", "invalid character '\\t' in string literal"},
      {"\"\\x\"", "invalid character 'x' in string escape code"},
      {"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape"},
      {"-a", "invalid character 'a' in numeric literal"},
      {"1.", "invalid character ' ' after decimal point in numeric literal"},
      {"1.x", "invalid character 'x' after decimal point in numeric literal"},
      {"1e+", "invalid character ' ' in exponent of numeric literal"},
      {"\"abc", "unexpected end of JSON input"},
      {"tru", "invalid character ' ' in literal true (expecting 'e')"},
      {"nul!", "invalid character '!' in literal null (expecting 'l')"},
      {"\xEF\xBB\xBF{}", "invalid character 'ï' looking for beginning of value"},
      {"'a'", "invalid character '\\'' looking for beginning of value"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(goJsonSyntaxError(text), message) << text;
}

TEST(GoJsonDecodeTest, IntegersStayIntegersAndOthersAreFloats) {
  auto v =
      goDecodeInterface(R"([5, 5.0, 1e3, -0, 12345678901234567890, -9223372036854775808])").value;
  EXPECT_TRUE(v[0].is_number_integer());
  EXPECT_TRUE(v[1].is_number_float());
  EXPECT_TRUE(v[2].is_number_float());
  EXPECT_TRUE(v[3].is_number_integer());
  EXPECT_TRUE(v[4].is_number_float());
  EXPECT_EQ(v[5].get<std::int64_t>(), INT64_MIN);
}

TEST(GoJsonDecodeTest, DuplicateKeysLastWins) {
  EXPECT_EQ(goDecodeInterface(R"({"a":1,"a":{"b":2}})").value, json({{"a", {{"b", 2}}}}));
}

TEST(GoJsonDecodeTest, InvalidUtf8AndBrokenSurrogatesBecomeReplacementCharacters) {
  EXPECT_EQ(goDecodeInterface("\"a\xFF\"").value, "a\xEF\xBF\xBD");
  EXPECT_EQ(goDecodeInterface(R"("\ud83d\ude00")").value, "\xF0\x9F\x98\x80");
  EXPECT_EQ(goDecodeInterface(R"("\ud83dx")").value, "\xEF\xBF\xBDx");
  EXPECT_EQ(goDecodeInterface(R"("\u0000")").value, std::string(1, '\0'));
}

TEST(GoJsonDecodeTest, NumbersBeyondFloat64AreErrors) {
  auto d = goDecodeInterface(R"({"a":1e400,"b":1e-400})");
  EXPECT_EQ(d.error, "json: cannot unmarshal number 1e400 into Go value of type float64");
  EXPECT_EQ(d.value["b"], 0.0);  // underflow rounds to zero without an error
}

TEST(GoJsonCursorTest, SkipValueReturnsTheExactText) {
  GoJsonCursor c(R"([ {"a" : [1, "]"]} , null ])");
  c.enterArray();
  ASSERT_TRUE(c.nextElement());
  EXPECT_EQ(c.skipValue(), R"({"a" : [1, "]"]})");
  ASSERT_TRUE(c.nextElement());
  EXPECT_EQ(c.skipValue(), "null");
  EXPECT_FALSE(c.nextElement());
}

// A quote ends a string only after an even run of backslashes.
TEST(GoJsonCursorTest, StringsEndAtTheFirstUnescapedQuote) {
  GoJsonCursor c(R"(["a\\", "\"x", "\\\"y\\\\", "plain"])");
  c.enterArray();
  ASSERT_TRUE(c.nextElement());
  EXPECT_EQ(c.skipValue(), R"("a\\")");
  ASSERT_TRUE(c.nextElement());
  EXPECT_EQ(c.readString(), "\"x");
  ASSERT_TRUE(c.nextElement());
  EXPECT_EQ(c.readString(), R"(\"y\\)");
  ASSERT_TRUE(c.nextElement());
  EXPECT_EQ(c.readString(), "plain");
  EXPECT_FALSE(c.nextElement());
}

TEST(GoQuoteTest, EscapesLikeStrconvQuote) {
  EXPECT_EQ(goQuote("plain"), "\"plain\"");
  EXPECT_EQ(goQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(goQuote("\n\t\x01\x7f"), "\"\\n\\t\\x01\\x7f\"");
  EXPECT_EQ(goQuote("üäö"), "\"üäö\"");
  EXPECT_EQ(goQuote("\xC2\xA0"), "\"\\u00a0\"");
  EXPECT_EQ(goQuote("\xFF"), "\"\\xff\"");
}

TEST(GoFormatTest, TypeNamesAndValuesPrintLikeGo) {
  EXPECT_EQ(goTypeName(json(nullptr)), "<nil>");
  EXPECT_EQ(goTypeName(json::array()), "[]interface {}");
  EXPECT_EQ(goTypeName(json::object()), "map[string]interface {}");
  EXPECT_EQ(goFloatV(1.5), "1.5");
  EXPECT_EQ(goFloatV(1e6), "1e+06");
  EXPECT_EQ(goFloatV(100000), "100000");
  EXPECT_EQ(goFloatV(1e-5), "1e-05");
  EXPECT_EQ(goSharpV(json{{"b", {1, "x"}}, {"a", nullptr}}),
            "map[string]interface {}{\"a\":interface {}(nil), \"b\":[]interface {}{1, \"x\"}}");
  EXPECT_EQ(goTrimSpace("\xC2\xA0 x \n"), "x");
  // Trailing multi-byte spaces go too; an invalid byte or another rune at the end stops trimming.
  EXPECT_EQ(goTrimSpace("x\xE2\x80\x83\xC2\xA0"), "x");
  EXPECT_EQ(goTrimSpace(" x\xA0 "), "x\xA0");
  EXPECT_EQ(goTrimSpace("\xE6\x97\xA5 "), "\xE6\x97\xA5");
}

TEST(GroupVersionTest, ParsesAndPrintsLikeApimachinery) {
  EXPECT_EQ(parseGroupVersion("apps/v1")->str(), "apps/v1");
  EXPECT_EQ(parseGroupVersion("v1")->str(), "v1");
  EXPECT_EQ(parseGroupVersion("/")->str(), "");
  EXPECT_EQ(parseGroupVersion("g/")->group, "g");
  std::string error;
  EXPECT_FALSE(parseGroupVersion("a/b/c", &error));
  EXPECT_EQ(error, "unexpected GroupVersion string: a/b/c");
  EXPECT_EQ(fromApiVersionAndKind("a/b/c", "K").str(), "/, Kind=K");
  EXPECT_EQ((GroupVersionKind{"g", "v", "K"}.str()), "g/v, Kind=K");
}

}  // namespace
}  // namespace convcheck
