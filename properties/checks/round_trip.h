// The round-trip property: A->B->A gives back A, as a client would see it after the API-server
// model. Called by the runner after a forward and a backward exchange of the same batch.
#pragma once

#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/apiserver/shared_objects.h"
#include "properties/checks/check_result.h"
#include "properties/checks/exchange_checks.h"

namespace convcheck {

// Object i of a round trip: as stored at its source version, and what came back from the B->A
// conversion, both in the API server's visible form.
struct RoundTripObject {
  nlohmann::json original;
  nlohmann::json returned;
  // When set, what came back is this object (kept alive by its exchange) and `returned` is not
  // read: an answer compared as it is is not copied.
  const nlohmann::json* returnedIn = nullptr;
  const nlohmann::json& back() const { return returnedIn ? *returnedIn : returned; }
};

// Compares the `count` objects of a batch one at a time (`objectAt(i)` makes object i's pair
// when it is needed), so a batch of large objects is never held once more as a whole.
// `exchanges` gives the forward and backward exchanges for the report; it is called only for a
// failure (may be empty), so a passing case copies none of them. A failure's batch is `sent`
// (the batch as sent, shared) when every original equals its sent object, else the originals.
CheckResult checkRoundTrip(std::size_t count,
                           const std::function<RoundTripObject(std::size_t)>& objectAt,
                           const std::function<std::vector<ExchangeRef>()>& exchanges,
                           const CaseContext& context, const SharedObjects& sent = {});

// The same for pairs already made (`returned` may be shorter than `originals`).
CheckResult checkRoundTrip(const std::vector<nlohmann::json>& originals,
                           const std::vector<nlohmann::json>& returned,
                           const std::function<std::vector<ExchangeRef>()>& exchanges,
                           const CaseContext& context);

// One sentence naming what a read-modify-write at `via` would do to the object, e.g.
// "a read-modify-write at v1 silently deletes spec.nickname".
std::string describeLoss(const nlohmann::json& original, const nlohmann::json& returned,
                         const std::string& via);

}  // namespace convcheck
