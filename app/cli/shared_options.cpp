#include "app/cli/shared_options.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "engine/run/run_config.h"
#include "engine/run/target_kinds.h"
#include "engine/run/webhook_process.h"
#include "harness/cluster/kubectl.h"
#include "harness/transport/kcp_target.h"
#include "harness/transport/url_parts.h"
#include "kube/go/duration.h"
#include "properties/checks/property_registry.h"
#include "properties/config/ack_config.h"
#include "reports/report_formats.h"
#include "reports/shell_words.h"

namespace convcheck {

namespace {

// The help's tail saying where an unset option's value comes from.
std::string defaultFrom(TargetDefaults defaults, const std::string& fromCrd,
                        const std::string& fromBundle = "the bundle's") {
  const std::string& from = defaults == TargetDefaults::Bundle ? fromBundle : fromCrd;
  return from.empty() ? "" : "; default: " + from;
}

}  // namespace

void declareCrdOption(CLI::App& app, std::string& crd) {
  app.add_option("--crd,-f", crd,
                 "CRD manifest: a YAML/JSON file, a directory, - for stdin, or kube://NAME for "
                 "the CRD NAME in the cluster (read with kubectl)")
      ->required();
}

void declareClusterOptions(CLI::App& app, ClusterAccess& cluster) {
  app.add_option("--kubeconfig", cluster.kubeconfig,
                 "kubeconfig of the cluster kubectl reaches (for kube://NAME and the other cluster "
                 "reads); default: kubectl's (KUBECONFIG, ~/.kube/config)");
  app.add_option("--context", cluster.context,
                 "kubeconfig context to use; default: its current-context");
}

void declareServiceProxyOption(CLI::App& app, bool& serviceProxy) {
  app.add_flag("--service-proxy", serviceProxy,
               "Reach a service-reference webhook through the API server's service proxy "
               "(kubectl proxy); the API server checks no certificate, so tls is not evaluated");
}

void declarePortForwardOption(CLI::App& app, bool& portForward) {
  app.add_flag("--port-forward", portForward,
               "Reach a service-reference webhook through `kubectl port-forward` to its Service "
               "(127.0.0.1 only), verifying TLS as the API server does: the CRD's caBundle and "
               "<service>.<namespace>.svc; kubectl gets --wait (default 30s) to start forwarding");
}

void declareKindOption(CLI::App& app, std::string& kind) {
  app.add_option("--kind", kind, "Kind or CRD name when the input holds several CRDs");
}

void declareTargetOptions(CLI::App& app, TargetFlags& f, TargetDefaults d) {
  app.add_option(
      "--url", f.url,
      "Webhook URL (https://, or http:// for local development)" +
          defaultFrom(d, "the CRD's clientConfig.url", "the one the bundle was found at"));
  app.add_option("--ca-file", f.caFile,
                 "CA bundle (PEM) for the serving certificate" +
                     defaultFrom(d, "the CRD's caBundle, else system roots"));
  app.add_option("--cert", f.cert, "Client certificate (PEM)" + defaultFrom(d, ""));
  app.add_option("--key", f.key, "Client private key (PEM)" + defaultFrom(d, ""));
  app.add_flag("--insecure-skip-tls-verify", f.insecureSkipTlsVerify,
               "Do not verify the serving certificate (the tls property is then not evaluated)");
  app.add_option("--tls-server-name", f.tlsServerName,
                 d == TargetDefaults::Bundle
                     ? "Name to verify the certificate for; default: the bundle's"
                     : "Name to verify the certificate for; default for service references: "
                       "<name>.<namespace>.svc");
}

void declareTargetKindOptions(CLI::App& app, TargetFlags& f) {
  for (const auto& kind : targetKindOptions())  // a target kind named by an option of its own
    app.add_option(kind.option, f.kindOptions[kind.option], kind.help);
}

void declareTimeoutOption(CLI::App& app, TargetFlags& f, TargetDefaults d) {
  CLI::Option* timeout = app.add_option(
      "--timeout", f.timeout,
      "Per-request timeout, e.g. 30s, 500ms (kube-apiserver: 30s)" + defaultFrom(d, ""));
  if (d == TargetDefaults::Crd) timeout->default_str(formatGoDuration(TransportOptions{}.timeout));
}

void declareWaitOption(CLI::App& app, TargetFlags& f) {
  app.add_option("--wait", f.wait,
                 "Wait up to this long, e.g. 30s, for the webhook to accept connections and answer "
                 "TLS before testing (a webhook that is still starting); default: do not wait");
}

void declareReviewVersionOption(CLI::App& app, std::string& reviewVersion) {
  app.add_option("--review-version", reviewVersion,
                 "ConversionReview version to send (v1 or v1beta1); default: as kube-apiserver "
                 "picks from conversionReviewVersions");
}

void declareDateTimesOption(CLI::App& app, std::string& dateTimes) {
  app.add_option("--date-times", dateTimes,
                 "Date-time values to generate: canonical (RFC 3339 UTC seconds, as Go's "
                 "metav1.Time and the API server write them) or any (also fractions and offsets: "
                 "finds webhooks that re-encode timestamps)")
      ->default_val("canonical")
      ->check(CLI::IsMember({"canonical", "any"}));
}

void declareHttp2Option(CLI::App& app, bool& http2) {
  app.add_flag("--http2", http2, "Allow HTTP/2 (kube-apiserver uses HTTP/1.1)");
}

void declareRawObjectsOption(CLI::App& app, bool& rawObjects) {
  app.add_flag("--raw-objects", rawObjects,
               "Send objects without their schema defaults (kube-apiserver always applies them "
               "before converting)");
}

void declareShrinkBudgetOption(CLI::App& app, int& budget) {
  app.add_option("--shrink-budget", budget,
                 "Webhook calls spent shrinking each reported failure (0: report unshrunk)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
}

void declarePropertiesOption(CLI::App& app, std::string& properties) {
  app.add_option("--properties", properties,
                 "Comma-separated property ids to check (default: all; see `convcheck "
                 "properties`)");
}

std::string readPropertyIds(const std::string& text, std::vector<std::string>& into) {
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string id = text.substr(start, end - start);
    if (!id.empty()) {
      if (!isKnownProperty(id))
        return fmt::format("--properties: unknown property id '{}' (see `convcheck properties`)",
                           id);
      if (findProperty(id)->scope == PropertyScope::Release)
        return fmt::format(
            "--properties: {} is a property of two releases, checked by convcheck "
            "upgrade and convcheck diff",
            id);
      into.push_back(id);
    }
    start = end + 1;
  }
  return "";
}

void declareReportOptions(CLI::App& app, std::map<std::string, std::string>& paths,
                          std::string& reportDir, const std::string& reportDirHelp) {
  for (const auto& format : reportFormats())
    app.add_option("--" + format.id, paths[format.id], format.help + " (- for stdout)");
  std::string files;
  for (const auto& format : reportFormats()) files += (files.empty() ? "" : ", ") + format.fileName;
  app.add_option("--report-dir", reportDir,
                 !reportDirHelp.empty()
                     ? reportDirHelp
                     : "Write reports (" + files + ") and reproduction bundles (bundles/) here");
}

void declareWebhookCommandOption(CLI::App& app, std::vector<std::string>& command) {
  app.add_option("COMMAND", command,
                 "After --: the webhook to start, stopped at the end; {certdir} (ca.crt, tls.crt, "
                 "tls.key that convcheck makes and trusts) and {port} (a free port on 127.0.0.1) "
                 "in its arguments are replaced (see README)");
}

void declareColourOption(CLI::App& app, std::string& colour) {
  app.add_option("--color", colour,
                 "Colour the console report: auto (a terminal, NO_COLOR unset, TERM not dumb), "
                 "always (also for CI logs, despite NO_COLOR) or never")
      ->default_val("auto")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

CLI::Option* declareSeedOption(CLI::App& app, std::uint64_t& seed, const std::string& help) {
  auto wholeNumber = [](std::string& text) -> std::string {
    const char* kExpected = "expected a whole number from 0 to 18446744073709551615";
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
      return fmt::format("{}: {}", text, kExpected);
    errno = 0;
    std::strtoull(text.c_str(), nullptr, 10);
    return errno == ERANGE ? fmt::format("{}: {}", text, kExpected) : "";
  };
  return app.add_option("--seed", seed, help)->check(CLI::Validator(wholeNumber, ""));
}

std::string readReviewVersion(const std::string& text, std::optional<ReviewVersion>& version) {
  if (text.empty()) return "";
  if (text == "v1")
    version = ReviewVersion::V1;
  else if (text == "v1beta1")
    version = ReviewVersion::V1beta1;
  else
    return fmt::format("--review-version {}: expected v1 or v1beta1", text);
  return "";
}

std::string applyConfigFile(CLI::App& command, const std::string& section, std::string& configPath,
                            std::optional<AckConfig>& acks, std::vector<std::string>& applied) {
  if (configPath.empty() && std::filesystem::exists(".convcheck.yaml")) {
    configPath = ".convcheck.yaml";
    applied = {"--config", configPath};  // found, not named: a reproduction names it
  }
  if (configPath.empty()) return "";
  auto loaded = loadAckConfig(configPath);
  if (auto* error = std::get_if<std::string>(&loaded)) return *error;
  acks = std::get<AckConfig>(std::move(loaded));
  const auto& options = acks->optionsOf(section);
  for (const auto& [name, values] : options) {
    CLI::Option* option = name == "config" || name == "help" || name.rfind('-', 0) == 0
                              ? nullptr
                              : command.get_option_no_throw("--" + name);
    if (option == nullptr)
      return fmt::format("{}: {}.{}: not an option of convcheck {} (see convcheck help {})",
                         configPath, section, name, section, section);
    if (option->count() > 0) continue;  // the command line wins
    try {
      for (const auto& value : values) {
        option->add_result(value);
        applied.push_back("--" + name + "=" + value);
      }
      option->run_callback();
    } catch (const CLI::Error& e) {
      return fmt::format("{}: {}.{}: {}", configPath, section, name, e.what());
    }
  }
  return "";
}

namespace {

std::optional<std::size_t> parseSize(const std::string& text) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  std::size_t pos = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &pos);
  } catch (...) {
    return std::nullopt;
  }
  std::string unit = text.substr(pos);
  std::size_t mult = unit == "" || unit == "B" ? 1
                     : unit == "KiB"           ? 1ull << 10
                     : unit == "MiB"           ? 1ull << 20
                     : unit == "GiB"           ? 1ull << 30
                                               : 0;
  if (mult == 0) return std::nullopt;
  return value * mult;
}

