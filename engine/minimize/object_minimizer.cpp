#include "engine/minimize/object_minimizer.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "engine/run/case_judge.h"
#include "engine/run/crd_selection.h"
#include "engine/run/crd_source.h"
#include "engine/run/kind_context.h"
#include "harness/corpus/sample_objects.h"
#include "harness/plan/planned_batch.h"
#include "harness/transport/call_failure.h"
#include "kube/apiserver/group_version.h"
#include "properties/checks/property_registry.h"

namespace convcheck {

using nlohmann::json;

namespace {

// Bad input: the job stops with exit code 2.
struct Usage {
  std::string message;
};

std::string readInput(const std::string& path, std::istream& in) {
  std::stringstream s;
  if (path == "-") {
    s << in.rdbuf();
    return s.str();
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Usage{fmt::format("{}: cannot read", path)};
  s << f.rdbuf();
  return s.str();
}

const Crd& pickCrd(const LoadResult& loaded, const RunConfig& config, const std::string& kind) {
  auto chosen = chooseCrd(loaded.crds, kind, config.crdInput);
  if (auto* error = std::get_if<std::string>(&chosen)) throw Usage{*error};
  return *std::get<const Crd*>(chosen);
}

// The objects of the input, completed as stored objects, in one batch.
std::vector<json> storedBatch(const MinimizeMode& mode, const KindContext& kind,
                              const RunConfig& config, std::istream& in) {
  const Crd& crd = kind.crd();
  ObjectDocuments docs = readObjects(readInput(mode.object, in), mode.object);
  for (const auto& e : docs.errors) throw Usage{e};
  if (docs.objects.empty()) throw Usage{mode.object + ": no object"};
  std::vector<json> batch;
  std::vector<std::size_t> slots;
  for (std::size_t i = 0; i < docs.objects.size(); ++i) {
    const auto& d = docs.objects[i];
    const std::string apiVersion = d.object.value("apiVersion", "");
    const std::string version = objectVersion(d.object);
    if (d.object.value("kind", "") != crd.kind || apiVersion != crd.apiVersion(version))
      throw Usage{fmt::format("{}: not a {} of group {} (apiVersion {}, kind {})", d.where,
                              crd.kind, crd.group, apiVersion, d.object.value("kind", ""))};
    if (!kind.hasVersion(version))
      throw Usage{fmt::format("{}: version {} has no schema in {}", d.where, version, crd.name)};
    if (version == mode.to)
      throw Usage{fmt::format(
          "{}: already in version {}; kube-apiserver never sends it to be converted to its own "
          "version",
          d.where, mode.to)};
    json stored = asStoredObject(d.object, crd, config.seed + i);
    if (stored != d.object)
      tell(config.events,
           Note{Note::Level::Info,
                fmt::format("note: {}: completed metadata as kube-apiserver stores it", d.where)});
    for (const auto& v : kind.violations(stored, version))
      tell(config.events,
           Note{Note::Level::Warning,
                fmt::format("warning: {}: not valid for version {}: {}", d.where, version, v)});
    batch.push_back(std::move(stored));
    slots.push_back(i);
  }
  return uniqueIdentities(std::move(batch), slots, config.seed);
}

// Whether the case's first call found the webhook unreachable (then `why` says how).
bool unreachable(const CaseResult& result, const ResolvedTarget& target, std::string& why) {
  if (!result.forwardCall) return false;
  const HttpResult& http = result.forwardCall->http;
  if (http.ok() || !webhookNotReached(http.transportErrorKind)) return false;
  why = "could not reach the webhook: " + explainUnreachable(target, http.transportError);
  return true;
}

// Runs the batch, and shrinks its first failure (of the property asked for).
Verdict minimizeBatch(const MinimizeMode& mode, const KindContext& kind, const RunConfig& config,
                      const std::vector<json>& batch, const ResolvedTarget& target,
                      WebhookAccess& access) {
  Verdict verdict;
  if (auto failure = access.await(target); !failure.empty()) {
    verdict.errors.push_back("could not reach the webhook: " + failure);
    verdict.exitCode = 3;
    return verdict;
  }
  CaseJudge judge(kind, target, access.targets());
  const std::string from = objectVersion(batch.front());
  CaseResult first = judge.run(batch, from, mode.to, config.seed);  // every property
  if (std::string why; unreachable(first, target, why)) {
    verdict.errors.push_back(why);
    verdict.exitCode = 3;
    return verdict;
  }
  MinimizeOutcome& outcome = verdict.minimize.emplace();
  outcome.from = from;
  outcome.to = mode.to;
  outcome.property = mode.property;
  outcome.crd = kind.crd();
  outcome.bundleTarget = {target.url, reviewVersionName(target.reviewVersion), target.transport};
  for (const auto& t : failuresOf(first, from, mode.to))
    if ((mode.property.empty() || t.property == mode.property) && !outcome.target)
      outcome.target = t;
  if (!outcome.target) return verdict;  // it holds: exit 0
  const CheckResult* original = locateFailure(first, *outcome.target);
  ShrinkOutcome shrunk =
      judge.shrink(batch, mode.to, config.seed, *outcome.target, *original, config.shrinkBudget);
  outcome.finding = *shrunk.result.finding;
  outcome.finding.caseObjects = SharedObjects::own(shrunk.batch);
  outcome.finding.seed = config.seed;
  outcome.finding.caseTo = mode.to;
  outcome.finding.part = casePartName(outcome.target->part);
  outcome.finding.origin = "minimize " + mode.object;
  outcome.finding.shrink = shrunk.info;
  tell(config.events, ShrinkDone{kind.crd().kind, "", outcome.target->property,
                                 outcome.target->from, outcome.target->to, 1, 1});
  verdict.exitCode = 1;
  return verdict;
}

Verdict minimize(const MinimizeMode& mode, RunConfig& config, AccessOptions accessOptions,
                 std::istream& in) {
  if (config.crdInput == "-" && mode.object == "-")
    throw Usage{"--crd and OBJECT cannot both be stdin"};
  LoadResult loaded = loadCrdSource(config.crdInput, in, config.cluster);
  if (!loaded.ok()) {
    Verdict verdict;
    for (const auto& e : loaded.errors) verdict.errors.push_back(e.text());
    verdict.exitCode = 2;
    return verdict;
  }
  const Crd& crd = pickCrd(loaded, config, mode.kind);
  auto compiled = KindContext::compile(crd);
  if (auto* error = std::get_if<KindContext::Error>(&compiled))
    throw Usage{fmt::format("{} version {}: {}", crd.name, error->version, error->message)};
  const KindContext& kind = std::get<KindContext>(compiled);
  if (!kind.hasVersion(mode.to))
    throw Usage{fmt::format("--to {}: not a version of {} with a schema", mode.to, crd.name)};
  if (!mode.property.empty() && !isKnownProperty(mode.property))
    throw Usage{fmt::format("--property {}: unknown (see `convcheck properties`)", mode.property)};
  const std::vector<json> batch = storedBatch(mode, kind, config, in);
  auto opened = WebhookAccess::open(config, std::move(accessOptions), {crd});
  if (auto* error = std::get_if<AccessError>(&opened)) throw Usage{error->message};
  WebhookAccess& access = *std::get<std::unique_ptr<WebhookAccess>>(opened);
  auto target = access.forKind(crd);
  if (auto* error = std::get_if<AccessError>(&target)) {
    if (error->exitCode != 3) throw Usage{error->message};
    Verdict verdict;
    verdict.errors.push_back(error->message);
    verdict.exitCode = 3;
    return verdict;
  }
  return minimizeBatch(mode, kind, config, batch, std::get<KindTarget>(target).target(), access);
}

}  // namespace

Verdict minimizeJob(const MinimizeMode& mode, RunConfig config, AccessOptions access,
                    std::istream& in) {
  try {
    return minimize(mode, config, std::move(access), in);
  } catch (const Usage& u) {
    Verdict verdict;
    verdict.errors.push_back(u.message);
    verdict.exitCode = 2;
    return verdict;
  }
}

}  // namespace convcheck
