// Evidence that two fields of one parent are lost by different code: an item that lost one and
// kept the other, in a list or a map, never from two different items or from a field inside the
// other.
#include "engine/run/sibling_evidence.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

json routes(json items) { return json{{"spec", {{"routes", std::move(items)}}}}; }

TEST(SiblingEvidence, AnItemThatLostOneFieldAndKeptTheOtherShowsThemApart) {
  const json before = routes({{{"host", "a"}, {"apiType", "grpc"}}, {{"host", "b"}}});
  const json after = routes({{{"host", "a"}}, {{"host", "b"}}});
  EXPECT_TRUE(lostApart(before, after, "spec.routes[*].apiType", "spec.routes[*].host"));
  // The other way round: host was not lost.
  EXPECT_FALSE(lostApart(before, after, "spec.routes[*].host", "spec.routes[*].apiType"));
}

TEST(SiblingEvidence, FieldsLostTogetherOrInDifferentItemsShowNothing) {
  const json both = routes({{{"host", "a"}, {"port", 1}}});
  EXPECT_FALSE(
      lostApart(both, routes({json::object()}), "spec.routes[*].host", "spec.routes[*].port"));
  // Item 0 lost its host and had no port; item 1 kept its port and had no host.
  const json before = routes({{{"host", "a"}}, {{"port", 2}}});
  const json after = routes({json::object(), {{"port", 2}}});
  EXPECT_FALSE(lostApart(before, after, "spec.routes[*].host", "spec.routes[*].port"));
  // A changed value beside the lost one is not kept.
  EXPECT_FALSE(lostApart(routes({{{"host", "a"}, {"port", 1}}}), routes({{{"port", 9}}}),
                         "spec.routes[*].host", "spec.routes[*].port"));
}

TEST(SiblingEvidence, AnItemThatLostBothShowsThemLostTogether) {
  const json before = routes({{{"host", "a"}}, {{"host", "b"}, {"port", 2}}});
  EXPECT_TRUE(lostTogether(before, routes({{{"host", "a"}}, json::object()}), "spec.routes[*].host",
                           "spec.routes[*].port"));
  // Lost in different items only.
  EXPECT_FALSE(lostTogether(before, routes({json::object(), {{"host", "b"}}}),
                            "spec.routes[*].host", "spec.routes[*].port"));
}

TEST(SiblingEvidence, AFieldInsideTheOtherShowsNothing) {
  const json before = routes({{{"backend", {{"host", "h"}, {"port", 1}}}}});
  const json after = routes({{{"backend", {{"port", 1}}}}});
  EXPECT_FALSE(lostApart(before, after, "spec.routes[*].backend.host", "spec.routes[*].backend"));
  EXPECT_TRUE(
      lostApart(before, after, "spec.routes[*].backend.host", "spec.routes[*].backend.port"));
}

TEST(SiblingEvidence, EntriesOfAMapAreItemsToo) {
  const json before = {{"spec", {{"plugins", {{"x", {{"a", 1}, {"b", 2}}}}}}}};
  const json after = {{"spec", {{"plugins", {{"x", {{"b", 2}}}}}}}};
  EXPECT_TRUE(lostApart(before, after, "spec.plugins.*.a", "spec.plugins.*.b"));
  EXPECT_FALSE(lostApart(json::array(), after, "spec.plugins.*.a", "spec.plugins.*.b"));
}

}  // namespace
}  // namespace convcheck
