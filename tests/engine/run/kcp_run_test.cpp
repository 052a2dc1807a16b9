// prepareKcpRun: what a run against kcp's conversion rules takes from its APIConversion (the
// acknowledged preserve annotation, the properties checked), and nothing for another target.
#include "engine/run/kcp_run.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/transport/kcp_target.h"

namespace convcheck {
namespace {

RunConfig kcpRun(const std::string& conversion) {
  RunConfig c;
  c.url = kcpTargetUrl(std::string(CONVCHECK_EXAMPLES_DIR) + "/kcp/" + conversion);
  return c;
}

bool has(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

TEST(KcpRun, AcknowledgesThePreserveAnnotationOfEachConversionThatPreservesFields) {
  RunConfig c = kcpRun("people-conversion.yaml");
  ASSERT_EQ(prepareKcpRun(c), "");
  ASSERT_TRUE(c.acks);
  ASSERT_EQ(c.acks->items.size(), 1u);  // only v2 -> v1 preserves (spec.pronouns)
  const Acknowledgement& a = c.acks->items[0];
  EXPECT_EQ(a.kind, Acknowledgement::Kind::Annotation);
  EXPECT_EQ(a.key, "preserve.conversion.apis.kcp.io/v2");
  EXPECT_NE(a.where.find("people-conversion.yaml: spec.conversions[1].preserve"), std::string::npos)
      << a.where;
}

TEST(KcpRun, LeavesNoPrunedFieldsOutOnlyWhenNoPropertyWasChosen) {
  RunConfig all = kcpRun("people-conversion.yaml");
  ASSERT_EQ(prepareKcpRun(all), "");
  EXPECT_FALSE(has(all.properties, "no-pruned-fields"));
  EXPECT_TRUE(has(all.properties, "round-trip"));

  RunConfig chosen = kcpRun("people-conversion.yaml");
  chosen.properties = {"no-pruned-fields"};
  ASSERT_EQ(prepareKcpRun(chosen), "");
  EXPECT_EQ(chosen.properties, std::vector<std::string>{"no-pruned-fields"});
}

TEST(KcpRun, AnUnreadableConversionIsAnErrorNamingTheOption) {
  RunConfig c = kcpRun("no-such-conversion.yaml");
  const std::string error = prepareKcpRun(c);
  EXPECT_EQ(error.rfind("--conversion: ", 0), 0u) << error;
  EXPECT_NE(error.find("no-such-conversion.yaml"), std::string::npos) << error;
}

TEST(KcpRun, AnotherTargetIsLeftAsItWas) {
  RunConfig c;
  c.url = "https://127.0.0.1:8443/convert";
  ASSERT_EQ(prepareKcpRun(c), "");
  EXPECT_FALSE(c.acks);
  EXPECT_TRUE(c.properties.empty());
}

}  // namespace
}  // namespace convcheck
