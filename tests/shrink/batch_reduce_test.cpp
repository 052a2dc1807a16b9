// Batch reduction finds the smallest failing subset of positions without knowing what they are.
#include <gtest/gtest.h>

#include <algorithm>

#include "shrink/batch_reduce.h"

namespace convcheck {
namespace {

bool has(const Subset& s, std::size_t i) { return std::find(s.begin(), s.end(), i) != s.end(); }

struct Counter {
  int calls = 0;
};

ReduceCallbacks callbacks(std::function<bool(const Subset&)> fails, Counter& counter,
                          int budget = 1000) {
  ReduceCallbacks cb;
  cb.stillFails = [fails, &counter](const Subset& s) {
    ++counter.calls;
    return fails(s);
  };
  cb.stop = [&counter, budget] { return counter.calls >= budget; };
  return cb;
}

TEST(ReduceBatch, KeepsTheOneObjectABugNeeds) {
  Counter c;
  auto out = reduceBatch(20, callbacks([](const Subset& s) { return has(s, 13); }, c));
  EXPECT_EQ(out, (Subset{13}));
}

TEST(ReduceBatch, SingleObjectFailuresCostOneCallWhenTheFirstObjectFails) {
  Counter c;
  auto out = reduceBatch(32, callbacks([](const Subset& s) { return has(s, 0); }, c));
  EXPECT_EQ(out, (Subset{0}));
  EXPECT_EQ(c.calls, 1);
}

// A failure that names its object: the first try that fails is where reduction starts, so a
// bug in object 29 of 31 costs one call instead of a sweep of chunks.
TEST(ReduceBatch, AFirstTryThatFailsIsWhereReductionStarts) {
  Counter c;
  ReduceCallbacks cb = callbacks([](const Subset& s) { return has(s, 29); }, c);
  cb.firstTries = {{29}, {0, 29}};
  EXPECT_EQ(reduceBatch(31, cb), (Subset{29}));
  EXPECT_EQ(c.calls, 1);
}

TEST(ReduceBatch, AFirstTryOfTwoIsReducedFurtherAndAFailedOneCostsOneCall) {
  Counter c;
  // Object 29 fails only after object 0 (the pair's first object): {29} alone passes.
  ReduceCallbacks cb = callbacks([](const Subset& s) { return has(s, 0) && has(s, 29); }, c);
  cb.firstTries = {{29}, {0, 29}};
  EXPECT_EQ(reduceBatch(31, cb), (Subset{0, 29}));
  EXPECT_LE(c.calls, 5) << "two first tries, then the pair's two single removals";
}

TEST(ReduceBatch, FirstTriesThatPassFallBackToTheFullReduction) {
  Counter c;
  ReduceCallbacks cb = callbacks([](const Subset& s) { return has(s, 13); }, c);
  cb.firstTries = {{29}, {0, 29}};
  EXPECT_EQ(reduceBatch(31, cb), (Subset{13}));
}

TEST(ReduceBatch, KeepsTwoObjectsWhenTheBugNeedsAPair) {
  Counter c;
  auto out = reduceBatch(16, callbacks([](const Subset& s) { return has(s, 2) && has(s, 11); }, c));
  EXPECT_EQ(out, (Subset{2, 11}));
}

TEST(ReduceBatch, SizeBugsShrinkToTheSmallestFailingSize) {
  Counter c;
  auto out = reduceBatch(32, callbacks([](const Subset& s) { return s.size() > 8; }, c));
  EXPECT_EQ(out.size(), 9u);
  EXPECT_LT(c.calls, 40) << "chunk removal, not one object at a time";
}

TEST(ReduceBatch, AnyTwoObjectsReproduceAnOrderBug) {
  Counter c;
  auto out = reduceBatch(14, callbacks([](const Subset& s) { return s.size() >= 2; }, c));
  EXPECT_EQ(out.size(), 2u);
}

TEST(ReduceBatch, InadmissibleSubsetsAreNeverTried) {
  Counter c;
  auto cb = callbacks([](const Subset& s) { return has(s, 5); }, c);
  std::vector<Subset> tried;
  cb.admissible = [](const Subset& s) { return s.front() % 2 == 0; };  // first must be even
  auto inner = cb.stillFails;
  cb.stillFails = [&](const Subset& s) {
    tried.push_back(s);
    return inner(s);
  };
  auto out = reduceBatch(10, cb);
  for (const auto& s : tried) EXPECT_EQ(s.front() % 2, 0u);
  EXPECT_TRUE(has(out, 5));
  EXPECT_EQ(out.front() % 2, 0u);
  EXPECT_EQ(out.size(), 2u);
}

TEST(ReduceBatch, StopsWhenTheBudgetIsSpent) {
  Counter c;
  auto out = reduceBatch(64, callbacks([](const Subset& s) { return s.size() > 30; }, c, 5));
  EXPECT_LE(c.calls, 5);
  EXPECT_GT(out.size(), 30u) << "whatever it returns still fails";
}

TEST(ReduceBatch, ResultIsOneMinimal) {
  Counter c;
  auto fails = [](const Subset& s) {
    return (has(s, 1) && has(s, 7)) || (has(s, 3) && has(s, 4) && has(s, 9));
  };
  auto out = reduceBatch(12, callbacks(fails, c));
  ASSERT_TRUE(fails(out));
  for (std::size_t i = 0; i < out.size(); ++i) {
    Subset less = out;
    less.erase(less.begin() + static_cast<std::ptrdiff_t>(i));
    EXPECT_FALSE(fails(less)) << "position " << out[i] << " could be dropped";
  }
}

}  // namespace
}  // namespace convcheck
