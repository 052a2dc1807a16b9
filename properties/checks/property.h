// A property of SPEC §4 as one unit: its id, what it holds, when it is judged, the webhook calls
// it costs, how severe its failures are and its judge. Each property is one file in
// properties/checks; property_registry.cpp lists them, and every other file reaches it there.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/cause.h"
#include "properties/checks/cause_analysis.h"
#include "properties/checks/check_result.h"
#include "properties/checks/exchange_checks.h"

namespace convcheck {

class ExchangeView;
struct TlsEvidence;

enum class PropertyScope {
  Exchange,  // judged on every answer: the forward call and each further call of a case
  Output,    // judged on the objects the forward call of valid input produced
  Case,      // makes calls of its own after the forward one, then judges them together
  Endpoint,  // judged once per run on the webhook's endpoint, not on conversions
  Release,   // judged by `convcheck upgrade` and `convcheck diff` on two releases, never by run
};

// What a Case-scope property gets from the case executor (properties/case_executor): the case, the
// forward exchange, a way to make further calls and the kind's helpers. Results go to record().
class CaseCalls {
 public:
  virtual ~CaseCalls() = default;
  // The batch as kube-apiserver sends it (defaults applied unless --raw-objects).
  virtual const SharedObjects& batch() const = 0;
  virtual const ExchangeRef& forward() const = 0;  // accepted by the API-server model
  virtual const CaseContext& context() const = 0;
  virtual std::uint64_t seed() const = 0;
  // Converts `objects` to `to` (each defaulted as the API server would first); every call is
  // counted, kept in the case's exchanges and judged by no property until passed to judgeCall.
  // Shared objects (the batch, a call's visibleOf) are sent without a copy unless defaults apply.
  virtual ExchangeRef send(SharedObjects objects, const std::string& to) = 0;
  ExchangeRef send(std::vector<nlohmann::json> objects, const std::string& to) {
    return send(SharedObjects::own(std::move(objects)), to);
  }
  // Judges the Exchange-scope properties on a further call, tallied for the pair (from, to).
  virtual void judgeCall(const ExchangeRef& exchange, const std::string& from,
                         const std::string& to) = 0;
  virtual void record(CheckResult result) = 0;
  // Versions objects of the kind can be in (two-hop paths may go through them).
  virtual const std::vector<std::string>& versions() const = 0;
  // A schema-valid edit of `object` at `version` keeping its metadata; nullopt when none.
  virtual std::optional<nlohmann::json> edit(const nlohmann::json& object,
                                             const std::string& version,
                                             std::uint64_t seed) const = 0;
  virtual const nlohmann::json* schemaOf(const std::string& version) const = 0;
  virtual bool isStorage(const std::string& version) const = 0;
  // `object` with the structural defaults of its own version (unchanged with --raw-objects).
  virtual nlohmann::json defaulted(nlohmann::json object) const = 0;
  virtual bool rawObjects() const = 0;
};

// Violations of the target version's schema for one object ("spec.port: does not match …").
using TargetValidator = std::function<std::vector<std::string>(const nlohmann::json& object)>;

struct Property {
  std::string_view id;         // stable: JUnit, JSON, --properties, .convcheck.yaml
  std::string_view holdsWhen;  // SPEC §4 wording, shown in reports and `convcheck properties`
  PropertyScope scope;
  std::string_view calls;  // the webhook calls it adds to a case, in words
  // Of a failure that shows no differing value, no rejection and no cause in its details.
  Severity severity = Severity::DataLoss;
  // Its findings are about metadata: every value they show differing is cosmetic.
  bool aboutMetadata = false;
  // Its calls include converting the forward answer back (the case's Backward part), so a failure
  // found on a backward call is only reproduced with it.
  bool convertsBack = false;
  // About answer times: reports show the latency per version pair next to it.
  bool aboutLatency = false;
  // Judges content the case draws for itself (an edit: a freshly generated object), which
  // shrinking the case's objects does not make smaller: its failures on a shrunk case are no
  // evidence of what that case's objects meet.
  bool drawsOwnContent = false;
  // Adds the causes that a failing finding's details name (pruned paths, schema violations),
  // their paths normalised with the versions' schemas.
  void (*causesInDetails)(const Finding&, const SchemaLookup&, std::vector<Cause>&) = nullptr;
  // Exactly the one of these that matches `scope` is set (none for Release: engine/upgrade judges).
  CheckResult (*judgeExchange)(const ExchangeView&) = nullptr;
  CheckResult (*judgeOutput)(const ExchangeRef&, const CaseContext&,
                             const TargetValidator&) = nullptr;
  void (*runCase)(CaseCalls&) = nullptr;
  CheckResult (*judgeEndpoint)(const TlsEvidence&) = nullptr;
};

}  // namespace convcheck
