// The input objects of a failing case as a finding keeps them: read-only and shared, usually with
// the exchange that sent them, so a batch of large objects is held once however many checks fail.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/transport/exchange.h"

namespace convcheck {

class SharedObjects {
 public:
  using Objects = std::vector<nlohmann::json>;

  SharedObjects() = default;
  // Owns `objects` (explicit: a JSON value would convert to Objects and throw).
  explicit SharedObjects(Objects objects)
      : objects_(std::make_shared<const Objects>(std::move(objects))) {}
  // The objects `exchange` sent, kept alive with it: no copy.
  static SharedObjects sentBy(const ExchangeRef& exchange) {
    SharedObjects s;
    if (exchange) s.objects_ = std::shared_ptr<const Objects>(exchange, &exchange->sent.objects);
    return s;
  }

  const Objects& get() const { return objects_ ? *objects_ : none(); }
  std::size_t size() const { return get().size(); }
  bool empty() const { return get().empty(); }
  const nlohmann::json& operator[](std::size_t i) const { return get()[i]; }
  const nlohmann::json& front() const { return get().front(); }
  Objects::const_iterator begin() const { return get().begin(); }
  Objects::const_iterator end() const { return get().end(); }

  friend bool operator==(const SharedObjects& a, const SharedObjects& b) {
    return a.get() == b.get();
  }
  friend bool operator==(const SharedObjects& a, const Objects& b) { return a.get() == b; }

 private:
  static const Objects& none() {
    static const Objects kNone;
    return kNone;
  }
  std::shared_ptr<const Objects> objects_;
};

}  // namespace convcheck
