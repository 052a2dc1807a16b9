// Why a property failed, coarse enough that the failing cases of one bug share it and fine enough
// that two bugs do not: the key findings are grouped by, what shrinking preserves, and the
// headline reports print per group. Produced by cause_analysis; read by shrink/ and reports/.
#pragma once

#include <string>

namespace convcheck {

// Most severe first: reports order causes and problems by it. Data loss ranks first because it
// is silent and permanent; an outage is loud and ends when the webhook is fixed. Invented data
// (fields the client never wrote, or values its schema forbids) ranks after rejections: nothing
// is lost and no request fails, but clients see, and typed clients may refuse, what nobody wrote.
enum class Severity {
  DataLoss = 0,  // a value a client wrote is lost or changed
  Outage = 1,    // the API server fails the whole read/write: webhook down, envelope broken,
                 // answers it cannot use, or a rejection of every object
  Rejected = 2,  // the webhook answers Failure (or crashes) on some valid inputs
  Invented = 3,  // the webhook adds data (or invalid data) the client never wrote
  Cosmetic = 4,  // labels, annotations, reverted metadata, envelope details the API server ignores
};

// "data loss", "outage", "rejected", "invented data", "cosmetic"
const char* severityName(Severity severity);

struct Cause {
  std::string key;  // stable: "round-trip|lost|spec.ports[*].name", "round-trip|float64", ...
  Severity severity = Severity::DataLoss;
  std::string title;      // one line naming the cause with an example value
  std::string path = {};  // the normalised path it is about ("spec.ports[*].name"); "" for stages
  // The defect it shows, the same under every property and version pair (problem_identity.h):
  // "lost|spec.ports[*].name", "rejected|result-status|<masked message>", "float64".
  std::string problem = {};
  bool lostZero = false;  // a lost "", 0 or false (what `if (value)` copies drop)
  bool operator==(const Cause& other) const { return key == other.key; }
};

// A cause the webhook's authors declared intentional (.convcheck.yaml): not a failure, but listed.
struct AcknowledgedCause {
  Cause cause;
  std::string reason;  // from the config file
  std::string where;   // ".convcheck.yaml: acknowledge[2]"
};

}  // namespace convcheck
