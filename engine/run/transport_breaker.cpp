#include "engine/run/transport_breaker.h"

namespace convcheck {

void TransportBreaker::answered(const Exchange& exchange) {
  failuresInARow_ = 0;
  if (exchange.verdict.accepted() && exchange.sent.objects.size() == 1) lastGood_ = exchange.sent;
}

TransportBreaker::Decision TransportBreaker::failed() {
  if (++failuresInARow_ < maxFailuresInARow_) return Decision::Continue;
  // Does the webhook still convert an object it converted before? Then it fails on some inputs
  // (a crash on a field, say) and testing goes on with the others.
  if (!lastGood_ || probes_ >= kMaxProbes) return Decision::Stop;
  ++probes_;
  if (!probe_(*lastGood_).verdict.accepted()) return Decision::Stop;
  failuresInARow_ = 0;
  return probes_ == 1 ? Decision::StillAnswers : Decision::Continue;
}

}  // namespace convcheck
