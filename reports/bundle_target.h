// Where and how a reproduction bundle's requests go: the webhook URL and the transport settings
// convcheck used (CA, client certificate, server name, timeout, review version, headers), and the
// `curl` line that sends one request file the same way. Used by the bundle writer and replay.
#pragma once

#include <optional>
#include <string>

#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"
#include "reports/run_report.h"
#include "reports/shell_words.h"  // curlCommand's words

namespace convcheck {

struct BundleTarget {
  std::string url;
  std::string reviewVersion;  // "v1" or "v1beta1"
  TransportOptions transport;
};

// The target a kind was tested against: the run's transport options completed by webhookTls
// (the CRD's caBundle, <service>.<namespace>.svc), as the runner's target resolution does.
BundleTarget bundleTargetFor(const KindReport& kind, const TransportOptions& runTransport,
                             bool urlGiven);

// A shell-quoted curl command that POSTs `requestFile` exactly as convcheck does: same headers
// (Content-Type, Accept, User-Agent, no Expect, Accept-Encoding: gzip), HTTP/1.1 unless http2, the
// URL with ?timeout=, --cacert/--cert/--key (or -k), --connect-to for a server name, --max-time.
// `caFile` overrides transport.tls.caFile (e.g. a ca.pem written next to the bundle). "" for a
// target that is not an http(s) URL (converted in this process: there is nothing to re-send).
std::string curlCommand(const BundleTarget& target, const std::string& requestFile,
                        const std::string& caFile);

// How a bundle names the way the webhook was reached: "url", "command", "service-proxy",
// "port-forward", "in-process"; and back (none: a name it does not know).
const char* webhookReachName(WebhookReach::How how);
std::optional<WebhookReach::How> webhookReachFromName(const std::string& name);

// The `convcheck replay` line for the bundle in `dir` that reaches the webhook as the run did: the
// bundle's URL, the webhook started again after -- (the run's command, each word shell-quoted),
// --service-proxy or --port-forward; for an in-process target, a --url still to fill in.
std::string replayCommand(const std::string& dir, const WebhookReach& reach);

}  // namespace convcheck
