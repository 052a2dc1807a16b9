// `convcheck minimize --crd … --url … --to VERSION [--property ID] OBJECT`: shrinks a user's
// failing object (kubectl get -o json|yaml output, server-set fields and all) through the engine's
// minimize mode to the smallest schema-valid object that still fails the same property the same
// way, prints it and writes a reproduction bundle. Exit 1 when it fails (minimised), 0 when it
// does not fail, 2 usage/input, 3 unreachable. Listed in command_table.cpp.
#include <memory>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/console_events.h"
#include "app/cli/shared_options.h"
#include "engine/engine.h"
#include "generators/yaml_writer.h"
#include "reports/bundle_writer.h"
#include "reports/failure_text.h"

namespace convcheck {

using nlohmann::json;

namespace {

struct MinimizeFlags {
  MinimizeMode mode;
  RunConfig config;  // the CRD, cluster, --service-proxy, --port-forward, seed, shrink budget
  TargetFlags target;
  std::string reviewVersion, reportDir = "convcheck-minimize", output = "json";
  MinimizeFlags() { config.shrinkBudget = 500; }  // one object: more calls than a run's each
};

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

// The shrunk objects on stdout, what fails on stderr, and its bundle under --report-dir.
int printOutcome(MinimizeOutcome& m, const MinimizeFlags& f, const std::string& version,
                 std::ostream& out, std::ostream& err) {
  if (!m.target) {
    out << (m.property.empty()
                ? fmt::format("every property holds for this object ({} -> {})\n", m.from, m.to)
                : fmt::format("{} holds for this object ({} -> {})\n", m.property, m.from, m.to));
    return 0;
  }
  Finding& finding = m.finding;
  out << render(finding.caseObjects.copy(), f.output);
  err << fmt::format("{} fails ({} -> {}): {}\n", m.target->property, m.target->from, m.target->to,
                     finding.summary);
  if (!finding.apiserverMessage.empty())
    err << "kube-apiserver rejects this: " << finding.apiserverMessage << "\n";
  err << shrinkSummary(*finding.shrink) << "\n";
  const std::string dir = f.reportDir + "/bundles/" +
                          bundleName(m.crd.kind, m.target->from, m.target->to, m.target->property);
  const WrittenBundle written =
      writeBundle(dir, finding, m.crd, m.bundleTarget, {version, f.config.seed, ""});
  if (!written.error.empty())
    err << "convcheck: " << written.error << "\n";
  else
    err << fmt::format("bundle: {}\nreplay: convcheck replay {}\n", written.bundle.dir,
                       written.bundle.dir);
  return 1;
}

int runMinimize(MinimizeFlags& f, const CommandContext& c) {
  EngineOptions options{f.mode, f.config, {}, &c.in, c.version};
  std::string error = applyTargetFlags(f.target, options.config.transport);
  if (error.empty()) error = readWait(f.target, options.access.wait);
  if (error.empty()) error = readReviewVersion(f.reviewVersion, options.config.reviewVersion);
  if (!error.empty()) return usageError(c.err, error);
  options.config.url = targetUrl(f.target);
  options.config.portForwardWait = options.access.wait;
  Verdict verdict = execute(options, consoleEvents(c.err, {}));
  for (const auto& e : verdict.errors) c.err << "convcheck: " << e << "\n";
  if (!verdict.minimize) return verdict.exitCode;
  return printOutcome(*verdict.minimize, f, c.version, c.out, c.err);
}

// Declares the options on `sub`; the returned action reads what they receive.
Execute declareMinimizeOptions(CLI::App& sub) {
  auto f = std::make_shared<MinimizeFlags>();
  sub.add_option("OBJECT", f->mode.object,
                 "The object: a JSON or YAML file (a List or several documents make a batch), or -")
      ->required();
  declareCrdOption(sub, f->config.crdInput);
  declareClusterOptions(sub, f->config.cluster);
  declareKindOption(sub, f->mode.kind);
  sub.add_option("--to", f->mode.to, "Version to convert the object to")->required();
  sub.add_option("--property", f->mode.property,
                 "Property that fails (default: the first that fails, see `convcheck properties`)");
  declareTargetOptions(sub, f->target, TargetDefaults::Crd);
  declareServiceProxyOption(sub, f->config.serviceProxy);
  declarePortForwardOption(sub, f->config.portForward);
  declareTimeoutOption(sub, f->target, TargetDefaults::Crd);
  declareWaitOption(sub, f->target);
  declareReviewVersionOption(sub, f->reviewVersion);
  declareShrinkBudgetOption(sub, f->config.shrinkBudget);
  declareSeedOption(sub, f->config.seed, "Seed for request uids")->default_val(1);
  sub.add_option("--report-dir", f->reportDir, "Write the bundle under DIR/bundles/")
      ->default_val("convcheck-minimize");
  sub.add_option("-o,--output", f->output, "json or yaml")
      ->default_val("json")
      ->check(CLI::IsMember({"json", "yaml"}));
  return [f](const CommandContext& c) { return runMinimize(*f, c); };
}

}  // namespace

Command minimizeCommand() {
  return {"minimize",
          "Shrink a failing object (kubectl get -o json|yaml) to the smallest one that still fails",
          declareMinimizeOptions};
}

}  // namespace convcheck
