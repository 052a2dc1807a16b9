#include "engine/replay/bundle_replay.h"

#include <sstream>

#include <fmt/format.h>

#include "engine/run/case_judge.h"
#include "engine/run/crd_selection.h"
#include "engine/run/kind_context.h"
#include "engine/run/webhook_process.h"
#include "harness/transport/call_failure.h"
#include "harness/transport/url_parts.h"
#include "kube/apiserver/group_version.h"
#include "kube/crd/crd_loader.h"
#include "reports/bundle_reader.h"
#include "reports/bundle_target.h"

namespace convcheck {

namespace {

Verdict failed(std::vector<std::string> errors, int exitCode = 2) {
  Verdict verdict;
  verdict.errors = std::move(errors);
  verdict.exitCode = exitCode;
  return verdict;
}

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

// The bundle's CRD, as the bundle names it.
std::variant<Crd, std::vector<std::string>> bundleCrd(const Bundle& b) {
  std::istringstream noStdin;
  LoadResult loaded = loadCrdInput(b.crdFile, noStdin);
  std::vector<std::string> errors;
  for (const auto& e : loaded.errors) errors.push_back(e.text());
  if (!errors.empty()) return errors;
  auto chosen = chooseCrd(loaded.crds, b.crdName, b.crdFile);
  if (auto* error = std::get_if<std::string>(&chosen)) return std::vector<std::string>{*error};
  return *std::get<const Crd*>(chosen);
}

// Why the bundle's URL is gone with its run ("" when it is not): a webhook convcheck started,
// kubectl's local end, a conversion function of the fuzzing process; and how to reach it again.
std::string goneWithTheRun(const Bundle& b) {
  const std::string again = replayCommand(b.dir, b.reach);
  switch (b.reach.how) {
    case WebhookReach::How::Url:
      return "";
    case WebhookReach::How::Command:
      return fmt::format(
          "{}: {} was a webhook convcheck started for the run (-- COMMAND) and stopped after it; "
          "start it again with `{}`, or give the --url of one you started",
          b.dir, b.target.url, again);
    case WebhookReach::How::ServiceProxy:
    case WebhookReach::How::PortForward:
      return fmt::format(
          "{}: {} was kubectl's local end during the run, gone with it; reach the webhook through "
          "the cluster again with `{}` (and --context), or give its --url",
          b.dir, b.target.url, again);
    case WebhookReach::How::InProcess:
      return fmt::format(
          "{}: {} was a conversion function of the fuzzing process; give the --url of a webhook "
          "with that conversion",
          b.dir, b.target.url);
  }
  return "";
}

// Where a webhook started again answers: the run's URL with {port} for the port convcheck chose
// (or as it was, when the run's --url named a fixed port); "" for the started webhook's default.
std::string startedUrl(const Bundle& b) {
  if (b.reach.how != WebhookReach::How::Command) return "";
  if (!b.reach.portOfCommand) return b.target.url;
  const auto parts = parseUrl(b.target.url);
  if (!parts) return "";
  const std::string port = std::to_string(parts->port);
  const std::string hostAndPort = hostPort(parts->host, parts->port);
  std::string url = b.target.url;
  const auto at = url.find("://" + hostAndPort);
  if (at == std::string::npos) return "";
  url.replace(at + 3 + hostAndPort.size() - port.size(), port.size(), "{port}");
  return url;
}

// The job's run options: the bundle's target under what the options change. A webhook started
// again (-- COMMAND, `starts`) is a new one: its TLS is the options' (else the CA convcheck makes
// for it), at the run's URL with the port it gets. An in-process bundle is reached again through
// the function the job is given (`function`).
std::string reachBundleTarget(const Bundle& b, const ReplayMode& mode, bool starts, bool function,
                              RunConfig& config) {
  // Through the cluster, the bundle's URL is not used.
  const bool throughCluster = config.serviceProxy || config.portForward;
  const std::string given = targetUrl(mode.target);
  const bool functionAgain = function && b.reach.how == WebhookReach::How::InProcess;
  if (!starts && given.empty() && !throughCluster && !functionAgain)
    if (auto gone = goneWithTheRun(b); !gone.empty()) return gone;
  config.transport = b.target.transport;
  if (starts) config.transport.tls = TlsOptions{};
  TargetFlags flags = mode.target;
  if (starts) flags.url = expandPlaceholders(flags.url, "", 1);  // {port}: checked as a port
  if (auto error = applyTargetFlags(flags, config.transport); !error.empty()) return error;
  config.url = !given.empty() ? given : throughCluster ? "" : starts ? startedUrl(b) : b.target.url;
  config.reviewVersion =
      b.target.reviewVersion == "v1beta1" ? ReviewVersion::V1beta1 : ReviewVersion::V1;
  return "";
}

// Sends the bundle's case through `target` and judges it.
Verdict replayCase(const Bundle& b, CasePart part, const KindContext& kind,
                   const ResolvedTarget& target, WebhookAccess& access) {
  Verdict verdict;
  if (auto failure = access.await(target); !failure.empty())
    return failed({"could not reach the webhook: " + failure}, 3);
  const FailureTarget wanted{b.property, part, b.from, b.to, b.failure, b.cause};
  CaseJudge judge(kind, target, access.targets());
  const std::string from = objectVersion(b.objects.front());
  CaseResult result = judge.run(b.objects, from, b.caseTo, b.seed,
                                [&wanted](const std::string& p) { return caseNeeds(wanted, p); });
  ReplayOutcome& outcome = verdict.replay.emplace();
  outcome = ReplayOutcome{b.dir,      b.property, b.from,  b.to,         b.objects.size(),
                          target.url, b.failure,  b.cause, std::nullopt, {}};
  if (result.forwardCall) {
    const HttpResult& http = result.forwardCall->http;
    if (!http.ok() && webhookNotReached(http.transportErrorKind)) {
      verdict.errors.push_back("could not reach the webhook: " +
                               explainUnreachable(target, http.transportError));
      verdict.exitCode = 3;
      return verdict;
    }
  }
  if (const CheckResult* r = resultFor(result, b, part)) outcome.result = *r;
  const bool passes = outcome.result && outcome.result->outcome == Outcome::Pass;
  const bool judged =
      outcome.result && outcome.result->outcome == Outcome::Fail && outcome.result->finding;
  if (!passes && !judged) outcome.others = failuresOf(result, from, b.caseTo);
  verdict.exitCode = passes ? 0 : 1;
  return verdict;
}

}  // namespace

Verdict replayJob(const ReplayMode& mode, RunConfig config, AccessOptions accessOptions) {
  auto read = readBundle(mode.bundle);
  if (auto* error = std::get_if<std::string>(&read)) return failed({*error});
  const Bundle b = std::get<Bundle>(std::move(read));
  auto part = casePartFromName(b.part);
  if (!part)
    return failed({fmt::format("{}/bundle.json: part: unknown value \"{}\"", b.dir, b.part)});
  if (auto error = reachBundleTarget(b, mode, !accessOptions.command.empty(),
                                     static_cast<bool>(accessOptions.function), config);
      !error.empty())
    return failed({error});
  auto crd = bundleCrd(b);
  if (auto* errors = std::get_if<std::vector<std::string>>(&crd)) return failed(*errors);
  auto compiled = KindContext::compile(
      std::get<Crd>(crd),
      KindSettings{GeneratorOptions{FormatOptions{b.canonicalDateTimes}}, b.rawObjects});
  if (auto* error = std::get_if<KindContext::Error>(&compiled))
    return failed({fmt::format("{} version {}: {}", b.crdName, error->version, error->message)});
  const KindContext& kind = std::get<KindContext>(compiled);
  auto opened = WebhookAccess::open(config, std::move(accessOptions), {kind.crd()});
  if (auto* error = std::get_if<AccessError>(&opened))
    return failed({error->message}, error->exitCode);
  WebhookAccess& access = *std::get<std::unique_ptr<WebhookAccess>>(opened);
  auto target = access.forKind(kind.crd());
  if (auto* error = std::get_if<AccessError>(&target))
    return failed({error->message}, error->exitCode);
  Verdict verdict = replayCase(b, *part, kind, std::get<KindTarget>(target).target(), access);
  RunReport ended;  // a started webhook that ended on its own says how
  access.finish(ended);
  if (verdict.exitCode == 3 && !ended.fatalError.empty())
    verdict.errors.push_back(ended.fatalError);
  return verdict;
}

}  // namespace convcheck
