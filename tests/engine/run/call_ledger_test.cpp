// The call ledger: what a kind's run counts of its calls, when the webhook counts as reached, and
// how the transport breaker (with its probes) stops the run, on calls to in-process targets.
#include <atomic>
#include <memory>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/run/call_ledger.h"
#include "engine/run/connections.h"
#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

// Calls to the example webhook; while `failing` is set, every call fails at the transport with
// `kind` (also the breaker's probes), and so does any call of an object named fail-*.
struct Webhook {
  explicit Webhook(TransportErrorKind kind = TransportErrorKind::Connect) {
    connections = std::make_unique<Connections>(
        crd, ResolvedTarget{"inprocess://example", {}, ReviewVersion::V1, {}},
        [this, kind](const ResolvedTarget&) {
          ++opened;
          return std::make_unique<testing::FailingTarget>(
              [this](const std::string& body) {
                return failing.load() || body.find("\"fail-") != std::string::npos;
              },
              kind);
        },
        1);
    converter = connections->open();
  }
  Exchange call(const std::string& name) {
    return converter->convert({testing::exampleWidget(name)}, "v1alpha1", uids);
  }

  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  std::atomic<bool> failing{false};
  int opened = 0;
  std::unique_ptr<Connections> connections;
  std::unique_ptr<Converter> converter;
  std::mt19937_64 uids{1};
};

TEST(CallLedger, CountsEveryRequestAndItsObjectsIntoTheReport) {
  Webhook webhook;
  CallLedger calls(5, *webhook.connections, {});
  calls.record(webhook.call("a"));
  calls.count(webhook.converter->convert({testing::exampleWidget("b"), testing::exampleWidget("c")},
                                         "v1alpha1", webhook.uids));
  EXPECT_EQ(calls.requests(), 2);
  KindReport report;
  calls.fill(report);
  EXPECT_EQ(report.requests, 2);
  EXPECT_EQ(report.objectsSent, 3);
  EXPECT_TRUE(report.notes.empty());
}

TEST(CallLedger, AnAnsweredCallReachesTheWebhookAndIsTimed) {
  Webhook webhook;
  int timed = 0;
  CallLedger calls(5, *webhook.connections, {[&](const Exchange&) { ++timed; }, nullptr});
  EXPECT_FALSE(calls.reachable());
  calls.record(webhook.call("a"));
  EXPECT_TRUE(calls.reachable());
  EXPECT_EQ(timed, 1);
}

TEST(CallLedger, AFailedConnectionLeavesTheWebhookUnreachableAndSaysWhy) {
  Webhook webhook(TransportErrorKind::Connect);
  webhook.failing = true;
  CallLedger calls(5, *webhook.connections, {});
  calls.record(webhook.call("a"));
  EXPECT_FALSE(calls.reachable());
  EXPECT_EQ(calls.unreachableReason(), "connect: the in-process target failed this call");
}

TEST(CallLedger, AWebhookThatTookTheCallAndTimedOutWasReached) {
  Webhook webhook(TransportErrorKind::Timeout);
  webhook.failing = true;
  CallLedger calls(5, *webhook.connections, {});
  calls.record(webhook.call("a"));
  EXPECT_TRUE(calls.reachable());
  EXPECT_EQ(calls.unreachableReason(), "");
}

TEST(CallLedger, FailuresInARowStopTheRunOnceHaltingTheCases) {
  Webhook webhook(TransportErrorKind::Connect);
  webhook.failing = true;
  int halts = 0;
  CallLedger calls(3, *webhook.connections, {nullptr, [&] { ++halts; }});
  calls.record(webhook.call("a"));
  calls.record(webhook.call("b"));
  EXPECT_FALSE(calls.stopped());
  EXPECT_FALSE(calls.stoppedByTransport());
  calls.record(webhook.call("c"));
  EXPECT_TRUE(calls.stopped());
  EXPECT_TRUE(calls.stoppedByTransport());
  calls.record(webhook.call("d"));
  EXPECT_EQ(halts, 1);
  EXPECT_FALSE(calls.interrupted());
  KindReport report;
  calls.fill(report);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("stopped after 3 consecutive failed calls"), std::string::npos)
      << report.notes[0];
}

TEST(CallLedger, AProbeOverItsOwnConnectionFindsTheWebhookStillAnsweringAndIsCounted) {
  Webhook webhook(TransportErrorKind::Connect);
  int halts = 0;
  CallLedger calls(2, *webhook.connections, {nullptr, [&] { ++halts; }});
  calls.record(webhook.call("a"));  // accepted: what the probe sends again
  const int opened = webhook.opened;
  calls.record(webhook.call("fail-b"));
  calls.record(webhook.call("fail-c"));
  EXPECT_EQ(webhook.opened, opened + 1) << "one connection for the probes";
  EXPECT_FALSE(calls.stopped());
  EXPECT_EQ(halts, 0);
  EXPECT_EQ(calls.requests(), 4) << "three calls and the probe";
  KindReport report;
  calls.fill(report);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("still converts objects it converted before"), std::string::npos);
}

TEST(CallLedger, AnInterruptStopsTheRunAndSaysSo) {
  Webhook webhook;
  CallLedger calls(5, *webhook.connections, {});
  calls.interrupt();
  EXPECT_TRUE(calls.stopped());
  EXPECT_TRUE(calls.interrupted());
  EXPECT_FALSE(calls.stoppedByTransport());  // a port-forward gets no grace to end
  KindReport report;
  calls.fill(report);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0], "interrupted: results cover the cases run so far");
}

}  // namespace
}  // namespace convcheck
