// Go duration strings: time.ParseDuration, the timeout parser on top of it with clear rejections,
// and printing as time.Duration.String().
#include "kube/go/duration.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using std::chrono::milliseconds;

struct ParseCase {
  const char* text;
  long long ms;
};

TEST(ParseDuration, AcceptsGoDurations) {
  const ParseCase cases[] = {
      {"30s", 30000},      {"500ms", 500},         {"1m30s", 90000},
      {"2h", 7200000},     {"1.5s", 1500},         {"0", 0},
      {"0s", 0},           {"+5s", 5000},          {"-0s", 0},
      {".5s", 500},        {"1.s", 1000},          {"1h2m3s4ms", 3723004},
      {"1500000us", 1500}, {"2000000000ns", 2000}, {"0.001s", 1},
      {"1.25m", 75000},
  };
  for (const auto& c : cases) {
    std::string why;
    const auto parsed = parseDuration(c.text, &why);
    if (c.ms < 0) {
      EXPECT_FALSE(parsed) << c.text;
      continue;
    }
    ASSERT_TRUE(parsed) << c.text << ": " << why;
    EXPECT_EQ(parsed->count(), c.ms) << c.text;
  }
}

TEST(ParseDuration, AcceptsBothMicroSigns) {
  EXPECT_EQ(parseDuration("3000\xC2\xB5s"), milliseconds(3));  // U+00B5
  EXPECT_EQ(parseDuration("3000\xCE\xBCs"), milliseconds(3));  // U+03BC
}

struct RejectCase {
  const char* text;
  const char* reasonPart;
};

TEST(ParseDuration, RejectsBadInputWithAReasonNamingIt) {
  const RejectCase cases[] = {
      {"", "invalid duration \"\""},
      {"30", "missing unit in duration \"30\""},
      {"30sec", "unknown unit \"sec\" in duration \"30sec\""},
      {"s", "invalid duration \"s\""},
      {".s", "invalid duration \".s\""},
      {"-5s", "is negative"},
      {"1.5ms", "finer than a millisecond"},
      {"10us", "finer than a millisecond"},
      {"abc", "invalid duration \"abc\""},
      {"5s ", "unknown unit \"s \" in duration \"5s \""},
      {"9999999999h", "out of range"},
      {"3000000h", "out of range"},
  };
  for (const auto& c : cases) {
    std::string why;
    EXPECT_FALSE(parseDuration(c.text, &why)) << c.text;
    EXPECT_NE(why.find(c.reasonPart), std::string::npos) << c.text << " -> " << why;
  }
}

TEST(ParseDuration, WorksWithoutAReasonOutParameter) {
  EXPECT_FALSE(parseDuration("nope"));
  EXPECT_EQ(parseDuration("1s"), milliseconds(1000));
}

TEST(FormatGoDuration, PrintsLikeGo) {
  const std::pair<long long, const char*> cases[] = {
      {0, "0s"},           {1, "1ms"},          {500, "500ms"},          {999, "999ms"},
      {1000, "1s"},        {1500, "1.5s"},      {1001, "1.001s"},        {1010, "1.01s"},
      {30000, "30s"},      {60000, "1m0s"},     {90000, "1m30s"},        {90250, "1m30.25s"},
      {3600000, "1h0m0s"}, {7200000, "2h0m0s"}, {3723004, "1h2m3.004s"}, {-1500, "-1.5s"},
      {-500, "-500ms"},
  };
  for (const auto& [ms, text] : cases) {
    EXPECT_EQ(formatGoDuration(milliseconds(ms)), text) << ms;
  }
}

TEST(FormatGoDuration, RoundTripsThroughParse) {
  for (long long ms : {1LL, 999LL, 1001LL, 59999LL, 61001LL, 86400000LL, 123456789LL}) {
    const std::string text = formatGoDuration(milliseconds(ms));
    EXPECT_EQ(parseDuration(text), milliseconds(ms)) << text;
  }
}

TEST(GoParseDuration, ReadsWhatTimeParseDurationReads) {
  EXPECT_EQ(goParseDuration("1h30m"), 5'400'000'000'000);
  EXPECT_EQ(goParseDuration("-1.5s"), -1'500'000'000);
  EXPECT_EQ(goParseDuration("10us"), 10'000);
  EXPECT_EQ(goParseDuration("0"), 0);
  EXPECT_EQ(goParseDuration("1.0000000009s"), 1'000'000'000) << "Go drops digits below 1 ns";
  EXPECT_EQ(goParseDuration("9223372036854775807ns"), INT64_MAX);
  EXPECT_EQ(goParseDuration("-9223372036854775808ns"), INT64_MIN);
}

TEST(GoParseDuration, RejectsWhatTimeParseDurationRejects) {
  for (const char* text :
       {"", "1", "-", "s", "1x", ".s", "1.5", "9223372036854775808ns", "2562048h", "1s 2s"}) {
    std::string why;
    EXPECT_FALSE(goParseDuration(text, &why)) << text;
    EXPECT_NE(why.find(text), std::string::npos) << why;
  }
}

}  // namespace
}  // namespace convcheck
