// The real example-webhook binary (examples/webhook) running on 127.0.0.1:<ephemeral> with a
// fresh TestPki and chosen faults. Used by integration tests that need a live webhook.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/child_process.h"
#include "tests/support/test_pki.h"

namespace convcheck::test {

struct ExampleWebhookOptions {
  std::vector<std::string> faults{};  // --fault names, e.g. {"uid-not-echoed"}
  int delayMs = 0;                    // --delay-ms: added to every answer
  // Another webhook program taking the same flags (e.g. {"node", "tests/webhooks/x.js"}); empty:
  // the example webhook.
  std::vector<std::string> program{};
  TestPkiOptions pki{};
  std::string path = "/convert";
  bool requireClientCert = false;  // --client-ca <pki ca.pem>
  std::chrono::milliseconds startTimeout{15000};
  std::vector<std::string> extraEnv{};  // NAME=value added to the webhook's environment
};

// Starts the process and waits for its "listening on https://127.0.0.1:PORT" line; throws
// std::runtime_error with the process's stderr if it does not come. Stopped on destruction.
class ExampleWebhook {
 public:
  explicit ExampleWebhook(ExampleWebhookOptions options = {});

  const std::string& url() const { return url_; }  // https://127.0.0.1:PORT/convert
  std::string baseUrl() const;                     // https://127.0.0.1:PORT
  int port() const { return port_; }
  const TestPki& pki() const { return *pki_; }
  ChildProcess& process() { return *process_; }

  // Writes a copy of `crdFile` whose clientConfig has this webhook's url() and the PKI's CA as
  // caBundle (v1 CRDs: spec.conversion.webhook.clientConfig); returns its path (in the PKI dir).
  std::string writeCrdPointingHere(const std::string& crdFile) const;

  static std::string binaryPath();  // CONVCHECK_EXAMPLE_WEBHOOK_BIN
  // The same webhook built with afl-clang-fast++ (CONVCHECK_EXAMPLE_WEBHOOK_AFL_BIN); "" when
  // AFL++ was not found at configure time.
  static std::string aflBinaryPath();
  static std::string examplesDir();     // CONVCHECK_EXAMPLES_DIR
  static std::string cronTabCrdPath();  // examples/crds/crontabs.stable.example.com.yaml
  static std::string widgetCrdPath();   // examples/crds/widgets.example.convcheck.dev.yaml

 private:
  std::unique_ptr<TestPki> pki_;
  std::unique_ptr<ChildProcess> process_;
  int port_ = 0;
  std::string url_;
};

}  // namespace convcheck::test
