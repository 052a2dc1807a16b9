// Greedy descent follows a RapidCheck shrink tree to the smallest accepted value.
#include <gtest/gtest.h>

#include "shrink/tree_descent.h"

namespace convcheck {
namespace {

using nlohmann::json;

rc::Shrinkable<json> integers(int start) {
  return rc::shrinkable::map(rc::shrinkable::shrinkRecur(start, &rc::shrink::integral<int>),
                             [](int v) { return json(v); });
}

TEST(TreeDescent, ReachesTheSmallestValueThatIsStillAccepted) {
  auto out = descendShrinkTree(
      integers(1000), [](const rc::Shrinkable<json>& s) { return s.value().get<int>() >= 37; },
      [] { return false; });
  EXPECT_EQ(out.value(), 37);
}

TEST(TreeDescent, StopsWhenAskedAndKeepsTheLastAcceptedValue) {
  int judged = 0;
  DescentStats stats;
  auto out = descendShrinkTree(
      integers(1000),
      [&](const rc::Shrinkable<json>& s) {
        ++judged;
        return s.value().get<int>() >= 37;
      },
      [&] { return judged >= 3; }, &stats);
  EXPECT_EQ(judged, 3);
  EXPECT_GE(out.value().get<int>(), 37);
  EXPECT_EQ(stats.examined, 3);
}

TEST(TreeDescent, ALeafStaysAsItIs) {
  auto out = descendShrinkTree(
      rc::shrinkable::just(json{{"a", 1}}), [](const rc::Shrinkable<json>&) { return true; },
      [] { return false; });
  EXPECT_EQ(out.value(), (json{{"a", 1}}));
}

}  // namespace
}  // namespace convcheck
