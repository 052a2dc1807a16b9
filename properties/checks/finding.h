// A property violation found in one test case, with everything a report or bundle needs.
// Produced by properties/checks; collected by the runner; consumed by reports/.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/exchange.h"

namespace convcheck {

struct Finding {
  std::string property;              // SPEC §4 id
  std::string from;                  // source version of the case (first object for mixed batches)
  std::string to;                    // target version
  std::string summary;               // one sentence: what a user of the cluster would see
  std::string apiserverMessage;      // kube-apiserver's error for the exchange, empty if it accepts
  std::vector<std::string> details;  // e.g. silently reverted fields, per-index notes
  nlohmann::json expected;           // for the diff (null when not applicable)
  nlohmann::json got;
  std::vector<nlohmann::json> batch;  // the input objects of the case
  std::vector<Exchange> exchanges;    // every request/response of the case, in order
};

}  // namespace convcheck
