// Targets for runner tests that convert in this process: the example webhook's conversion (with
// faults) answered without a socket, and wrappers that make some calls fail at the transport or
// count the calls in flight at once.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "examples/webhook/review_handler.h"
#include "harness/transport/review_target.h"

namespace convcheck::testing {

// The example webhook's answer to every review, as the HTTPS server would send it.
class ExampleTarget : public ReviewTarget {
 public:
  // `kinds`: the first release of the examples, or the second (example::KindMode::release2).
  explicit ExampleTarget(example::FaultSet faults,
                         example::KindMode kinds = example::KindMode::examples)
      : faults_(faults), kinds_(kinds) {}
  HttpResult post(const std::string& body) override {
    example::HttpReply reply =
        example::handleConversionReview("application/json", body, faults_, kinds_);
    HttpResult r;
    r.url = "inprocess://example";
    r.status = reply.status;
    r.contentType = reply.contentType;
    r.body = std::move(reply.body);
    return r;
  }

 private:
  example::FaultSet faults_;
  example::KindMode kinds_;
};

// The example webhook, except that calls `fails` picks end in a transport failure of `kind`.
class FailingTarget : public ExampleTarget {
 public:
  FailingTarget(std::function<bool(const std::string& body)> fails, TransportErrorKind kind)
      : ExampleTarget({}), fails_(std::move(fails)), kind_(kind) {}
  HttpResult post(const std::string& body) override {
    if (!fails_(body)) return ExampleTarget::post(body);
    HttpResult r;
    r.url = "inprocess://example";
    r.transportErrorKind = kind_;
    r.transportError =
        std::string(transportErrorKindName(kind_)) + ": the in-process target failed this call";
    return r;
  }

 private:
  std::function<bool(const std::string&)> fails_;
  TransportErrorKind kind_;
};

// The example webhook, slowed down by `delay` per call so that callers overlap, counting the calls
// in flight at once (`now`) and the most there were (`most`).
class CountingTarget : public ExampleTarget {
 public:
  CountingTarget(std::atomic<int>& now, std::atomic<int>& most, std::chrono::milliseconds delay)
      : ExampleTarget({}), now_(now), most_(most), delay_(delay) {}
  HttpResult post(const std::string& body) override {
    const int n = ++now_;
    int seen = most_.load();
    while (n > seen && !most_.compare_exchange_weak(seen, n)) {
    }
    std::this_thread::sleep_for(delay_);
    --now_;
    return ExampleTarget::post(body);
  }

 private:
  std::atomic<int>& now_;
  std::atomic<int>& most_;
  std::chrono::milliseconds delay_;
};

}  // namespace convcheck::testing
