// The results the upgrade play and the diff record, one per (property, version pair) and object:
// a pass; a difference between what a client read before and after (its causes by path, as run
// finds them, the acknowledged ones moved aside); a rejection (kube-apiserver's message); a CRD
// change with a cause of its own. Every failing result carries what its bundle and replay need.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/cause_analysis.h"
#include "properties/checks/check_result.h"
#include "properties/checks/property.h"
#include "properties/config/ack_config.h"

namespace convcheck {

// A result and the (from, to) it is tallied under.
struct StepResult {
  CheckResult result;
  std::string from, to;
};

// What every failing result of one object shares.
struct StepContext {
  const AckConfig* acks = nullptr;  // may be null
  SchemaLookup schemas;             // of the release whose read is judged (paths normalised)
  nlohmann::json input;             // the object the play started from
  std::string origin;               // "generated", "cluster NS/NAME", "FILE, document N"
  std::uint64_t seed = 0;           // the object's seed (request uids)
};

StepResult stepPassed(const Property& step, const std::string& from, const std::string& to);

// `before` and `after` differ: a failure whose causes are the differing paths (as run folds
// them), unless every cause is acknowledged (then a pass listing them). Equal: a pass. `call` is
// the webhook call that made `after` (null when none did); `summary` says what a user sees.
StepResult compareReads(const Property& step, const std::string& from, const std::string& to,
                        const nlohmann::json& before, const nlohmann::json& after,
                        const ExchangeRef& call, const std::string& summary,
                        const StepContext& context);

// kube-apiserver rejected `call` (the API-server model's verdict): a failure with its message.
StepResult rejection(const Property& step, const std::string& from, const std::string& to,
                     const ExchangeRef& call, const std::string& summary,
                     const StepContext& context);

// A failure with causes of its own (a CRD change, an impossible rollback, an object a new
// schema rejects), with kube-apiserver's message for it ("" when none) and the webhook call that
// made the object it is about (may be null).
StepResult ownCause(const Property& step, const std::string& from, const std::string& to,
                    std::vector<Cause> causes, const std::string& summary,
                    std::vector<std::string> details, const StepContext& context,
                    const std::string& apiserverMessage = "", const ExchangeRef& call = nullptr);

}  // namespace convcheck
