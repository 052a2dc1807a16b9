#include "properties/checks/shared_objects.h"

#include <gtest/gtest.h>

#include "properties/checks/exchange_view.h"

namespace convcheck {
namespace {

using nlohmann::json;

ExchangeRef exchangeOf(std::vector<json> objects) {
  Exchange ex;
  ex.sent.objects = std::move(objects);
  return share(std::move(ex));
}

TEST(SharedObjects, TheObjectsAnExchangeSentAreSharedNotCopied) {
  ExchangeRef ex = exchangeOf({json{{"a", 1}}, json{{"b", 2}}});
  const std::vector<json>* sent = &ex->sent.objects;
  SharedObjects s = SharedObjects::sentBy(ex);
  EXPECT_EQ(&s.get(), sent);
  ex.reset();  // the finding keeps the exchange alive
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1], (json{{"b", 2}}));
}

TEST(SharedObjects, OwnedObjectsAndTheEmptyDefault) {
  SharedObjects none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  SharedObjects own(std::vector<json>{json{{"x", true}}});
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own.front(), (json{{"x", true}}));
  EXPECT_TRUE((own == std::vector<json>{json{{"x", true}}}));
  EXPECT_FALSE(own == none);
  SharedObjects copy = own;
  EXPECT_EQ(&copy.get(), &own.get()) << "copies of a finding share the objects";
}

TEST(SharedObjects, FindingsOfOneExchangeHoldItsBatchOnce) {
  ExchangeRef ex = exchangeOf({json{{"kind", "Widget"}}});
  CaseContext ctx{"v1", "v2", std::chrono::milliseconds(1000)};
  Finding a = findingOn("schema-valid", ex, ctx, "a", {}, nullptr, nullptr);
  Finding b = findingOn("no-pruned-fields", ex, ctx, "b", {}, nullptr, nullptr);
  EXPECT_EQ(&a.batch.get(), &ex->sent.objects);
  EXPECT_EQ(&b.batch.get(), &ex->sent.objects);
}

}  // namespace
}  // namespace convcheck
