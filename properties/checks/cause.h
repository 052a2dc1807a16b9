// Why a property failed, coarse enough that the failing cases of one bug share it and fine enough
// that two bugs do not: the key findings are grouped by, what shrinking preserves, and the
// headline reports print per group. Produced by cause_analysis; read by shrink/ and reports/.
#pragma once

#include <string>

namespace convcheck {

// Most severe first: reports order causes by it.
enum class Severity {
  Outage = 0,    // kube-apiserver rejects the answer: reads and writes at the version fail
  DataLoss = 1,  // a value a client wrote is lost or changed
  Invented = 2,  // the webhook adds data (or invalid data) the client never wrote
  Cosmetic = 3,  // labels, annotations, reverted metadata, envelope details the API server ignores
};

const char* severityName(Severity severity);  // "outage", "data loss", "invented data", "cosmetic"

struct Cause {
  std::string key;  // stable: "round-trip|lost|spec.ports[*].name", "round-trip|float64", ...
  Severity severity = Severity::DataLoss;
  std::string title;  // one line naming the cause with an example value
  std::string path;   // the normalised path it is about ("spec.ports[*].name"); "" for stages
  bool operator==(const Cause& other) const { return key == other.key; }
};

// A cause the webhook's authors declared intentional (.convcheck.yaml): not a failure, but listed.
struct AcknowledgedCause {
  Cause cause;
  std::string reason;  // from the config file
  std::string where;   // ".convcheck.yaml: acknowledge[2]"
};

}  // namespace convcheck
