// CronTab conversion: v1beta1 spec.hostPort <-> v1 spec.host + spec.port, everything else kept.
#include "examples/webhook/crontab_converter.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "tests/examples/random_objects.h"

namespace convcheck::example {
namespace {

using nlohmann::json;
using testing_support::genCronTab;

json cronTab(const std::string& version, json spec) {
  return json{{"apiVersion", "stable.example.com/" + version},
              {"kind", "CronTab"},
              {"metadata",
               {{"name", "my-cron"},
                {"namespace", "default"},
                {"uid", "6f1c3c2e-0000-4000-8000-000000000001"},
                {"labels", {{"app", "cron"}}},
                {"annotations", {{"note", "kept as is"}}}}},
              {"spec", std::move(spec)},
              {"status", {{"active", 2}, {"lastScheduleTime", "2024-05-01T10:00:00Z"}}}};
}

TEST(HostPort, SplitsAtTheColon) {
  auto parts = splitHostPort("localhost:8080");
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->host, "localhost");
  EXPECT_EQ(parts->port, "8080");
}

TEST(HostPort, RejectsValueWithoutColon) { EXPECT_FALSE(splitHostPort("localhost").has_value()); }

TEST(HostPort, RejectsValueWithTwoColons) { EXPECT_FALSE(splitHostPort("a:b:1").has_value()); }

TEST(HostPort, JoinIsTheInverseOfSplit) {
  for (std::string value : {"localhost:8080", "a:1", "db.example.com:00001", ":", "x:"}) {
    auto parts = splitHostPort(value);
    ASSERT_TRUE(parts.has_value()) << value;
    EXPECT_EQ(joinHostPort(*parts), value);
  }
}

TEST(CronTabConverter, V1beta1ToV1SplitsHostPortAndKeepsEverythingElse) {
  json in = cronTab("v1beta1", {{"hostPort", "localhost:8080"},
                                {"cronSpec", "*/5 * * * *"},
                                {"image", "my-cron-image"},
                                {"replicas", 3}});
  auto out = convertCronTab(in, "v1beta1", "v1", {});
  ASSERT_TRUE(out.ok()) << out.error;
  json expected = cronTab("v1", {{"host", "localhost"},
                                 {"port", "8080"},
                                 {"cronSpec", "*/5 * * * *"},
                                 {"image", "my-cron-image"},
                                 {"replicas", 3}});
  EXPECT_EQ(out.object, expected);
}

TEST(CronTabConverter, V1ToV1beta1JoinsHostAndPort) {
  json in = cronTab("v1", {{"host", "db.local"}, {"port", "5432"}, {"replicas", 0}});
  auto out = convertCronTab(in, "v1", "v1beta1", {});
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.object, cronTab("v1beta1", {{"hostPort", "db.local:5432"}, {"replicas", 0}}));
}

TEST(CronTabConverter, ObjectWithoutSpecOnlyChangesApiVersion) {
  json in = {{"apiVersion", "stable.example.com/v1"},
             {"kind", "CronTab"},
             {"metadata", {{"name", "stub"}}}};
  auto out = convertCronTab(in, "v1", "v1beta1", {});
  ASSERT_TRUE(out.ok()) << out.error;
  json expected = in;
  expected["apiVersion"] = "stable.example.com/v1beta1";
  EXPECT_EQ(out.object, expected);
}

TEST(CronTabConverter, HostPortWithoutColonFailsNamingTheField) {
  auto out = convertCronTab(cronTab("v1beta1", {{"hostPort", "localhost"}}), "v1beta1", "v1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("spec.hostPort"), std::string::npos) << out.error;
  EXPECT_NE(out.error.find("\"localhost\""), std::string::npos) << out.error;
}

TEST(CronTabConverter, NonStringHostPortFails) {
  auto out = convertCronTab(cronTab("v1beta1", {{"hostPort", 8080}}), "v1beta1", "v1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("must be a string"), std::string::npos) << out.error;
}

TEST(CronTabConverter, UnknownVersionFails) {
  auto out = convertCronTab(cronTab("v1", {{"host", "a"}, {"port", "1"}}), "v1", "v2", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("stable.example.com/v2"), std::string::npos) << out.error;
}

TEST(CronTabConverter, HandWrittenObjectsRoundTripInBothDirections) {
  const json v1beta1 = cronTab("v1beta1", {{"hostPort", "a-b.c:1"}, {"image", "x"}});
  const json v1 = cronTab("v1", {{"host", "9"}, {"port", "65535"}, {"cronSpec", "0 0 1 1 *"}});
  auto there = convertCronTab(v1beta1, "v1beta1", "v1", {});
  ASSERT_TRUE(there.ok());
  EXPECT_EQ(convertCronTab(there.object, "v1", "v1beta1", {}).object, v1beta1);
  auto other = convertCronTab(v1, "v1", "v1beta1", {});
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(convertCronTab(other.object, "v1beta1", "v1", {}).object, v1);
}

RC_GTEST_PROP(CronTabConverter, RandomObjectsRoundTripForEveryOrderedPair, ()) {
  const auto from = *rc::gen::element<std::string>("v1beta1", "v1");
  const std::string to = from == "v1" ? "v1beta1" : "v1";
  const json original = *genCronTab(from);
  auto there = convertCronTab(original, from, to, {});
  RC_ASSERT(there.ok());
  RC_ASSERT(there.object["apiVersion"] == "stable.example.com/" + to);
  auto back = convertCronTab(there.object, to, from, {});
  RC_ASSERT(back.ok());
  RC_ASSERT(back.object == original);
}

}  // namespace
}  // namespace convcheck::example
