// The options several commands take (--crd, --kind, the webhook target, --wait, --review-version,
// --date-times, --shrink-budget, --seed, --http2, --raw-objects, --properties, the report files,
// --color), each declared once with its help text, and read once. Used by each command's file.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/run/target_flags.h"
#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace convcheck {

struct ClusterAccess;
struct AckConfig;
struct RunConfig;

// Where a command takes what a target option leaves unset: the CRD and kube-apiserver's defaults
// (run, minimize) or the reproduction bundle (replay). Only the help's "default:" differs.
enum class TargetDefaults { Crd, Bundle };

// --crd (required, also -f): the CRD manifest.
void declareCrdOption(CLI::App& app, std::string& crd);

// --kubeconfig and --context: the cluster kubectl reads from (kube://NAME CRDs, stored objects).
void declareClusterOptions(CLI::App& app, ClusterAccess& cluster);

// --service-proxy: a service-reference webhook through the API server's service proxy.
void declareServiceProxyOption(CLI::App& app, bool& serviceProxy);

// --port-forward: a service-reference webhook through `kubectl port-forward` to its Service.
void declarePortForwardOption(CLI::App& app, bool& portForward);

// --kind: the CRD to use when the input holds several (generate, minimize; run's --kind is a
// filter of several kinds, declared with run's options).
void declareKindOption(CLI::App& app, std::string& kind);

// --url, --ca-file, --cert, --key, --insecure-skip-tls-verify, --tls-server-name.
void declareTargetOptions(CLI::App& app, TargetFlags& flags, TargetDefaults defaults);

// The options of target kinds named by an option of their own (target_kinds.cpp's table), e.g.
// --conversion FILE: kcp's APIConversion rules convert in this process (no webhook, no network).
void declareTargetKindOptions(CLI::App& app, TargetFlags& flags);

// --timeout (TransportOptions' 30s by default unless the defaults come from a bundle).
void declareTimeoutOption(CLI::App& app, TargetFlags& flags, TargetDefaults defaults);

// --wait: how long the first call waits for a webhook that is still starting.
void declareWaitOption(CLI::App& app, TargetFlags& flags);

// --review-version: v1 or v1beta1, "" for as kube-apiserver picks.
void declareReviewVersionOption(CLI::App& app, std::string& reviewVersion);

// --date-times: canonical or any.
void declareDateTimesOption(CLI::App& app, std::string& dateTimes);

// --http2: allow HTTP/2.
void declareHttp2Option(CLI::App& app, bool& http2);
// --raw-objects: objects sent without their schema defaults.
void declareRawObjectsOption(CLI::App& app, bool& rawObjects);
// --shrink-budget; `budget` holds the command's default.
void declareShrinkBudgetOption(CLI::App& app, int& budget);

// --properties: comma-separated property ids (read with readPropertyIds).
void declarePropertiesOption(CLI::App& app, std::string& properties);
// The ids of --properties into `into`; returns an error naming an unknown id, or "".
std::string readPropertyIds(const std::string& text, std::vector<std::string>& into);
// --junit, --json, --summary … (one per report format) into `paths`, and --report-dir.
void declareReportOptions(CLI::App& app, std::map<std::string, std::string>& paths,
                          std::string& reportDir, const std::string& reportDirHelp = "");
// COMMAND after --: the webhook to start for the command's run.
void declareWebhookCommandOption(CLI::App& app, std::vector<std::string>& command);
// --color: auto, always or never.
void declareColourOption(CLI::App& app, std::string& colour);

// --seed: a whole number from 0 to 2^64-1 (a sign or anything larger is a usage error); returns
// the option for the command's default and help.
CLI::Option* declareSeedOption(CLI::App& app, std::uint64_t& seed, const std::string& help);

// `-- COMMAND` checked against the arguments (`args`, as given): words CLI11 took as the command
// without a -- before them, or a -- with nothing after it, are usage errors. Returns one or "".
std::string checkWebhookCommand(const std::vector<std::string>& command,
                                const std::vector<std::string>& args);

// How run and fuzz reach the webhook: `-- COMMAND` checked against the arguments (`args`, as
// given), one of --url, -- COMMAND, --service-proxy, --port-forward and --conversion at most (c.url
// names the APIConversion's kcp target; engine/run/kcp_run.h reads it), c.url and the
// target flags applied to c.transport (a started webhook's --url may name {port}), --wait read
// into `wait`. Returns an error or "".
std::string readWebhookTarget(const TargetFlags& flags, const std::vector<std::string>& command,
                              const std::vector<std::string>& args, RunConfig& c,
                              std::chrono::milliseconds& wait);

// A random run seed (when --seed is not given).
std::uint64_t randomSeed();

// The command line that reproduces a run: "convcheck", `args` (as given) and what the config file
// or the environment gave (`fromConfigFile`, see applyConfigFile; --shard from a Job's index) with
// --seed `seed` added before any -- when none of them names one, each argument quoted for a POSIX
// shell when it needs it.
std::string reproductionCommand(const std::vector<std::string>& args,
                                const std::vector<std::string>& fromConfigFile, std::uint64_t seed);

// --tests (default 100): test cases per ordered version pair; returns the option.
CLI::Option* declareTestsOption(CLI::App& app, int& tests);

// --cluster-objects N (default 0): stored objects read from the cluster, tested before any other.
void declareClusterObjectsOption(CLI::App& app, int& objects);

// --max-response-size (default: TransportOptions' cap): the largest webhook answer read.
void declareMaxResponseSizeOption(CLI::App& app, std::string& size);

// Sets transport.maxResponseBytes from --max-response-size's text ("64MiB", "200KiB", bytes; ""
// leaves it); returns an error or "".
std::string readMaxResponseSize(const std::string& text, TransportOptions& transport);

// Reads --review-version into `version` ("" leaves it unset); returns an error or "".
std::string readReviewVersion(const std::string& text, std::optional<ReviewVersion>& version);

// Reads the config file (`configPath`, else ./.convcheck.yaml when there is one, which then
// becomes `configPath`) into `acks`, and gives each option of its `section` map ("run", "fuzz",
// "upgrade", "diff") that the command line leaves unset the file's value. `applied` receives what
// a reproduction of the run must add to its command line: each value given from the file as
// --name=value, after --config FILE when the file was found rather than named. Returns an error
// naming the file and the option, or "".
std::string applyConfigFile(CLI::App& command, const std::string& section, std::string& configPath,
                            std::optional<AckConfig>& acks, std::vector<std::string>& applied);

}  // namespace convcheck
