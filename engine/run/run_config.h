// Everything a `convcheck run` needs, parsed from the command line once and passed down by value.
// Built by app/cli (or set by the engine's users); read by the engine's modes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/events.h"
#include "harness/cluster/kubectl.h"
#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"
#include "properties/config/ack_config.h"

namespace convcheck {

struct RunConfig {
  std::string crdInput;            // file, directory, "-" or kube://NAME (read from the cluster)
  ClusterAccess cluster;           // --kubeconfig, --context: kubectl's cluster
  int clusterObjects = 0;          // --cluster-objects: stored objects read per served version
  bool serviceProxy = false;       // --service-proxy: a service webhook through the API server
  std::vector<std::string> kinds;  // --kind filter; empty = every CRD with strategy Webhook
  std::string url;                 // --url; empty = the CRD's clientConfig.url
  TransportOptions transport;      // TLS, timeout, http2, caps
  std::optional<ReviewVersion> reviewVersion;  // --review-version override
  std::uint64_t seed = 0;
  int testsPerPair = 100;   // --tests
  bool testsGiven = false;  // --tests was given (with --duration: a cap, else unbounded)
  // --duration: the whole run's time budget (engine/run/run_budget.h), spread over kinds and pairs
  std::optional<std::chrono::milliseconds> duration;
  // When the run began (runJob sets it): --duration counts from it, so loading the CRDs and
  // starting the webhook spend it too. Unset: from when the first kind starts.
  std::optional<std::chrono::steady_clock::time_point> started;
  int jobs = 32;  // --jobs: requests in flight at once
  // JSON values in the batches of the cases in flight up to which cases beyond --jobs may start
  // (as many as in 128 objects of 500 values); each value costs about 100 bytes per copy and a
  // case holds several copies. Not a flag: tests set it to see the runner with and without.
  std::size_t pipelinedValues = 64000;
  // JSON values in the batches of all cases in flight up to which another case may start (one
  // case always may): a few cases of large objects run one after another instead of side by side,
  // so a run's memory follows its largest case, not --jobs times it. Not a flag, as above.
  std::size_t valuesInFlight = 100000;
  int maxBatchSize = 500;               // --batch-size (a LIST chunk: kListChunkObjects)
  std::vector<std::string> properties;  // --properties; empty = all
  std::string configPath;               // --config, or ./.convcheck.yaml when present
  std::optional<AckConfig> acks;        // the acknowledged differences it declares
  bool rawObjects = false;         // --raw-objects: do not apply schema defaults before sending
  bool canonicalDateTimes = true;  // --date-times canonical (default) or any (see FormatOptions)
  std::map<std::string, std::string> reportPaths;  // report format id (--junit …) -> file
  std::string reportDir;
  int shrinkBudget = 200;  // --shrink-budget: webhook calls per shrunk failure
  std::string corpusDir;   // --corpus: samples and regression cases (harness/corpus)
  int maxConsecutiveTransportFailures = 5;
  std::string commandLine;  // for the reproduction line in reports
  bool verbose = false;
  // What the job tells as it goes (engine/api/events.h): each judged case (the CLI's progress and
  // status lines), problems, shrinks and notes; may be empty. The run waits for it.
  EventSink events;
  // --max-failures: no case starts once this many cases failed (0: no limit), and the cases judged
  // after that one are dropped, so the report is the same for a seed whatever the timing.
  int maxFailingCases = 0;
  // --shard I/N (shardIndex = I - 1): the run's (kind, version pair)s in run order are dealt out
  // to N shards, the u-th to shard u mod N; this run runs shard shardIndex's. 1 = the whole run.
  int shardIndex = 0;
  int shardCount = 1;
  // --port-forward: a service webhook through `kubectl port-forward` to its Service, which has
  // --wait (portForwardWait; 0: kPortForwardWait) to start forwarding.
  bool portForward = false;
  std::chrono::milliseconds portForwardWait{0};
  // Set (by the CLI's signal watcher) to stop after the cases in flight; may be null.
  const std::atomic<bool>* stopRequested = nullptr;
};

}  // namespace convcheck
