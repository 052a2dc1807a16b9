// Runs one test case (a batch of objects converted to one version) against the live webhook and
// judges every property on it. Used by the runner, and by shrinking, replay and minimize, which
// re-check a property on a changed batch.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/transport/converter.h"
#include "kube/apiserver/group_version.h"
#include "kube/crd/crd.h"
#include "properties/checks/cause.h"
#include "properties/checks/check_result.h"
#include "properties/config/ack_config.h"

namespace convcheck {

struct CaseResult {
  std::vector<CheckResult> forward;     // single-exchange properties of from -> to
  std::vector<CheckResult> backward;    // single-exchange properties of each to -> source call
  std::string backwardFrom;             // = the case's `to` (the pair the backward results are for)
  std::vector<std::string> backwardTo;  // source version of each backward exchange
  std::vector<CheckResult> composite;   // Output- and Case-scope properties of the registry
  // The case's first call (the forward conversion), for the runner and the shrinker. The calls a
  // finding needs travel in the finding, so a case of large objects does not hold each batch
  // once more per call.
  ExchangeRef forwardCall;
  int callCount = 0;  // calls made
  // What those calls sent: objects and request body bytes (the run's coverage counts them).
  std::int64_t objectsSent = 0, bytesSent = 0;
  int calls() const { return callCount; }
  // The result for `property` of the forward pair, or nullptr.
  const CheckResult* find(const std::string& property) const;
};

// How a CaseExecutor judges: the kind's rules (KindContext::caseSettings gives them) and the
// caller's hooks. One value, set once when the executor is made.
struct CaseSettings {
  // Schema violations of an object at a version (for schema-valid); unset = not evaluable.
  using Validator =
      std::function<std::vector<std::string>(const nlohmann::json&, const std::string& version)>;
  // A schema-valid edit of `object` at its version, keeping its metadata (for edit-round-trip);
  // unset = not evaluable.
  using Editor = std::function<std::optional<nlohmann::json>(
      const nlohmann::json& object, const std::string& version, std::uint64_t seed)>;
  // Whether every one of `causes` of a failure of `property` on (from, to) already has its
  // example from an earlier case (the runner's tally). Such a finding is only counted, so it
  // drops its exchanges and objects as soon as it is made, before the case's next calls: a case
  // of large objects failing the way earlier ones did then holds no batch once more per failure.
  using KnownCauses = std::function<bool(const std::string& property, const std::string& from,
                                         const std::string& to, const std::vector<Cause>& causes)>;

  std::chrono::milliseconds timeout{30000};  // the transport's, which the timeout property judges
  // Which properties are wanted (Case-scope ones cost extra calls); unset = every one.
  std::function<bool(const std::string&)> wants;
  // Sees every exchange as it completes (for counting, latency and circuit breaking); may be unset.
  std::function<void(const Exchange&)> onCall;
  Validator validate;
  Editor edit;
  // Versions that transitivity may go through (every tested version of the kind).
  std::vector<std::string> versions;
  // Objects are sent as kube-apiserver sends them: with the structural defaults of their own
  // version applied (reads apply the stored version's defaults, writes the request version's).
  // True sends them exactly as given (--raw-objects).
  bool rawObjects = false;
  // Differences the webhook's authors declared intentional (.convcheck.yaml); may be null.
  const AckConfig* acks = nullptr;
  KnownCauses knownCauses;  // unset = no cause is known
};

class CaseExecutor {
 public:
  CaseExecutor(const Crd& crd, Converter& converter, CaseSettings settings);

  // `batch` objects carry apiVersion (their source version); none may be in `to`.
  // `from` names the pair in results (normally the first object's version). `seed` makes the
  // request uids deterministic. The batch is taken by value: the forward call keeps it, so pass
  // it with std::move when the caller has no further use for it. With BatchCut::ToCap the forward
  // call may send only the first objects (Converter::setBatchCap), and the case is of those.
  CaseResult run(std::vector<nlohmann::json> batch, const std::string& from, const std::string& to,
                 std::uint64_t seed, BatchCut cut = BatchCut::Whole);

  // Stop making further calls in the current and later cases (circuit breaker).
  void halt() { halted_ = true; }

 private:
  friend class CaseScope;  // what Case-scope properties see of a case (case_executor.cpp)
  CaseResult runChecks(std::vector<nlohmann::json> batch, const std::string& from,
                       const std::string& to, std::uint64_t seed, BatchCut cut);
  // Sends `objects` as they are (the callers apply the defaults).
  // `texts`: the case's batch as the forward call encoded it (see EncodedObjects).
  ExchangeRef send(SharedObjects objects, const std::string& to, std::mt19937_64& uids,
                   CaseResult& result, EncodedObjects& texts, BatchCut cut = BatchCut::Whole);

  bool wants(const std::string& property) const { return !s_.wants || s_.wants(property); }

  const Crd& crd_;
  Converter& converter_;
  const CaseSettings s_;
  std::atomic<bool> halted_{false};  // set by the circuit breaker from other threads
  // Gives a failing result its causes and, when they are all known (CaseSettings::knownCauses),
  // drops the finding's exchanges, objects and diff. `from`/`to` are the pair the result is tallied
  // under.
  void settle(CheckResult& r, const std::string& from, const std::string& to) const;
  // Moves the acknowledged causes of a failing result to r.acknowledged; passes it when none is
  // left. `from`/`to` are the pair the result is tallied under.
  void acknowledge(CheckResult& r, const std::string& from, const std::string& to) const;
  // `object` with its own version's structural defaults (unchanged when raw_).
  nlohmann::json defaulted(nlohmann::json object) const;
  // `objects` with their structural defaults: the same shared objects when none needs one (a
  // batch sent again, or a call's answer sent on, is then not copied).
  SharedObjects defaulted(SharedObjects objects) const;
};

}  // namespace convcheck
