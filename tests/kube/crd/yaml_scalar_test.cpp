// Scalar resolution as sigs.k8s.io/yaml (go-yaml v2) does it.
#include "kube/crd/yaml_scalar.h"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

json plain(const char* text) {
  ResolvedScalar r = resolveYamlScalar("?", text);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.nonFinite, NonFiniteFloat::None) << text;
  return r.value;
}

TEST(YamlScalar, AllYaml11TrueSpellingsAreTrue) {
  for (const char* s : {"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"})
    EXPECT_EQ(plain(s), json(true)) << s;
}

TEST(YamlScalar, AllYaml11FalseSpellingsAreFalse) {
  for (const char* s : {"n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE"})
    EXPECT_EQ(plain(s), json(false)) << s;
}

TEST(YamlScalar, MixedCaseBooleanWordsStayStrings) {
  for (const char* s : {"tRue", "yES", "oN", "nO", "FaLsE"}) EXPECT_EQ(plain(s), json(s)) << s;
}

TEST(YamlScalar, NullSpellingsAndEmptyAreNull) {
  for (const char* s : {"~", "null", "Null", "NULL", ""}) EXPECT_TRUE(plain(s).is_null()) << s;
  EXPECT_EQ(plain("nULL"), json("nULL"));
}

TEST(YamlScalar, IntegersFollowGoParseIntWithBasePrefixes) {
  EXPECT_EQ(plain("42"), json(42));
  EXPECT_EQ(plain("-17"), json(-17));
  EXPECT_EQ(plain("+5"), json(5));
  EXPECT_EQ(plain("0x1F"), json(31));
  EXPECT_EQ(plain("-0x10"), json(-16));
  EXPECT_EQ(plain("017"), json(15));  // leading 0: octal
  EXPECT_EQ(plain("0o17"), json(15));
  EXPECT_EQ(plain("0b101"), json(5));
  EXPECT_EQ(plain("0"), json(0));
}

TEST(YamlScalar, UnderscoresAreRemovedBeforeParsingNumbers) {
  EXPECT_EQ(plain("1_000_000"), json(1000000));
  EXPECT_EQ(plain("0x_ff"), json(255));
  EXPECT_EQ(plain("1_0.5"), json(10.5));
}

