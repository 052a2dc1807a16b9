// example-webhook: a CRD conversion webhook for the bundled CronTab and Widget CRDs, with
// injectable faults, to try convcheck on and to test it with.
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "examples/webhook/faults.h"
#include "examples/webhook/webhook_server.h"

int main(int argc, char** argv) {
  using convcheck::example::WebhookServerOptions;
  WebhookServerOptions options;
  std::vector<std::string> faultNames;

  CLI::App app{"Example CRD conversion webhook for examples/crds (CronTab, Widget)",
               "example-webhook"};
  app.add_option("--cert", options.certFile, "serving certificate, PEM");
  app.add_option("--key", options.keyFile, "private key of the serving certificate, PEM");
  app.add_option("--client-ca", options.clientCaFile,
                 "require client certificates signed by this CA (PEM)");
  app.add_option("--host", options.host, "address to bind (only this one)")->capture_default_str();
  app.add_option("--port", options.port, "port; 0 picks a free one")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  app.add_option("--path", options.path, "conversion endpoint path")->capture_default_str();
  int delayMs = 0;
  app.add_option("--delay-ms", delayMs, "sleep this long before every answer, as slow webhooks do")
      ->check(CLI::Range(0, 600000))
      ->capture_default_str();
  app.add_option("--max-body-bytes", options.maxBodyBytes,
                 "answer 413 to requests whose body is larger (0: no limit), as web frameworks "
                 "cap request bodies by default")
      ->capture_default_str();
  int release = 1;
  app.add_option("--release", release,
                 "which release of the example CRDs to convert: 1, or 2 (Widget's v2 as well, "
                 "the second release in examples/crds/release2)")
      ->check(CLI::Range(1, 2))
      ->capture_default_str();
  bool identity = false;
  app.add_flag("--identity", identity,
               "convert objects of any kind and CRD by rewriting apiVersion only (a correct "
               "webhook for a CRD whose versions share one schema; for benchmarks)");
  app.add_option("--fault", faultNames,
                 "inject a known bug (repeatable); `--fault list` prints them, `--fault "
                 "list-upgrade` those of the second release");
  app.footer("Faults (--fault NAME, each breaks the named convcheck property):\n" +
             convcheck::example::faultListing() +
             "\nFaults of the second release that only `convcheck upgrade` shows (--release 2):\n" +
             convcheck::example::faultListing(true));
  CLI11_PARSE(app, argc, argv);

  for (const auto& name : faultNames) {
    if (name == "list") {
      std::cout << convcheck::example::faultListing();
      return 0;
    }
    if (name == "list-upgrade") {
      std::cout << convcheck::example::faultListing(true);
      return 0;
    }
  }
  auto parsed = convcheck::example::parseFaultNames(faultNames);
  if (!parsed.error.empty()) {
    std::cerr << "example-webhook: " << parsed.error << "\n";
    return 2;
  }
  options.faults = parsed.faults;
  if (release == 2) options.kinds = convcheck::example::KindMode::release2;
  if (identity) options.kinds = convcheck::example::KindMode::identity;
  options.delay = std::chrono::milliseconds(delayMs);
  if (options.certFile.empty() || options.keyFile.empty()) {
    std::cerr << "example-webhook: --cert and --key are required\n" << app.help();
    return 2;
  }
  if (options.path.empty() || options.path.front() != '/') {
    std::cerr << "example-webhook: --path must start with '/'\n";
    return 2;
  }
  return convcheck::example::runWebhookServer(options, std::cout, std::cerr);
}
