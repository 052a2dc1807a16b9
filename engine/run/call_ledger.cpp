#include "engine/run/call_ledger.h"

#include <fmt/format.h>

#include "harness/transport/call_failure.h"
#include "kube/apiserver/group_version.h"

namespace convcheck {

using nlohmann::json;

CallLedger::CallLedger(int maxFailuresInARow, Connections& connections, Hooks hooks)
    : connections_(connections),
      hooks_(std::move(hooks)),
      breaker_(maxFailuresInARow, [this](const SentReview& sent) { return probe(sent); }) {}

void CallLedger::record(const Exchange& ex) {
  MutexLock lock(mutex_);
  countLocked(ex);
  if (ex.http.ok()) {
    reachable_ = true;
    breaker_.answered(ex);
    if (hooks_.answered) hooks_.answered(ex);
    return;
  }
  // A webhook that took the call and then answered too late, too much or not in HTTP was
  // tested (its answer is a finding); a call that reached nothing means, while no call was
  // answered, that nothing could be tested (call_failure.h).
  const bool tookTheCall = webhookTookTheCall(ex.http.transportErrorKind);
  if (!reachable_ && unreachableReason_.empty() && !tookTheCall)
    unreachableReason_ = ex.http.transportError;
  if (tookTheCall) reachable_ = true;
  if (stopped_) return;
  switch (breaker_.failed()) {
    case TransportBreaker::Decision::Continue:
      return;
    case TransportBreaker::Decision::StillAnswers:
      notes_.push_back(
          "the webhook failed several calls in a row at the transport level (a crash on some "
          "inputs?) but still converts objects it converted before: testing went on");
      return;
    case TransportBreaker::Decision::Stop:
      break;
  }
  stopped_ = true;
  stoppedByTransport_ = true;
  if (hooks_.halt) hooks_.halt();
  notes_.push_back(
      fmt::format("stopped after {} consecutive failed calls: the webhook is not answering ({})",
                  breaker_.failuresInARow(), ex.http.transportError));
}

void CallLedger::count(const Exchange& ex) {
  MutexLock lock(mutex_);
  countLocked(ex);
}

void CallLedger::countLocked(const Exchange& ex) {
  ++requests_;
  objectsSent_ += static_cast<int>(ex.sent.objects.size());
}

Exchange CallLedger::probe(const SentReview& sent) {
  mutex_.assertHeld();  // the breaker probes inside record()
  if (!probeConverter_) probeConverter_ = connections_.open();
  Exchange probe = probeConverter_->convert(
      sent.objects, objectVersion(json{{"apiVersion", sent.desiredApiVersion}}), probeUids_);
  countLocked(probe);
  return probe;
}

void CallLedger::stop(std::string note) {
  stopped_ = true;
  MutexLock lock(mutex_);  // shrinks may be adding notes
  notes_.push_back(std::move(note));
}

void CallLedger::interrupt() {
  interrupted_ = true;
  stop("interrupted: results cover the cases run so far");
}

bool CallLedger::reachable() const {
  MutexLock lock(mutex_);
  return reachable_;
}

std::string CallLedger::unreachableReason() const {
  MutexLock lock(mutex_);
  return unreachableReason_;
}

int CallLedger::requests() const {
  MutexLock lock(mutex_);
  return requests_;
}

void CallLedger::fill(KindReport& report) const {
  MutexLock lock(mutex_);
  report.requests += requests_;
  report.objectsSent += objectsSent_;
  for (const auto& note : notes_) report.notes.push_back(note);
}

}  // namespace convcheck