// `bytes` as --max-response-size takes it: in the largest binary unit that divides it.
std::string sizeText(std::size_t bytes) {
  for (const auto& [unit, shift] : {std::pair{"GiB", 30}, {"MiB", 20}, {"KiB", 10}})
    if (bytes != 0 && bytes % (std::size_t{1} << shift) == 0)
      return fmt::format("{}{}", bytes >> shift, unit);
  return std::to_string(bytes);
}

}  // namespace

std::uint64_t randomSeed() {
  return std::random_device{}() * 0x100000001ull + std::random_device{}();
}

std::string reproductionCommand(const std::vector<std::string>& args,
                                const std::vector<std::string>& fromConfigFile,
                                std::uint64_t seed) {
  const auto dashes = std::find(args.begin(), args.end(), "--");
  std::vector<std::string> repro = {"convcheck"};
  bool seen = false;
  for (auto a = args.begin(); a != dashes; ++a) {
    repro.push_back(*a);
    if (*a == "--seed" || a->rfind("--seed=", 0) == 0) seen = true;
  }
  for (const auto& given : fromConfigFile) {
    repro.push_back(given);
    if (given.rfind("--seed=", 0) == 0) seen = true;
  }
  if (!seen) {
    repro.push_back("--seed");
    repro.push_back(std::to_string(seed));
  }
  repro.insert(repro.end(), dashes, args.end());
  return shellCommand(repro);
}

