#include "tests/support/example_webhook.h"

#include <fstream>
#include <stdexcept>

#include <openssl/evp.h>
#include <yaml-cpp/yaml.h>

#ifndef CONVCHECK_EXAMPLE_WEBHOOK_BIN
#error "CONVCHECK_EXAMPLE_WEBHOOK_BIN must be defined (link convcheck_test_support)"
#endif
#ifndef CONVCHECK_EXAMPLE_WEBHOOK_AFL_BIN
#error "CONVCHECK_EXAMPLE_WEBHOOK_AFL_BIN must be defined (link convcheck_test_support)"
#endif
#ifndef CONVCHECK_EXAMPLES_DIR
#error "CONVCHECK_EXAMPLES_DIR must be defined (link convcheck_test_support)"
#endif

namespace convcheck::test {
namespace {

std::string base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

}  // namespace

std::string ExampleWebhook::binaryPath() { return CONVCHECK_EXAMPLE_WEBHOOK_BIN; }
std::string ExampleWebhook::aflBinaryPath() { return CONVCHECK_EXAMPLE_WEBHOOK_AFL_BIN; }
std::string ExampleWebhook::examplesDir() { return CONVCHECK_EXAMPLES_DIR; }
std::string ExampleWebhook::cronTabCrdPath() {
  return examplesDir() + "/crds/crontabs.stable.example.com.yaml";
}
std::string ExampleWebhook::widgetCrdPath() {
  return examplesDir() + "/crds/widgets.example.convcheck.dev.yaml";
}

ExampleWebhook::ExampleWebhook(ExampleWebhookOptions options)
    : pki_(std::make_unique<TestPki>(options.pki)) {
  std::vector<std::string> argv = options.program;
  if (argv.empty()) argv.push_back(binaryPath());
  argv.insert(argv.end(), {"--cert", pki_->serverCertFile(), "--key", pki_->serverKeyFile(),
                           "--host", "127.0.0.1", "--port", "0", "--path", options.path});
  if (options.requireClientCert) {
    argv.push_back("--client-ca");
    argv.push_back(pki_->caFile());
  }
  if (options.delayMs > 0) {
    argv.push_back("--delay-ms");
    argv.push_back(std::to_string(options.delayMs));
  }
  for (const auto& fault : options.faults) {
    argv.push_back("--fault");
    argv.push_back(fault);
  }
  process_ = std::make_unique<ChildProcess>(argv, ChildProcessOptions{options.extraEnv, ""});
  auto line = process_->waitForLine(std::regex(R"(^listening on https://127\.0\.0\.1:(\d+)$)"),
                                    options.startTimeout);
  if (!line) {
    auto status = process_->stop(std::chrono::seconds(2));
    throw std::runtime_error("example-webhook did not start (" + status.describe() +
                             "); stderr:\n" + process_->stderrText());
  }
  port_ = std::stoi((*line)[1]);
  url_ = baseUrl() + options.path;
}

std::string ExampleWebhook::baseUrl() const { return "https://127.0.0.1:" + std::to_string(port_); }

std::string ExampleWebhook::writeCrdPointingHere(const std::string& crdFile) const {
  YAML::Node crd = YAML::LoadFile(crdFile);
  YAML::Node clientConfig = crd["spec"]["conversion"]["webhook"]["clientConfig"];
  clientConfig.remove("service");
  clientConfig["url"] = url_;
  clientConfig["caBundle"] = base64(pki_->caPem());
  auto path = pki_->dir() / std::filesystem::path(crdFile).filename();
  std::ofstream out(path);
  out << YAML::Dump(crd) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path.string());
  return path.string();
}

}  // namespace convcheck::test
