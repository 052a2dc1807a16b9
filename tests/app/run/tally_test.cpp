// The tally: causes are reported most severe first, at most eight with an example each, the rest
// counted; examples survive however many less severe causes come after them.
#include "app/run/tally.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

CheckResult failure(const std::string& key, Severity severity, const std::string& marker) {
  Finding f;
  f.property = "round-trip";
  f.from = "v1";
  f.to = "v2";
  f.summary = marker;
  f.batch = SharedObjects::own(std::vector<nlohmann::json>{nlohmann::json{{"marker", marker}}});
  f.causes = {Cause{key, severity, "title " + key, "spec." + key}};
  return {"round-trip", Outcome::Fail, f, ""};
}

TEST(Tally, ReportsTheEightMostSevereCausesWithTheirOwnExamplesAndCountsTheRest) {
  Tally tally({}, {});
  for (int i = 0; i < 12; ++i)
    tally.add(failure("cosmetic" + std::to_string(i), Severity::Cosmetic, "c" + std::to_string(i)),
              "v1", "v2");
  tally.add(failure("loss", Severity::DataLoss, "the loss"), "v1", "v2");
  tally.add(failure("loss", Severity::DataLoss, "the loss again"), "v1", "v2");
  for (int i = 0; i < 3; ++i)
    tally.add(failure("invented" + std::to_string(i), Severity::Invented, "i" + std::to_string(i)),
              "v1", "v2");
  KindReport report;
  tally.fill(report);
  ASSERT_EQ(report.tallies.size(), 1u);
  const auto& t = report.tallies[0];
  EXPECT_EQ(t.failed, 17);
  ASSERT_EQ(t.findings.size(), 8u);
  EXPECT_EQ(t.moreCauses, 8);
  // The data loss first with its first case, then the invented data, then the first cosmetic ones.
  EXPECT_EQ(t.findings[0].cause->key, "loss");
  EXPECT_EQ(t.findings[0].cases, 2);
  EXPECT_EQ(t.findings[0].summary, "the loss");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.findings[1 + i].summary, "i" + std::to_string(i));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t.findings[4 + i].summary, "c" + std::to_string(i));
    ASSERT_EQ(t.findings[4 + i].batch.size(), 1u);
  }
}

}  // namespace
}  // namespace convcheck
