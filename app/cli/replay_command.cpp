// `convcheck replay BUNDLE`: re-runs exactly the case of a reproduction bundle (same objects,
// target version, seed and property) and says whether it still fails. Exit 1 still fails, 0 now
// passes, 2 unreadable bundle or bad flags, 3 webhook unreachable. Listed in command_table.cpp.
#include <istream>
#include <memory>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/shared_options.h"
#include "engine/run/crd_selection.h"
#include "engine/run/kind_context.h"
#include "engine/run/target_kinds.h"
#include "engine/run/target_resolution.h"
#include "engine/run/webhook_wait.h"
#include "engine/upgrade/release_replay.h"
#include "harness/transport/call_failure.h"
#include "harness/transport/converter.h"
#include "kube/crd/crd_loader.h"
#include "properties/case_executor.h"
#include "properties/checks/cause_analysis.h"
#include "reports/bundle_reader.h"
#include "shrink/failure_target.h"

namespace convcheck {

using nlohmann::json;

namespace {

struct ReplayFlags {
  std::string bundle;
  TargetFlags target;     // unset fields: the bundle's
  ClusterAccess cluster;  // --kubeconfig, --context (for --service-proxy, --port-forward)
  bool serviceProxy = false;
  bool portForward = false;
  std::string release;  // --release: a bundle of two releases replayed against the old or new
};

// The result for the bundle's property in the part of the case it was found in.
const CheckResult* resultFor(const CaseResult& r, const Bundle& b, CasePart part) {
  switch (part) {
    case CasePart::Forward:
      for (const auto& c : r.forward)
        if (c.property == b.property) return &c;
      return nullptr;
    case CasePart::Composite:
      for (const auto& c : r.composite)
        if (c.property == b.property) return &c;
      return nullptr;
    case CasePart::Backward:
      for (std::size_t i = 0; i < r.backward.size() && i < r.backwardTo.size(); ++i)
        if (r.backward[i].property == b.property && r.backwardTo[i] == b.to) return &r.backward[i];
      return nullptr;
  }
  return nullptr;
}

int runReplay(const ReplayFlags& f, std::ostream& out, std::ostream& err) {
  auto read = readBundle(f.bundle);
  if (auto* error = std::get_if<std::string>(&read)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  Bundle b = std::get<Bundle>(std::move(read));
  if (isReleaseBundle(b.dir))
    return replayReleaseBundle(
        b, {f.release, f.target.url, f.target.caFile, f.target.tlsServerName}, out, err);
  if (!f.release.empty()) {
    err << fmt::format("convcheck: --release: {} is not a bundle of upgrade or diff\n", b.dir);
    return 2;
  }
  auto part = casePartFromName(b.part);
  if (!part) {
    err << fmt::format("convcheck: {}/bundle.json: part: unknown value \"{}\"\n", b.dir, b.part);
    return 2;
  }
  TransportOptions transport = b.target.transport;
  std::chrono::milliseconds wait{0};
  if (auto error = applyTargetFlags(f.target, transport); !error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }
  if (auto error = readWait(f.target, wait); !error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }

  std::istringstream noStdin;
  LoadResult loaded = loadCrdInput(b.crdFile, noStdin);
  for (const auto& e : loaded.errors) err << "convcheck: " << e.text() << "\n";
  if (!loaded.errors.empty()) return 2;
  auto chosen = chooseCrd(loaded.crds, b.crdName, b.crdFile);
  if (auto* error = std::get_if<std::string>(&chosen)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  const Crd* crd = std::get<const Crd*>(chosen);
  if (auto error = oneWayToReach(!f.target.url.empty(), false, f.serviceProxy, f.portForward);
      !error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }
  // Through the cluster, the bundle's URL is not used.
  std::unique_ptr<KubectlProxy> serviceProxy;
  if (f.serviceProxy) {
    auto started = startServiceProxy(f.cluster);
    if (auto* error = std::get_if<std::string>(&started)) {
      err << "convcheck: " << *error << "\n";
      return 2;
    }
    serviceProxy = std::move(std::get<std::unique_ptr<KubectlProxy>>(started));
  }
  std::unique_ptr<KubectlPortForward> portForward;
  if (f.portForward) {
    if (auto error = portForwardUnsupported(*crd); !error.empty()) {
      err << "convcheck: " << error << "\n";
      return 2;
    }
    auto started = startPortForward(f.cluster, *crd, wait);
    if (auto* error = std::get_if<std::string>(&started)) {
      err << fmt::format("convcheck: could not reach the webhook: {}\n", *error);
      return 3;
    }
    portForward = std::move(std::get<std::unique_ptr<KubectlPortForward>>(started));
  }
  auto resolved = resolveTarget(
      *crd,
      TargetChoice{serviceProxy           ? ""
                   : portForward          ? portForward->baseUrl()
                   : f.target.url.empty() ? b.target.url
                                          : f.target.url,
                   transport,
                   b.target.reviewVersion == "v1beta1" ? ReviewVersion::V1beta1 : ReviewVersion::V1,
                   serviceProxy ? serviceProxy->baseUrl() : ""});
  if (auto* error = std::get_if<std::string>(&resolved)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  const std::string url = std::get<ResolvedTarget>(resolved).url;
  transport = std::get<ResolvedTarget>(resolved).transport;
  auto compiled = KindContext::compile(
      *crd, KindSettings{GeneratorOptions{FormatOptions{b.canonicalDateTimes}}, b.rawObjects});
  if (auto* error = std::get_if<KindContext::Error>(&compiled)) {
    err << fmt::format("convcheck: {} version {}: {}\n", crd->name, error->version, error->message);
    return 2;
  }
  const KindContext& kind = std::get<KindContext>(compiled);

  if (wait.count() > 0) {
    if (auto failure = WebhookWait(wait).await(std::get<ResolvedTarget>(resolved));
        !failure.empty()) {
      err << fmt::format("convcheck: could not reach the webhook: {}\n", failure);
      return 3;
    }
  }
  Converter converter(*crd, openTarget(std::get<ResolvedTarget>(resolved)),
                      std::get<ResolvedTarget>(resolved).reviewVersion);
  const FailureTarget target{b.property, *part, b.from, b.to, b.failure, b.cause};
  CaseSettings settings = kind.caseSettings();
  settings.timeout = transport.timeout;
  settings.wants = [&target](const std::string& p) { return caseNeeds(target, p); };
  CaseExecutor executor(*crd, converter, std::move(settings));
  const std::string from = objectVersion(b.objects.front());
  CaseResult result = executor.run(b.objects, from, b.caseTo, b.seed);

  out << fmt::format("replaying {}: {} {} -> {}, {} object(s), against {}\n", b.dir, b.property,
                     b.from, b.to, b.objects.size(), url);
  if (result.forwardCall) {
    const HttpResult& http = result.forwardCall->http;
    if (!http.ok() && webhookNotReached(http.transportErrorKind)) {
      err << fmt::format(
          "convcheck: could not reach the webhook: {}\n",
          explainUnreachable(std::get<ResolvedTarget>(resolved), http.transportError));
      return 3;
    }
  }
  const CheckResult* r = resultFor(result, b, *part);
  if (r && r->outcome == Outcome::Pass) {
    out << fmt::format("passes now: {} holds for this case\n", b.property);
    return 0;
  }
  if (r && r->outcome == Outcome::Fail && r->finding) {
    const std::string how = failureSignature(*r->finding);
    out << fmt::format("still fails{}: {}\n",
                       b.failure.empty() || how == b.failure
                           ? ""
                           : fmt::format(" (differently: {} instead of {})", how, b.failure),
                       r->finding->summary);
    bool sameCause = b.cause.empty();
    for (const auto& c : r->finding->causes) {
      sameCause |= c.key == b.cause;
      out << fmt::format("  cause: {}: {}\n", severityName(c.severity), c.title);
    }
    if (!sameCause)
      out << fmt::format("  (the bundle's cause {} is gone; the causes above are new)\n", b.cause);
    if (!r->finding->apiserverMessage.empty())
      out << "kube-apiserver rejects this: " << r->finding->apiserverMessage << "\n";
    for (const auto& d : r->finding->details) out << "  " << d << "\n";
    return 1;
  }
  out << fmt::format("still fails: {} cannot be judged on this case ({})\n", b.property,
                     r ? r->blockedBy : "no result");
  for (const auto& t : failuresOf(result, from, b.caseTo))
    out << fmt::format("  {} fails ({} {} -> {})\n", t.property, casePartName(t.part), t.from,
                       t.to);
  return 1;
}

// Declares the options on `sub`; the returned action reads what they receive.
Execute declareReplayOptions(CLI::App& sub) {
  auto f = std::make_shared<ReplayFlags>();
  sub.add_option("BUNDLE", f->bundle, "Bundle directory (from --report-dir DIR/bundles/...)")
      ->required();
  declareTargetOptions(sub, f->target, TargetDefaults::Bundle);
  declareClusterOptions(sub, f->cluster);
  declareServiceProxyOption(sub, f->serviceProxy);
  declarePortForwardOption(sub, f->portForward);
  declareTimeoutOption(sub, f->target, TargetDefaults::Bundle);
  declareWaitOption(sub, f->target);
  sub.add_option("--release", f->release,
                 "For a bundle of convcheck upgrade or diff: replay it against the old or the new "
                 "release; default: the one its requests went to")
      ->check(CLI::IsMember({"old", "new"}));
  return [f](const CommandContext& c) { return runReplay(*f, c.out, c.err); };
}

}  // namespace

Command replayCommand() {
  return {"replay",
          "Re-run the case of a reproduction bundle; exit 1 if it still fails, 0 if it now passes",
          declareReplayOptions};
}

}  // namespace convcheck