TEST(YamlScalar, Int64LimitsAreIntegersAndLargerValuesUnsignedThenFloat) {
  EXPECT_EQ(plain("9223372036854775807").get<std::int64_t>(),
            std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(plain("-9223372036854775808").get<std::int64_t>(),
            std::numeric_limits<std::int64_t>::min());
  const json big = plain("18446744073709551615");
  ASSERT_TRUE(big.is_number_unsigned());
  EXPECT_EQ(big.get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  const json huge = plain("18446744073709551616");
  ASSERT_TRUE(huge.is_number_float());
  EXPECT_DOUBLE_EQ(huge.get<double>(), 18446744073709551616.0);
}

TEST(YamlScalar, InvalidOctalDigitsFallBackToFloat) {
  const json v = plain("08");  // ParseInt fails (octal), the YAML float pattern matches
  ASSERT_TRUE(v.is_number_float());
  EXPECT_EQ(v.get<double>(), 8.0);
}

TEST(YamlScalar, YamlStyleFloatsAreFloats) {
  EXPECT_EQ(plain("1.5"), json(1.5));
  EXPECT_EQ(plain("-.5"), json(-0.5));
  EXPECT_EQ(plain(".25"), json(0.25));
  EXPECT_EQ(plain("1e3"), json(1000.0));
  EXPECT_EQ(plain("2.5E-1"), json(0.25));
  EXPECT_EQ(plain("1."), json(1.0));
}

TEST(YamlScalar, FloatOverflowStaysAStringAndUnderflowBecomesZero) {
  EXPECT_EQ(plain("1e400"), json("1e400"));
  EXPECT_EQ(plain("1e-400"), json(0.0));
}

TEST(YamlScalar, InfinityAndNaNSpellingsAreNonFinite) {
  for (const char* s : {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})
    EXPECT_EQ(resolveYamlScalar("?", s).nonFinite, NonFiniteFloat::PositiveInfinity) << s;
  for (const char* s : {"-.inf", "-.Inf", "-.INF"})
    EXPECT_EQ(resolveYamlScalar("?", s).nonFinite, NonFiniteFloat::NegativeInfinity) << s;
  for (const char* s : {".nan", ".NaN", ".NAN"})
    EXPECT_EQ(resolveYamlScalar("?", s).nonFinite, NonFiniteFloat::NaN) << s;
  EXPECT_EQ(plain(".iNf"), json(".iNf"));
}

TEST(YamlScalar, ThingsThatOnlyLookNumericAreStrings) {
  for (const char* s : {"1.2.3", "0x", "0b2", "1:20", "2001-12-14", "2001-12-14T21:59:43.10Z", "1e",
                        "--1", "+-5", "12abc", "0x1G"})
    EXPECT_EQ(plain(s), json(s)) << s;
}

TEST(YamlScalar, PlainEqualsSignAndMergeMarkerAreStrings) {
  EXPECT_EQ(plain("="), json("="));
  EXPECT_EQ(plain("<<"), json("<<"));
}

TEST(YamlScalar, QuotedScalarsAreAlwaysStrings) {
  for (const char* s : {"true", "123", "null", "~", "1.5", ".inf", ""})
    EXPECT_EQ(resolveYamlScalar("!", s).value, json(s)) << s;
}

TEST(YamlScalar, StrAndValueTagsGiveStrings) {
  EXPECT_EQ(resolveYamlScalar("tag:yaml.org,2002:str", "5").value, json("5"));
  EXPECT_EQ(resolveYamlScalar("tag:yaml.org,2002:str", "yes").value, json("yes"));
  EXPECT_EQ(resolveYamlScalar("tag:yaml.org,2002:value", "=").value, json("="));
  EXPECT_EQ(resolveYamlScalar("!custom", "42").value, json("42"));
}

TEST(YamlScalar, TypedTagsMustMatchTheResolvedType) {
  EXPECT_EQ(resolveYamlScalar("tag:yaml.org,2002:int", "12").value, json(12));
  EXPECT_EQ(resolveYamlScalar("tag:yaml.org,2002:bool", "yes").value, json(true));
  const ResolvedScalar f = resolveYamlScalar("tag:yaml.org,2002:float", "1");
  ASSERT_TRUE(f.value.is_number_float());
  EXPECT_EQ(f.value.get<double>(), 1.0);
  const ResolvedScalar bad = resolveYamlScalar("tag:yaml.org,2002:int", "abc");
  EXPECT_EQ(bad.error, "cannot decode !!str `abc` as a !!int");
}

TEST(YamlScalar, BinaryTagIsBase64Decoded) {
  EXPECT_EQ(resolveYamlScalar("tag:yaml.org,2002:binary", "aGVsbG8=").value, json("hello"));
  EXPECT_NE(resolveYamlScalar("tag:yaml.org,2002:binary", "a").error.find("invalid base64"),
            std::string::npos);
}

TEST(YamlScalar, NumbersAreNormalisedAsJsonCarriesThemToTheApiServer) {
  const json one = normaliseJsonNumber(json(1.0));
  EXPECT_TRUE(one.is_number_integer());
  EXPECT_EQ(one.get<std::int64_t>(), 1);
  EXPECT_TRUE(normaliseJsonNumber(json(1.5)).is_number_float());
  EXPECT_TRUE(normaliseJsonNumber(json(1e19)).is_number_float());  // beyond int64
  EXPECT_TRUE(normaliseJsonNumber(json(-9223372036854775808.0)).is_number_integer());
  const json big = normaliseJsonNumber(json(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_TRUE(big.is_number_float());
  const json small = normaliseJsonNumber(json(std::uint64_t{7}));
  EXPECT_TRUE(small.is_number_integer() && !small.is_number_unsigned());
}

TEST(YamlScalar, FloatKeysUseGoFloat32Formatting) {
  EXPECT_EQ(goFormatFloat32(1.5), "1.5");
  EXPECT_EQ(goFormatFloat32(100000), "100000");
  EXPECT_EQ(goFormatFloat32(1e6), "1e+06");
  EXPECT_EQ(goFormatFloat32(0.0001), "0.0001");
  EXPECT_EQ(goFormatFloat32(0.00001), "1e-05");
  EXPECT_EQ(goFormatFloat32(-2.25), "-2.25");
  EXPECT_EQ(goFormatFloat32(0.1), "0.1");
  EXPECT_EQ(goFormatFloat32(0), "0");
}

TEST(YamlScalar, KeysBecomeStringsTheWaySigsYamlMakesThem) {
  std::string key, why;
  ASSERT_TRUE(yamlKeyToString(resolveYamlScalar("?", "yes"), key, why));
  EXPECT_EQ(key, "true");
  ASSERT_TRUE(yamlKeyToString(resolveYamlScalar("?", "0x10"), key, why));
  EXPECT_EQ(key, "16");
  ASSERT_TRUE(yamlKeyToString(resolveYamlScalar("?", "1.0"), key, why));
  EXPECT_EQ(key, "1");
  ASSERT_TRUE(yamlKeyToString(resolveYamlScalar("?", ".inf"), key, why));
  EXPECT_EQ(key, ".inf");
  ASSERT_TRUE(yamlKeyToString(resolveYamlScalar("?", "1e39"), key, why));  // float32 overflow
  EXPECT_EQ(key, ".inf");
  EXPECT_FALSE(yamlKeyToString(resolveYamlScalar("?", "~"), key, why));
  EXPECT_FALSE(why.empty());
}

}  // namespace
}  // namespace convcheck
