// `convcheck minimize --crd … --url … --to VERSION [--property ID] OBJECT`: shrinks a user's
// failing object (kubectl get -o json|yaml output, server-set fields and all) to the smallest
// schema-valid object that still fails the same property the same way, prints it and writes a
// reproduction bundle. Exit 1 when it fails (minimised), 0 when it does not fail, 2 usage/input,
// 3 unreachable. Listed in command_table.cpp.
#include <fstream>
#include <istream>
#include <memory>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/shared_options.h"
#include "engine/run/crd_selection.h"
#include "engine/run/crd_source.h"
#include "engine/run/kind_context.h"
#include "engine/run/target_kinds.h"
#include "engine/run/target_resolution.h"
#include "engine/run/webhook_wait.h"
#include "generators/yaml_writer.h"
#include "harness/corpus/sample_objects.h"
#include "harness/plan/planned_batch.h"
#include "harness/transport/call_failure.h"
#include "harness/transport/converter.h"
#include "harness/transport/review_codec.h"
#include "kube/crd/crd_loader.h"
#include "properties/case_executor.h"
#include "properties/checks/property_registry.h"
#include "reports/bundle_writer.h"
#include "reports/failure_text.h"
#include "shrink/case_shrinker.h"

namespace convcheck {

using nlohmann::json;

namespace {

struct MinimizeFlags {
  std::string crd, kind, reviewVersion;
  TargetFlags target;
  ClusterAccess cluster;  // --kubeconfig, --context
  bool serviceProxy = false;
  bool portForward = false;
  std::string to, property, object, reportDir = "convcheck-minimize", output = "json";
  int shrinkBudget = 500;
  std::uint64_t seed = 1;
};

struct Usage {
  std::string message;
};

std::string readInput(const std::string& path, std::istream& in) {
  if (path == "-") {
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Usage{fmt::format("{}: cannot read", path)};
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string render(const std::vector<json>& batch, const std::string& format) {
  std::string out;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (format == "yaml")
      out += (i ? "---\n" : "") + toYaml(batch[i]);
    else
      out += batch[i].dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  }
  return out;
}

int runMinimize(const MinimizeFlags& f, const std::string& version, std::istream& in,
                std::ostream& out, std::ostream& err) {
  try {
    if (f.crd == "-" && f.object == "-") throw Usage{"--crd and OBJECT cannot both be stdin"};
    LoadResult loaded = loadCrdSource(f.crd, in, f.cluster);
    for (const auto& e : loaded.errors) err << "convcheck: " << e.text() << "\n";
    if (!loaded.errors.empty()) return 2;
    auto chosen = chooseCrd(loaded.crds, f.kind, f.crd);
    if (auto* error = std::get_if<std::string>(&chosen)) throw Usage{*error};
    const Crd& crd = *std::get<const Crd*>(chosen);
    auto compiled = KindContext::compile(crd);
    if (auto* error = std::get_if<KindContext::Error>(&compiled))
      throw Usage{fmt::format("{} version {}: {}", crd.name, error->version, error->message)};
    const KindContext& kind = std::get<KindContext>(compiled);
    if (!kind.hasVersion(f.to))
      throw Usage{fmt::format("--to {}: not a version of {} with a schema", f.to, crd.name)};
    if (!f.property.empty() && !isKnownProperty(f.property))
      throw Usage{fmt::format("--property {}: unknown (see `convcheck properties`)", f.property)};

    // The objects, completed as stored objects.
    ObjectDocuments docs = readObjects(readInput(f.object, in), f.object);
    for (const auto& e : docs.errors) throw Usage{e};
    if (docs.objects.empty()) throw Usage{f.object + ": no object"};
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
      if (version == f.to)
        throw Usage{
            fmt::format("{}: already in version {}; kube-apiserver never sends it to be "
                        "converted to its own version",
                        d.where, f.to)};
      json stored = asStoredObject(d.object, crd, f.seed + i);
      if (stored != d.object)
        err << fmt::format("note: {}: completed metadata as kube-apiserver stores it\n", d.where);
      for (const auto& v : kind.violations(stored, version))
        err << fmt::format("warning: {}: not valid for version {}: {}\n", d.where, version, v);
      batch.push_back(std::move(stored));
      slots.push_back(i);
    }
    batch = uniqueIdentities(std::move(batch), slots, f.seed);

    // Where and how to send.
    TransportOptions transport;
    if (auto error = applyTargetFlags(f.target, transport); !error.empty()) throw Usage{error};
    std::chrono::milliseconds wait{0};
    if (auto error = readWait(f.target, wait); !error.empty()) throw Usage{error};
    TargetChoice choice{f.target.url, transport, std::nullopt, ""};
    if (auto error = oneWayToReach(!f.target.url.empty(), false, f.serviceProxy, f.portForward);
        !error.empty())
      throw Usage{error};
    std::unique_ptr<KubectlProxy> serviceProxy;
    if (f.serviceProxy) {
      auto started = startServiceProxy(f.cluster);
      if (auto* error = std::get_if<std::string>(&started)) throw Usage{*error};
      serviceProxy = std::move(std::get<std::unique_ptr<KubectlProxy>>(started));
      choice.serviceProxy = serviceProxy->baseUrl();
    }
    std::unique_ptr<KubectlPortForward> portForward;
    if (f.portForward) {
      if (auto error = portForwardUnsupported(crd); !error.empty()) throw Usage{error};
      auto started = startPortForward(f.cluster, crd, wait);
      if (auto* error = std::get_if<std::string>(&started)) {
        err << fmt::format("convcheck: could not reach the webhook: {}\n", *error);
        return 3;
      }
      portForward = std::move(std::get<std::unique_ptr<KubectlPortForward>>(started));
      choice.url = portForward->baseUrl();
    }
    if (auto error = readReviewVersion(f.reviewVersion, choice.reviewVersion); !error.empty())
      throw Usage{error};
    auto resolved = resolveTarget(crd, choice);
    if (auto* error = std::get_if<std::string>(&resolved)) throw Usage{*error};
    const std::string url = std::get<ResolvedTarget>(resolved).url;
    const ReviewVersion reviewVersion = std::get<ResolvedTarget>(resolved).reviewVersion;
    transport = std::get<ResolvedTarget>(resolved).transport;

    if (wait.count() > 0) {
      if (auto failure = WebhookWait(wait).await(std::get<ResolvedTarget>(resolved));
          !failure.empty()) {
        err << fmt::format("convcheck: could not reach the webhook: {}\n", failure);
        return 3;
      }
    }
    Converter converter(crd, openTarget(std::get<ResolvedTarget>(resolved)), reviewVersion);
    // Judges every property when `target` is unset (the first run, to see what fails).
    auto runnerFor = [&](std::optional<FailureTarget> target) -> CaseRunner {
      return [&, target](const std::vector<json>& b, const std::string& from) {
        CaseSettings settings = kind.caseSettings();
        settings.timeout = transport.timeout;
        settings.wants = [target](const std::string& p) {
          return !target || caseNeeds(*target, p);
        };
        CaseExecutor executor(crd, converter, std::move(settings));
        return executor.run(b, from, f.to, f.seed);
      };
    };
    const std::string from = objectVersion(batch.front());
    CaseResult first = runnerFor(std::nullopt)(batch, from);
    if (first.forwardCall) {
      const HttpResult& http = first.forwardCall->http;
      if (!http.ok() && webhookNotReached(http.transportErrorKind)) {
        err << fmt::format(
            "convcheck: could not reach the webhook: {}\n",
            explainUnreachable(std::get<ResolvedTarget>(resolved), http.transportError));
        return 3;
      }
    }
    std::optional<FailureTarget> target;
    for (const auto& t : failuresOf(first, from, f.to))
      if ((f.property.empty() || t.property == f.property) && !target) target = t;
    if (!target) {
      out << (f.property.empty()
                  ? fmt::format("every property holds for this object ({} -> {})\n", from, f.to)
                  : fmt::format("{} holds for this object ({} -> {})\n", f.property, from, f.to));
      return 0;
    }
    const CheckResult* original = locateFailure(first, *target);

    ShrinkCase shrinkCase;
    shrinkCase.to = f.to;
    shrinkCase.seed = f.seed;
    for (std::size_t i = 0; i < batch.size(); ++i)
      shrinkCase.items.push_back({objectVersion(batch[i]), rc::shrinkable::just(batch[i]), i});
    const ShrinkSchemas schemas = kind.schemas();
    ShrinkOutcome outcome =
        shrinkFailure(shrinkCase, *target, *original, schemas, runnerFor(target), f.shrinkBudget);
    Finding finding = *outcome.result.finding;
    finding.caseObjects = outcome.batch;
    finding.seed = f.seed;
    finding.caseTo = f.to;
    finding.part = casePartName(target->part);
    finding.origin = "minimize " + f.object;
    finding.shrink = outcome.info;

    out << render(outcome.batch, f.output);
    err << fmt::format("{} fails ({} -> {}): {}\n", target->property, target->from, target->to,
                       finding.summary);
    if (!finding.apiserverMessage.empty())
      err << "kube-apiserver rejects this: " << finding.apiserverMessage << "\n";
    err << shrinkSummary(outcome.info) << "\n";

    BundleTarget bundleTarget{url, reviewVersionName(reviewVersion), transport};
    const std::string dir = f.reportDir + "/bundles/" +
                            bundleName(crd.kind, target->from, target->to, target->property);
    const WrittenBundle written =
        writeBundle(dir, finding, crd, bundleTarget, {version, f.seed, ""});
    if (!written.error.empty())
      err << "convcheck: " << written.error << "\n";
    else
      err << fmt::format("bundle: {}\nreplay: convcheck replay {}\n", written.bundle.dir,
                         written.bundle.dir);
    return 1;
  } catch (const Usage& u) {
    err << "convcheck: " << u.message << "\n";
    return 2;
  }
}

// Declares the options on `sub`; the returned action reads what they receive.
Execute declareMinimizeOptions(CLI::App& sub) {
  auto f = std::make_shared<MinimizeFlags>();
  sub.add_option("OBJECT", f->object,
                 "The object: a JSON or YAML file (a List or several documents make a batch), or -")
      ->required();
  declareCrdOption(sub, f->crd);
  declareClusterOptions(sub, f->cluster);
  declareKindOption(sub, f->kind);
  sub.add_option("--to", f->to, "Version to convert the object to")->required();
  sub.add_option("--property", f->property,
                 "Property that fails (default: the first that fails, see `convcheck properties`)");
  declareTargetOptions(sub, f->target, TargetDefaults::Crd);
  declareServiceProxyOption(sub, f->serviceProxy);
  declarePortForwardOption(sub, f->portForward);
  declareTimeoutOption(sub, f->target, TargetDefaults::Crd);
  declareWaitOption(sub, f->target);
  declareReviewVersionOption(sub, f->reviewVersion);
  declareShrinkBudgetOption(sub, f->shrinkBudget);
  declareSeedOption(sub, f->seed, "Seed for request uids")->default_val(1);
  sub.add_option("--report-dir", f->reportDir, "Write the bundle under DIR/bundles/")
      ->default_val("convcheck-minimize");
  sub.add_option("-o,--output", f->output, "json or yaml")
      ->default_val("json")
      ->check(CLI::IsMember({"json", "yaml"}));
  return [f](const CommandContext& c) { return runMinimize(*f, c.version, c.in, c.out, c.err); };
}

}  // namespace

Command minimizeCommand() {
  return {"minimize",
          "Shrink a failing object (kubectl get -o json|yaml) to the smallest one that still fails",
          declareMinimizeOptions};
}

}  // namespace convcheck
