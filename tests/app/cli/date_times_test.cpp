// `--date-times`: canonical RFC 3339 UTC seconds by default (what Go's metav1.Time writes back),
// fractions and offsets with `--date-times any`; seen through `convcheck generate`.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"

namespace convcheck {
namespace {

// The CronTab example's v1 has status.lastScheduleTime with format: date-time.
std::vector<std::string> lastScheduleTimes(std::vector<std::string> extra) {
  std::vector<std::string> args = {
      "generate",
      "--crd",
      std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/crontabs.stable.example.com.yaml",
      "--version",
      "v1",
      "-n",
      "300",
      "--seed",
      "5"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli(args, in, out, err), 0) << err.str();
  std::vector<std::string> times;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    const auto object = nlohmann::json::parse(line);
    if (object.contains("status") && object["status"].contains("lastScheduleTime"))
      times.push_back(object["status"]["lastScheduleTime"].get<std::string>());
  }
  return times;
}

const std::regex kCanonical(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$)");

TEST(DateTimes, AreRfc3339UtcSecondsByDefault) {
  const auto times = lastScheduleTimes({});
  ASSERT_GT(times.size(), 20u);
  for (const auto& t : times) EXPECT_TRUE(std::regex_match(t, kCanonical)) << t;
  EXPECT_EQ(lastScheduleTimes({"--date-times", "canonical"}), times);
}

TEST(DateTimes, AnyAlsoGeneratesFractionsAndOffsets) {
  const auto times = lastScheduleTimes({"--date-times", "any"});
  ASSERT_GT(times.size(), 20u);
  bool fraction = false, offset = false;
  for (const auto& t : times) {
    fraction = fraction || t.find('.') != std::string::npos;
    offset = offset || t.back() != 'Z';
  }
  EXPECT_TRUE(fraction);
  EXPECT_TRUE(offset);
}

TEST(DateTimes, AnUnknownChoiceIsAUsageError) {
  for (const char* sub : {"run", "generate"}) {
    std::istringstream in;
    std::ostringstream out, err;
    EXPECT_EQ(
        runCli({sub, "--crd", "x.yaml", "--version", "v1", "--date-times", "utc"}, in, out, err), 2)
        << sub;
    EXPECT_NE(err.str().find("date-times"), std::string::npos) << sub << ": " << err.str();
  }
}

}  // namespace
}  // namespace convcheck
