// A kind's connections: each converter gets a target of its own, made by the run's factory from
// the resolved target, and every converter's calls share the run's request slots.
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/run/connections.h"
#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

TEST(Connections, EachConverterHasATargetOfItsOwnForTheResolvedTarget) {
  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  std::vector<std::string> urls;
  Connections connections(
      crd, ResolvedTarget{"inprocess://example", {}, ReviewVersion::V1beta1, {}},
      [&](const ResolvedTarget& target) {
        urls.push_back(target.url);
        return std::make_unique<testing::ExampleTarget>(example::FaultSet{});
      },
      1);
  auto one = connections.open();
  auto other = connections.open();
  EXPECT_EQ(urls, (std::vector<std::string>{"inprocess://example", "inprocess://example"}));
  EXPECT_EQ(one->reviewVersion(), ReviewVersion::V1beta1);
  std::mt19937_64 uids(1);
  EXPECT_TRUE(one->convert({testing::exampleWidget("a")}, "v1alpha1", uids).http.ok());
}

TEST(Connections, TheirCallsTakeTheRunsRequestSlots) {
  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  std::atomic<int> now{0}, most{0};
  Connections connections(
      crd, ResolvedTarget{"inprocess://example", {}, ReviewVersion::V1, {}},
      [&](const ResolvedTarget&) {
        return std::make_unique<testing::CountingTarget>(now, most, std::chrono::milliseconds(5));
      },
      2);
  std::vector<std::jthread> callers;
  for (int i = 0; i < 5; ++i)
    callers.emplace_back([&connections, i] {
      auto converter = connections.open();
      std::mt19937_64 uids(static_cast<std::uint64_t>(i));
      for (int k = 0; k < 4; ++k)
        converter->convert({testing::exampleWidget("w" + std::to_string(i))}, "v1alpha1", uids);
    });
  callers.clear();
  EXPECT_EQ(most.load(), 2);
}

}  // namespace
}  // namespace convcheck
