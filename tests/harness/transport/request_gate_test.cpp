// The request gate on its own: never more holders than slots, and every waiter gets through.
#include "harness/transport/request_gate.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

TEST(RequestGate, NeverLetsMoreCallersThroughThanItHasSlots) {
  RequestGate gate(2);
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::atomic<int> passed{0};
  std::vector<std::thread> callers;
  for (int k = 0; k < 8; ++k)
    callers.emplace_back([&] {
      for (int n = 0; n < 20; ++n) {
        RequestGate::Pass pass(&gate);
        int now = ++inside;
        for (int m = most; now > m && !most.compare_exchange_weak(m, now);)
          ;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        --inside;
        ++passed;
      }
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(passed.load(), 8 * 20);
  EXPECT_LE(most.load(), 2);
  EXPECT_GE(most.load(), 1);
}

TEST(RequestGate, ANullGateHoldsNothingAndFewerThanOneSlotMeansOne) {
  { RequestGate::Pass pass(nullptr); }
  RequestGate gate(0);
  std::atomic<bool> second{false};
  std::thread other;
  {
    RequestGate::Pass first(&gate);
    other = std::thread([&] {
      RequestGate::Pass pass(&gate);
      second = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(second.load()) << "the one slot is held";
  }
  other.join();
  EXPECT_TRUE(second.load());
}

}  // namespace
}  // namespace convcheck
