// The results of one convcheck run: per kind, per (from, to, property) tallies with findings.
// Filled by the runner (engine/run); read by the console, JUnit and JSON reports only.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kube/crd/crd.h"
#include "properties/checks/finding.h"
#include "reports/run_coverage.h"

namespace convcheck {

// A cause acknowledged in the config file, with the number of cases that showed it.
struct AcknowledgedTally {
  AcknowledgedCause ack;
  int cases = 0;
};

struct PropertyTally {
  std::string property;
  std::string from;  // empty for properties not tied to a version pair (tls)
  std::string to;
  int passed = 0;
  int failed = 0;
  int blocked = 0;
  // One example per cause (Finding::cause, Finding::cases), most severe first, then first found.
  std::vector<Finding> findings;
  std::string blockedBy;           // first reason a case could not be judged
  bool warningOnly = false;        // a version no object can be in is involved (version_roles.h)
  std::string warningReason = {};  // why, when warningOnly
  int moreCauses = 0;              // causes seen beyond those with an example
  std::vector<AcknowledgedTally> acknowledged = {};  // never dropped silently
};

// One (property, version pair) a problem breaks, with its failing cases there.
struct ProblemSite {
  std::string property;
  std::string from;  // empty for properties not tied to a version pair (tls)
  std::string to;
  int cases = 0;
  bool warningOnly = false;  // a version no request reaches is involved (version_roles.h)
};

// One defect of the webhook, the unit every report lists: the causes of every (property, pair)
// that share one identity, with one counterexample, shrunk once for the whole problem.
struct Problem {
  std::string id;   // "P1", "P2", ... in report order; the same for the same seed, CRD and webhook
  std::string key;  // identity: "lost|spec.plugins[*].name", "rejected|http-status|<masked msg>"
  Severity severity = Severity::DataLoss;
  std::string title;               // one line: what a user of the cluster sees, with an example
  std::vector<ProblemSite> sites;  // catalogue order, then from/to
  int cases = 0;                   // failing cases over every site
  bool warningOnly = false;        // every site only warns
  std::string warningReason = {};  // why, when warningOnly
  Finding example;                 // the counterexample (shrunk when example.shrink is set)
  // The other symptoms of the same defect: identities whose shrunk counterexamples show each
  // other (engine/run/tally.h), with their titles; empty when the problem has one symptom.
  std::vector<std::string> symptomKeys = {};
  std::vector<std::string> symptoms = {};
};

struct LatencyStats {
  std::string from, to;
  std::string batchSizes;  // "1", "2-8", "9-32", ...
  int samples = 0;
  double p50Ms = 0, p95Ms = 0, p99Ms = 0, maxMs = 0;
};

struct KindReport {
  std::string crdName;
  std::string kind;
  std::string group;
  std::string source;  // "file, document N"
  std::string url;
  std::string reviewVersion;  // "v1" or "v1beta1"
  std::vector<std::string> versions;
  std::string storageVersion;
  std::vector<std::string> storedVersions;
  std::vector<std::string> notServed;
  std::map<std::string, std::string> warningVersions;  // version -> why its findings only warn
  // version -> its roles and whether its conversions count, e.g. "served, storage: counts as
  // source and target"; said in every report's header
  std::map<std::string, std::string> versionRoles = {};
  std::vector<PropertyTally> tallies;
  std::vector<Problem> problems;  // most severe first, then most cases, then first found
  std::vector<LatencyStats> latency;
  std::vector<std::string> notes;  // honest notes: CEL not evaluated, approximations, stops
  int requests = 0;
  int objectsSent = 0;
  double seconds = 0;  // wall time of this kind's run
  Crd crd;             // the CRD as tested (reproduction bundles carry a copy)
  int order = 0;       // its place among the run's kinds (shards of a run merge in this order)
  KindCoverage coverage = {};  // what the cases sent exercised (engine/run/sent_coverage)
};

// How the job reached the webhook its requests went to, so that a bundle can say how to reach it
// again (replay): a URL stays valid; a webhook convcheck started, kubectl's local ends and an
// in-process target are gone with the job.
struct WebhookReach {
  enum class How {
    Url,           // --url or the CRD's clientConfig.url
    Command,       // a webhook convcheck started (-- COMMAND)
    ServiceProxy,  // the API server's service proxy (--service-proxy)
    PortForward,   // kubectl port-forward to the service (--port-forward)
    InProcess,     // converted in this process (a conversion function): nothing to send to
  };
  How how = How::Url;
  std::vector<std::string> command = {};  // Command: the command as given after --
  bool portOfCommand = false;             // Command: the URL names the port convcheck chose for it
};

struct RunReport {
  std::string version;  // convcheck version
  std::uint64_t seed = 0;
  std::string command;             // the reproduction command line
  bool rawObjects = false;         // --raw-objects: what shaped the cases (bundles record it)
  bool canonicalDateTimes = true;  // --date-times canonical
  std::vector<KindReport> kinds;
  std::vector<std::string> warnings;
  std::string fatalError;  // set when the run could not test at all
  bool interrupted = false;
  int exitCode = 0;
  std::string startedAt;  // RFC 3339 UTC, when the run started
  WebhookReach reach;     // how the webhook was reached
  double seconds = 0;
  // --shard I/N: this run is shard shardIndex + 1 of shardCount and ran shardPairs of the whole
  // run's runPairs (kind, version pair)s.
  int shardIndex = 0;
  int shardCount = 1;
  int shardPairs = 0;
  int runPairs = 0;

  int failedProperties() const {
    int n = 0;
    for (const auto& k : kinds)
      for (const auto& t : k.tallies)
        if (t.failed > 0 && !t.warningOnly) ++n;
    return n;
  }
};

}  // namespace convcheck
