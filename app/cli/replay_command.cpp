// `convcheck replay BUNDLE [-- COMMAND]`: re-runs exactly the case of a reproduction bundle (same
// objects, target version, seed and property) through the engine's replay mode, against the
// bundle's webhook, --url's, or the webhook COMMAND starts, and says whether it still fails. Exit 1
// still fails, 0 now passes, 2 unreadable bundle or bad flags, 3 webhook unreachable. Listed in
// command_table.cpp.
#include <memory>
#include <optional>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/shared_options.h"
#include "engine/engine.h"
#include "engine/upgrade/release_replay.h"
#include "properties/checks/cause.h"
#include "reports/bundle_reader.h"
#include "shrink/failure_target.h"

namespace convcheck {

namespace {

struct ReplayFlags {
  ReplayMode mode;        // the bundle; target flags' unset fields: the bundle's
  ClusterAccess cluster;  // --kubeconfig, --context (for --service-proxy, --port-forward)
  bool serviceProxy = false;
  bool portForward = false;
  std::vector<std::string> command;  // after --: the webhook to start for the replay
  std::string release;  // --release: a bundle of two releases replayed against the old or new
};

// A bundle of convcheck upgrade or diff goes to the upgrade engine's replay (either release);
// returns its exit code, or nothing for a bundle of a run (and no --release).
std::optional<int> replayRelease(const ReplayFlags& f, const CommandContext& c) {
  auto read = readBundle(f.mode.bundle);
  if (std::holds_alternative<std::string>(read)) return std::nullopt;  // the engine says why
  const Bundle& b = std::get<Bundle>(read);
  if (isReleaseBundle(b.dir)) {
    const TargetFlags& t = f.mode.target;
    return replayReleaseBundle(b, {f.release, t.url, t.caFile, t.tlsServerName}, c.out, c.err);
  }
  if (f.release.empty()) return std::nullopt;
  c.err << fmt::format("convcheck: --release: {} is not a bundle of upgrade or diff\n", b.dir);
  return 2;
}

// How the case fared, as the bundle says it failed.
int printOutcome(const ReplayOutcome& r, int exitCode, std::ostream& out) {
  out << fmt::format("replaying {}: {} {} -> {}, {} object(s), against {}\n", r.bundle, r.property,
                     r.from, r.to, r.objects, r.url);
  if (exitCode == 0) {
    out << fmt::format("passes now: {} holds for this case\n", r.property);
  } else if (r.result && r.result->outcome == Outcome::Fail && r.result->finding) {
    const Finding& finding = *r.result->finding;
    const std::string how = failureSignature(finding);
    out << fmt::format("still fails{}: {}\n",
                       r.failure.empty() || how == r.failure
                           ? ""
                           : fmt::format(" (differently: {} instead of {})", how, r.failure),
                       finding.summary);
    bool sameCause = r.cause.empty();
    for (const auto& c : finding.causes) {
      sameCause |= c.key == r.cause;
      out << fmt::format("  cause: {}: {}\n", severityName(c.severity), c.title);
    }
    if (!sameCause)
      out << fmt::format("  (the bundle's cause {} is gone; the causes above are new)\n", r.cause);
    if (!finding.apiserverMessage.empty())
      out << "kube-apiserver rejects this: " << finding.apiserverMessage << "\n";
    for (const auto& d : finding.details) out << "  " << d << "\n";
  } else {
    out << fmt::format("still fails: {} cannot be judged on this case ({})\n", r.property,
                       r.result ? r.result->blockedBy : "no result");
    for (const auto& t : r.others)
      out << fmt::format("  {} fails ({} {} -> {})\n", t.property, casePartName(t.part), t.from,
                         t.to);
  }
  return exitCode;
}

int runReplay(const ReplayFlags& f, const CommandContext& c) {
  if (auto error = checkWebhookCommand(f.command, c.args); !error.empty())
    return usageError(c.err, error);
  if (auto exitCode = replayRelease(f, c)) return *exitCode;
  EngineOptions options;
  options.access.command = f.command;
  options.mode = f.mode;
  options.config.cluster = f.cluster;
  options.config.serviceProxy = f.serviceProxy;
  options.config.portForward = f.portForward;
  if (auto error = readWait(f.mode.target, options.access.wait); !error.empty())
    return usageError(c.err, error);
  options.config.portForwardWait = options.access.wait;
  options.version = c.version;
  const Verdict verdict = execute(options);
  if (verdict.replay) printOutcome(*verdict.replay, verdict.exitCode, c.out);
  for (const auto& error : verdict.errors) c.err << "convcheck: " << error << "\n";
  return verdict.exitCode;
}

// Declares the options on `sub`; the returned action reads what they receive.
Execute declareReplayOptions(CLI::App& sub) {
  auto f = std::make_shared<ReplayFlags>();
  sub.add_option("BUNDLE", f->mode.bundle, "Bundle directory (from --report-dir DIR/bundles/...)")
      ->required();
  declareTargetOptions(sub, f->mode.target, TargetDefaults::Bundle);
  declareClusterOptions(sub, f->cluster);
  declareServiceProxyOption(sub, f->serviceProxy);
  declarePortForwardOption(sub, f->portForward);
  declareTimeoutOption(sub, f->mode.target, TargetDefaults::Bundle);
  declareWaitOption(sub, f->mode.target);
  sub.add_option("--release", f->release,
                 "For a bundle of convcheck upgrade or diff: replay it against the old or the new "
                 "release; default: the one its requests went to")
      ->check(CLI::IsMember({"old", "new"}));
  declareWebhookCommandOption(sub, f->command);
  return [f](const CommandContext& c) { return runReplay(*f, c); };
}

}  // namespace

Command replayCommand() {
  return {"replay",
          "Re-run the case of a reproduction bundle; exit 1 if it still fails, 0 if it now passes",
          declareReplayOptions};
}

}  // namespace convcheck