CLI::Option* declareTestsOption(CLI::App& app, int& tests) {
  return app
      .add_option("--tests", tests,
                  "Test cases per ordered version pair (with --duration: an upper bound)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
}

void declareClusterObjectsOption(CLI::App& app, int& objects) {
  app.add_option("--cluster-objects", objects,
                 "Read up to N stored objects per served version from the cluster (GET only) and "
                 "test every property on them before generated cases")
      ->default_val(0)
      ->check(CLI::Range(0, 100000));
}

void declareMaxResponseSizeOption(CLI::App& app, std::string& size) {
  app.add_option("--max-response-size", size,
                 "Largest webhook answer read, e.g. 64MiB (kube-apiserver has no cap)")
      ->default_str(sizeText(TransportOptions{}.maxResponseBytes));
}

std::string readMaxResponseSize(const std::string& text, TransportOptions& transport) {
  if (text.empty()) return "";
  auto size = parseSize(text);
  if (!size || *size == 0) return fmt::format("--max-response-size {}: expected e.g. 64MiB", text);
  transport.maxResponseBytes = *size;
  return "";
}

std::string checkWebhookCommand(const std::vector<std::string>& command,
                                const std::vector<std::string>& args) {
  const auto dashes = std::find(args.begin(), args.end(), "--");
  if (!command.empty() && dashes == args.end())
    return fmt::format("unexpected argument {} (a webhook command to start goes after --)",
                       command.front());
  if (dashes != args.end() && command.empty())
    return "-- must be followed by the webhook command to start";
  return "";
}

std::string readWebhookTarget(const TargetFlags& flags, const std::vector<std::string>& command,
                              const std::vector<std::string>& args, RunConfig& c,
                              std::chrono::milliseconds& wait) {
  if (auto error = checkWebhookCommand(command, args); !error.empty()) return error;
  c.url = targetUrl(flags);
  if (auto error = oneWayToReach(!c.url.empty(), !command.empty(), c.serviceProxy, c.portForward);
      !error.empty())
    return error;
  if (auto conversion = flags.kindOptions.find("--conversion");
      conversion != flags.kindOptions.end() && !conversion->second.empty()) {
    if (!flags.url.empty() || !command.empty() || c.serviceProxy || c.portForward)
      return "--conversion: the APIConversion's rules convert in this process; give no --url, "
             "-- COMMAND, --service-proxy or --port-forward with it";
    c.url = kcpTargetUrl(conversion->second);
  }
  TargetFlags target = flags;
  if (!command.empty()) target.url = expandPlaceholders(target.url, "", 1);
  if (auto error = applyTargetFlags(target, c.transport); !error.empty()) return error;
  return readWait(flags, wait);
}

}  // namespace convcheck
