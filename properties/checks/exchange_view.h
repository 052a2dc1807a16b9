// One exchange as the Exchange-scope properties look at it: the exchange, its case context, the
// lenient view of the answer and the helpers they share (pairing returned objects with sent ones).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/check_result.h"
#include "properties/checks/exchange_checks.h"
#include "properties/checks/response_view.h"

namespace convcheck {

CheckResult passed(const char* property);
CheckResult notEvaluable(const char* property, std::string why);
// A finding of `property` on one exchange of a case, with the batch and the exchange attached.
Finding findingOn(const char* property, const ExchangeRef& exchange, const CaseContext& context,
                  std::string summary, std::vector<std::string> details = {},
                  nlohmann::json expected = nullptr, nlohmann::json got = nullptr);

class ExchangeView {
 public:
  ExchangeView(const ExchangeRef& exchange, const CaseContext& context);

  const ExchangeRef& ref;  // what findings keep
  const Exchange& ex;
  const CaseContext& ctx;
  const ResponseView view;

  // A failure of `property` on this exchange, for the case's pair.
  CheckResult fail(const char* property, std::string summary, std::vector<std::string> details = {},
                   nlohmann::json expected = nullptr, nlohmann::json got = nullptr) const;

  bool timedOut() const;
  // Why properties needing a Success answer with objects cannot look at it ("" when they can).
  std::string objectsUnavailable() const;
  // As objectsUnavailable, and also when the object count differs.
  std::string perObjectUnavailable() const;
  // The returned objects are the sent ones (by identity) in another order.
  bool isPermutation() const { return permuted_; }
  // Index of the sent object each returned object is the conversion of.
  const std::vector<std::size_t>& pairing() const { return pairing_; }

 private:
  // Worked out once, when the view is made: several properties ask.
  bool permuted_ = false;
  std::vector<std::size_t> pairing_;
};

}  // namespace convcheck
