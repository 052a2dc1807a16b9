#include "kube/apiserver/shared_objects.h"

#include <gtest/gtest.h>

#include "properties/checks/exchange_view.h"

namespace convcheck {
namespace {

using nlohmann::json;

ExchangeRef exchangeOf(std::vector<json> objects) {
  Exchange ex;
  ex.sent.objects = SharedObjects::own(std::move(objects));
  for (const auto& o : ex.sent.objects) ex.verdict.visible.push_back(o);
  return share(std::move(ex));
}

TEST(SharedObjects, TheObjectsAnExchangeSentAreSharedNotCopied) {
  ExchangeRef ex = exchangeOf({json{{"a", 1}}, json{{"b", 2}}});
  const json* second = &ex->sent.objects[1];
  SharedObjects s = ex->sent.objects;
  EXPECT_EQ(&s[1], second);
  ex.reset();  // the copy keeps the objects alive
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1], (json{{"b", 2}}));
}

TEST(SharedObjects, WhatAClientSawIsSharedWithTheExchange) {
  ExchangeRef ex = exchangeOf({json{{"a", 1}}, json{{"b", 2}}});
  SharedObjects visible = visibleOf(ex);
  ASSERT_EQ(visible.size(), 2u);
  EXPECT_TRUE(visible.holds(0, ex->verdict.visible[0]));
  EXPECT_FALSE(visible.holds(0, ex->sent.objects[0])) << "equal, but another object";
  std::weak_ptr<const Exchange> watch = ex;
  ex.reset();
  EXPECT_FALSE(watch.expired()) << "the objects keep their exchange alive";
  EXPECT_EQ(visible[1], (json{{"b", 2}}));
  visible = SharedObjects();
  EXPECT_TRUE(watch.expired());
}

TEST(SharedObjects, APickIsASharedSubsetInItsOwnOrder) {
  SharedObjects all = SharedObjects::own({json(0), json(1), json(2)});
  SharedObjects picked = all.pick({2, 0});
  ASSERT_EQ(picked.size(), 2u);
  EXPECT_TRUE(picked.holds(0, all[2]));
  EXPECT_TRUE(picked.holds(1, all[0]));
  std::vector<json> seen(picked.begin(), picked.end());
  EXPECT_EQ(seen, (std::vector<json>{json(2), json(0)}));
  EXPECT_EQ(picked.copy(), seen);
  EXPECT_THROW(all.pick({3}), std::out_of_range);
}

TEST(SharedObjects, OwnedObjectsEqualityAndTheEmptyDefault) {
  SharedObjects none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.begin(), none.end());
  SharedObjects own = SharedObjects::own({json{{"x", true}}});
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own.front(), (json{{"x", true}}));
  EXPECT_TRUE((own == std::vector<json>{json{{"x", true}}}));
  EXPECT_FALSE((own == std::vector<json>{json{{"x", false}}}));
  EXPECT_FALSE(own == none);
  EXPECT_TRUE(own == SharedObjects::own({json{{"x", true}}})) << "equal by value";
  SharedObjects copy = own;
  EXPECT_TRUE(copy.holds(0, own[0])) << "copies share the objects";
}

TEST(SharedObjects, FindingsOfOneExchangeHoldItsBatchOnce) {
  ExchangeRef ex = exchangeOf({json{{"kind", "Widget"}}});
  CaseContext ctx{"v1", "v2", std::chrono::milliseconds(1000)};
  Finding a = findingOn("schema-valid", ex, ctx, "a", {}, nullptr, nullptr);
  Finding b = findingOn("no-pruned-fields", ex, ctx, "b", {}, nullptr, nullptr);
  EXPECT_TRUE(a.batch.holds(0, ex->sent.objects[0]));
  EXPECT_TRUE(b.batch.holds(0, ex->sent.objects[0]));
}

}  // namespace
}  // namespace convcheck
