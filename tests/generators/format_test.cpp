// String formats: the checks follow kube-openapi's validators, and every format generator only
// produces strings those checks accept.
#include <gtest/gtest.h>

#include "generators/format_check.h"
#include "generators/format_gen.h"

namespace convcheck {
namespace {

std::vector<std::string> sample(const rc::Gen<std::string>& g, int n) {
  std::vector<std::string> out;
  rc::Random r(42);
  for (int i = 0; i < n; ++i) out.push_back(g(r.split(), i % 100).value());
  return out;
}

class FormatGenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FormatGenTest, EveryGeneratedStringIsAcceptedByTheFormatCheck) {
  auto g = formatStrings(GetParam());
  ASSERT_TRUE(g.has_value());
  for (const auto& s : sample(*g, 500))
    EXPECT_TRUE(formatAccepts(GetParam(), s)) << GetParam() << ": " << s;
}

TEST_P(FormatGenTest, ShrinksStayAccepted) {
  auto g = *formatStrings(GetParam());
  rc::Random r(7);
  for (int i = 0; i < 50; ++i) {
    auto s = g(r.split(), 50);
    rc::seq::forEach(s.shrinks(), [&](const rc::Shrinkable<std::string>& x) {
      EXPECT_TRUE(formatAccepts(GetParam(), x.value())) << x.value();
    });
  }
}

INSTANTIATE_TEST_SUITE_P(KubeFormats, FormatGenTest,
                         ::testing::Values("date-time", "datetime", "date", "duration", "byte",
                                           "ipv4", "ipv6", "cidr", "mac", "uuid", "uuid3", "uuid4",
                                           "uuid5", "uri", "email", "hostname", "bsonobjectid",
                                           "isbn", "isbn10", "isbn13", "creditcard", "ssn",
                                           "hexcolor", "rgbcolor", "password"),
                         [](const auto& info) {
                           std::string n;
                           for (char c : info.param)
                             n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

TEST(FormatCheck, NumericFormatsAreKnownButDoNotConstrainStrings) {
  for (const char* f : {"int32", "int64", "float", "double"}) {
    EXPECT_TRUE(isKnownFormat(f));
    EXPECT_FALSE(isStringFormat(f));
    EXPECT_FALSE(formatStrings(f).has_value());
  }
}

TEST(FormatCheck, UnknownFormatsAcceptEverything) {
  EXPECT_FALSE(isKnownFormat("int-or-string"));
  EXPECT_TRUE(formatAccepts("int-or-string", "anything at all"));
}

TEST(FormatCheck, DateTimeFollowsRfc3339WithKubeOpenapiLayouts) {
  EXPECT_TRUE(formatAccepts("date-time", "2024-02-29T23:59:59Z"));
  EXPECT_TRUE(formatAccepts("date-time", "2024-02-29T23:59:59.123456+05:30"));
  EXPECT_TRUE(formatAccepts("date-time", ""));  // ParseDateTime accepts the empty string
  EXPECT_FALSE(formatAccepts("date-time", "2023-02-29T00:00:00Z"));
  EXPECT_FALSE(formatAccepts("date-time", "2024-01-01 00:00:00Z"));
  EXPECT_FALSE(formatAccepts("date-time", "2024-01-01T24:00:00Z"));
}

TEST(FormatCheck, DateIsAFullDate) {
  EXPECT_TRUE(formatAccepts("date", "2000-02-29"));
  EXPECT_FALSE(formatAccepts("date", "1900-02-29"));
  EXPECT_FALSE(formatAccepts("date", "2000-2-1"));
}

TEST(FormatCheck, DurationAcceptsGoAndScalaSpellings) {
  EXPECT_TRUE(formatAccepts("duration", "1h30m"));
  EXPECT_TRUE(formatAccepts("duration", "-1.5s"));
  EXPECT_TRUE(formatAccepts("duration", "0"));
  EXPECT_TRUE(formatAccepts("duration", "3 days"));
  EXPECT_FALSE(formatAccepts("duration", "1x"));
  EXPECT_FALSE(formatAccepts("duration", "h"));
  EXPECT_FALSE(formatAccepts("duration", ""));
}

TEST(FormatCheck, ByteIsPaddedStandardBase64) {
  EXPECT_TRUE(formatAccepts("byte", "aGVsbG8="));
  EXPECT_FALSE(formatAccepts("byte", "aGVsbG8"));
  EXPECT_FALSE(formatAccepts("byte", ""));
  EXPECT_FALSE(formatAccepts("byte", "aGVs_G8="));
}

TEST(FormatCheck, IpAddressesFollowGoParseIP) {
  EXPECT_TRUE(formatAccepts("ipv4", "192.168.0.1"));
  EXPECT_FALSE(formatAccepts("ipv4", "192.168.0.01"));  // leading zeros (Go ≥ 1.17)
  EXPECT_FALSE(formatAccepts("ipv4", "256.1.1.1"));
  EXPECT_FALSE(formatAccepts("ipv4", "::1"));
  EXPECT_TRUE(formatAccepts("ipv4", "::ffff:1.2.3.4"));  // govalidator: ParseIP ok and contains '.'
  EXPECT_TRUE(formatAccepts("ipv6", "2001:db8::1"));
  EXPECT_TRUE(formatAccepts("ipv6", "::"));
  EXPECT_FALSE(formatAccepts("ipv6", "1:2:3:4:5:6:7:8:9"));
  EXPECT_FALSE(formatAccepts("ipv6", "1::2::3"));
  EXPECT_FALSE(formatAccepts("ipv6", "10.0.0.1"));
}

TEST(FormatCheck, CidrAndMac) {
  EXPECT_TRUE(formatAccepts("cidr", "10.0.0.0/8"));
  EXPECT_TRUE(formatAccepts("cidr", "2001:db8::/32"));
  EXPECT_FALSE(formatAccepts("cidr", "10.0.0.0/33"));
  EXPECT_FALSE(formatAccepts("cidr", "10.0.0.0"));
  EXPECT_TRUE(formatAccepts("mac", "00:1a:2b:3c:4d:5e"));
  EXPECT_TRUE(formatAccepts("mac", "00-1A-2B-3C-4D-5E"));
  EXPECT_TRUE(formatAccepts("mac", "001a.2b3c.4d5e"));
  EXPECT_FALSE(formatAccepts("mac", "00:1a:2b:3c:4d"));
}

TEST(FormatCheck, UuidHostnameUriEmail) {
  EXPECT_TRUE(formatAccepts("uuid", "123e4567-e89b-12d3-a456-426614174000"));
  EXPECT_FALSE(formatAccepts("uuid", "123e4567-e89b-12d3-a456"));
  EXPECT_FALSE(formatAccepts("uuid4", "123e4567-e89b-12d3-a456-426614174000"));
  EXPECT_TRUE(formatAccepts("hostname", "api.example.com"));
  EXPECT_FALSE(formatAccepts("hostname", "-bad.example.com"));
  EXPECT_TRUE(formatAccepts("uri", "https://example.com:8443/x?y=1"));
  EXPECT_TRUE(formatAccepts("uri", "/relative/path"));
  EXPECT_FALSE(formatAccepts("uri", "relative/path"));
  EXPECT_TRUE(formatAccepts("email", "a.b@example.com"));
  EXPECT_FALSE(formatAccepts("email", "not-an-email"));
}

// Each expression-backed format accepts its own example and none of the others' (the
// expressions are compiled on first use, each from its own slot).
TEST(FormatCheck, ExpressionFormatsEachUseTheirOwnExpression) {
  const std::vector<std::pair<std::string, std::string>> examples = {
      {"uuid3", "a3bb189e-8bf9-3888-9912-ace4e6543002"},
      {"uuid4", "f47ac10b-58cc-4372-a567-0e02b2c3d479"},
      {"uuid5", "886313e1-3b8a-5372-9b90-0c9aee199e5d"},
      {"ssn", "123-45-6789"},
      {"hexcolor", "#a0b1c2"},
      {"rgbcolor", "rgb(1, 2, 3)"},
      {"email", "a.b@example.com"},
      {"byte", "aGVsbG8="},
      {"creditcard", "4222222222222"}};
  for (const auto& [format, value] : examples)
    for (const auto& [other, _] : examples)
      EXPECT_EQ(formatAccepts(other, value), other == format) << other << " on " << value;
}

TEST(FormatGen, DateTimesAreCanonicalUtcSecondsByDefault) {
  auto g = *formatStrings("date-time");
  for (const auto& s : sample(g, 200)) {
    EXPECT_EQ(s.size(), 20u) << s;
    EXPECT_EQ(s.back(), 'Z') << s;
  }
}

TEST(FormatGen, NonCanonicalDateTimesVaryFractionsAndOffsets) {
  bool fraction = false, offset = false;
  for (const auto& s : sample(*formatStrings("date-time", FormatOptions{false}), 500)) {
    fraction = fraction || s.find('.') != std::string::npos;
    offset = offset || s.back() != 'Z';
  }
  EXPECT_TRUE(fraction);
  EXPECT_TRUE(offset);
}

}  // namespace
}  // namespace convcheck
