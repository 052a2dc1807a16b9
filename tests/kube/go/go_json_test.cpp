// Go encoding/json byte layout: key order, string escaping and number formatting.
#include "kube/go/go_json.h"

#include <gtest/gtest.h>

#include <limits>

namespace convcheck {
namespace {

using nlohmann::json;

TEST(GoJson, SortsObjectKeysAtEveryLevel) {
  const json value = json::parse(R"({"spec":{"z":1,"a":{"y":true,"b":null}},"apiVersion":"v1",
                                     "Kind":"upper-first","kind":"K"})");
  EXPECT_EQ(
      goJson(value),
      R"({"Kind":"upper-first","apiVersion":"v1","kind":"K","spec":{"a":{"b":null,"y":true},"z":1}})");
}

TEST(GoJson, EscapesHtmlCharactersAndControlsLikeGo) {
  EXPECT_EQ(goJson("<a href=\"x\">&</a>"), R"("\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e")");
  EXPECT_EQ(goJson(std::string("tab\there\nnl\rcr\bbs\fff\x01\x1f\\", 23)),
            R"("tab\there\nnl\rcr\bbs\fff\u0001\u001f\\")");
  EXPECT_EQ(goJson("\x7f"), "\"\x7f\"");
}

// Plain runs are copied at once: escapes at the start, between runs and at the end.
TEST(GoJson, CopiesPlainRunsBetweenEscapes) {
  EXPECT_EQ(goJson("<plain run>&\"quoted\"\\end\n"),
            R"("\u003cplain run\u003e\u0026\"quoted\"\\end\n")");
  EXPECT_EQ(goJson("only plain bytes"), "\"only plain bytes\"");
  EXPECT_EQ(goJson(""), "\"\"");
}

TEST(GoJson, KeepsValidUtf8AndEscapesLineSeparators) {
  EXPECT_EQ(goJson("h\xC3\xA9llo \xF0\x9F\x98\x80"), "\"h\xC3\xA9llo \xF0\x9F\x98\x80\"");
  EXPECT_EQ(goJson("a\xE2\x80\xA8"
                   "b\xE2\x80\xA9"),
            R"("a\u2028b\u2029")");
}

TEST(GoJson, ReplacesEachInvalidUtf8ByteWithTheReplacementCharacter) {
  EXPECT_EQ(goJson(std::string("a\xff"
                               "b")),
            R"("a\ufffdb")");
  EXPECT_EQ(goJson(std::string("\xE2\x82")), R"("\ufffd\ufffd")");            // truncated
  EXPECT_EQ(goJson(std::string("\xC0\xAF")), R"("\ufffd\ufffd")");            // overlong
  EXPECT_EQ(goJson(std::string("\xED\xA0\x80")), R"("\ufffd\ufffd\ufffd")");  // surrogate
}

TEST(GoJson, EscapesObjectKeysLikeStrings) {
  EXPECT_EQ(goJson(json{{"a<b", 1}}), R"({"a\u003cb":1})");
}

TEST(GoJson, FormatsNumbersLikeGo) {
  EXPECT_EQ(goJson(json(42)), "42");
  EXPECT_EQ(goJson(json(-7)), "-7");
  EXPECT_EQ(goJson(json(std::numeric_limits<std::int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(goJson(json(1.0)), "1");
  EXPECT_EQ(goJson(json(1.5)), "1.5");
  EXPECT_EQ(goJson(json(-0.0)), "-0");
  EXPECT_EQ(goJson(json(0.1)), "0.1");
  EXPECT_EQ(goJson(json(1e20)), "100000000000000000000");
  EXPECT_EQ(goJson(json(1e21)), "1e+21");
  EXPECT_EQ(goJson(json(0.000001)), "0.000001");
  EXPECT_EQ(goJson(json(1e-7)), "1e-7");
  EXPECT_EQ(goJson(json(1.5e-10)), "1.5e-10");
  EXPECT_EQ(goJson(json(123456789.125)), "123456789.125");
  EXPECT_EQ(goJson(json(1.2345678901234568e20)), "123456789012345680000");
  EXPECT_EQ(goJson(json(-2.5e-3)), "-0.0025");
}

TEST(GoJson, PrintsUnsignedBeyondInt64AsGoFloat64) {
  EXPECT_EQ(goJson(json(std::uint64_t{9223372036854775807ULL})), "9223372036854775807");
  EXPECT_EQ(goJson(json(std::uint64_t{18446744073709551615ULL})), "18446744073709552000");
}

TEST(GoJson, WritesArraysNullsAndEmptyContainers) {
  EXPECT_EQ(goJson(json::parse(R"([1,"a",null,true,false,{},[]])")),
            R"([1,"a",null,true,false,{},[]])");
}

}  // namespace
}  // namespace convcheck
