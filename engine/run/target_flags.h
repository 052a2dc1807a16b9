// How to reach the webhook as the user gave it (--url, --ca-file, --cert, --key,
// --insecure-skip-tls-verify, --tls-server-name, --timeout, --wait), each unset field left to the
// CRD or the bundle, and how it is applied to the transport. Declared by the commands (app/),
// applied by them and by replay (over the bundle's transport).
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "harness/transport/transport_options.h"

namespace convcheck {

// As given on the command line ("" and false: not given).
struct TargetFlags {
  std::string url, caFile, cert, key, tlsServerName, timeout;
  std::string wait;  // --wait: how long to wait for the webhook to answer before testing
  bool insecureSkipTlsVerify = false;
  // The options of target kinds named by an option of their own (target_kinds.h), by option:
  // e.g. "--conversion" -> "rules.yaml"; "" when not given.
  std::map<std::string, std::string> kindOptions = {};
};

// The target the flags name: --url, or a kind's own option's value behind its scheme ("": none).
std::string targetUrl(const TargetFlags& flags);

// Overrides in `transport` what `flags` gives; returns an error ("" when none): a --url (or a
// kind's own option) that is not a target convcheck can reach, two of them, a --ca-file, --cert or
// --key that cannot be read, a timeout that is not a positive duration, or --cert without --key (or
// the reverse) once applied.
std::string applyTargetFlags(const TargetFlags& flags, TransportOptions& transport);

// --wait read into `wait` (0 when not given); returns an error or "".
std::string readWait(const TargetFlags& flags, std::chrono::milliseconds& wait);

// The usage error when --service-proxy or --port-forward is given with another way to reach the
// webhook (--url, -- COMMAND, the other of the two), else "".
std::string oneWayToReach(bool url, bool command, bool serviceProxy, bool portForward);

}  // namespace convcheck
