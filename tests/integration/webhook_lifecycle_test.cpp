// The webhook's life around a run, on the real binary: `convcheck certs` makes a certificate
// kube-apiserver would accept, --wait waits for a webhook that starts late, `run -- COMMAND`
// starts (and stops) the webhook itself, service references are reached at their path, and
// bundles keep working once the report directory is moved elsewhere.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>
#include <thread>

#include <openssl/evp.h>

#include "harness/transport/endpoint_wait.h"
#include "harness/transport/https_client.h"
#include "harness/transport/tls_inspect.h"
#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;

using Scratch = ScratchDir;
ConvcheckResult runBinary(std::vector<std::string> args, const std::string& workingDir = "") {
  return runConvcheckExactly(std::move(args), workingDir);
}

std::string textOf(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string unbase64(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '=')) text.pop_back();
  std::string padded = text + std::string((4 - text.size() % 4) % 4, '=');
  std::string out(padded.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(padded.data()),
                          static_cast<int>(padded.size()));
  if (n < 0) return "";
  out.resize(static_cast<std::size_t>(n) - (padded.size() - text.size()));
  return out;
}

int freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// The example webhook serving `cert`/`key` on 127.0.0.1:port (0: any); the port it listens on.
std::unique_ptr<ChildProcess> startExampleWebhook(const std::string& cert, const std::string& key,
                                                  int port, int* listening,
                                                  std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {
      ExampleWebhook::binaryPath(), "--cert", cert, "--key", key, "--host", "127.0.0.1", "--port",
      std::to_string(port)};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto process = std::make_unique<ChildProcess>(argv);
  auto line = process->waitForLine(std::regex(R"(^listening on https://127\.0\.0\.1:(\d+)$)"), 15s);
  if (!line) throw std::runtime_error("example-webhook did not start: " + process->stderrText());
  if (listening) *listening = std::stoi((*line)[1]);
  return process;
}

// A copy of a CRD file with its clientConfig replaced by `clientConfig` (YAML lines at its
// indentation), in `dir`.
std::string crdWithClientConfig(const std::string& crdFile, const fs::path& dir,
                                const std::string& clientConfig) {
  std::string text = textOf(crdFile);
  const std::string from = "      clientConfig:\n        url: https://127.0.0.1:8443/convert\n";
  auto at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("unexpected CRD text in " + crdFile);
  text.replace(at, from.size(), "      clientConfig:\n" + clientConfig);
  auto path = dir / fs::path(crdFile).filename();
  std::ofstream(path) << text;
  return path.string();
}

const char* kServiceConfig =
    "        service:\n          name: widget-webhook\n          namespace: system\n"
    "          path: /convert\n";

std::vector<std::string> exampleCommand(std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {"--",     ExampleWebhook::binaryPath(),
                                   "--cert", "{certdir}/tls.crt",
                                   "--key",  "{certdir}/tls.key",
                                   "--host", "127.0.0.1",
                                   "--port", "{port}"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// --- convcheck certs -------------------------------------------------------------------------

TEST(Certs, TheCertificateIsAcceptedByTheApiServerCheckForTheServiceAndServesTheWebhook) {
  Scratch dir;
  const fs::path out = dir.path() / "certs";
  auto r = runBinary({"certs", "--service", "widget-webhook", "--namespace", "system", "--out",
                      out.string(), "--days", "30"});
  ASSERT_EQ(r.status.code, 0) << r.err;
  // stdout is the caBundle: the CA's PEM in base64, one line.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(unbase64(r.out), textOf(out / "ca.crt"));
  EXPECT_NE(r.err.find("widget-webhook.system.svc"), std::string::npos) << r.err;
  EXPECT_EQ(fs::status(out / "tls.key").permissions() & fs::perms::group_read, fs::perms::none);

  int port = 0;
  auto hook = startExampleWebhook((out / "tls.crt").string(), (out / "tls.key").string(), 0, &port);
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/convert";
  TlsOptions tls;
  tls.caFile = (out / "ca.crt").string();
  for (std::string name : {"widget-webhook.system.svc", "widget-webhook.system.svc.cluster.local",
                           "widget-webhook", "widget-webhook.system", "localhost", ""}) {
    tls.serverName = name;
    TlsInspection inspection = inspectServerTls(url, tls, 5s);
    EXPECT_TRUE(inspection.acceptedByKubeApiserver)
        << "for '" << name << "': " << (inspection.reasons.empty() ? "" : inspection.reasons[0]);
  }
  tls.serverName = "other-webhook.system.svc";
  EXPECT_FALSE(inspectServerTls(url, tls, 5s).acceptedByKubeApiserver);

  // A real HTTPS exchange, verified as the run verifies it.
  TransportOptions options;
  options.tls.caFile = (out / "ca.crt").string();
  options.tls.serverName = "widget-webhook.system.svc";
  HttpResult answer = HttpsClient(options).post(url, "{}");
  EXPECT_TRUE(answer.ok()) << answer.transportError;
  EXPECT_GT(answer.status, 0);
}

// --- --wait ----------------------------------------------------------------------------------

TEST(Wait, ARunWaitsForAWebhookThatStartsLate) {
  TestPki pki;
  const int port = freePort();
  auto run = std::async(std::launch::async, [&] {
    return runConvcheck({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url",
                         "https://127.0.0.1:" + std::to_string(port) + "/convert", "--ca-file",
                         pki.caFile(), "--seed", "1", "--tests", "4", "--wait", "30s"});
  });
  std::this_thread::sleep_for(1500ms);  // convcheck meanwhile finds nothing listening
  auto hook = startExampleWebhook(pki.serverCertFile(), pki.serverKeyFile(), port, nullptr);
  auto r = run.get();
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_FALSE(r.json["kinds"][0]["results"].empty()) << r.out;
}

TEST(Wait, AWebhookThatNeverAnswersExitsThreeSayingSo) {
  const std::string url = "https://127.0.0.1:" + std::to_string(freePort()) + "/convert";
  auto started = std::chrono::steady_clock::now();
  auto r = runConvcheck(
      {"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url", url, "--wait", "1500ms"});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_GE(std::chrono::steady_clock::now() - started, 1400ms);
  const std::string said = r.out + r.err;
  EXPECT_NE(said.find("did not answer TLS at " + url + " within --wait 1.5s"), std::string::npos)
      << said;
}

// --- run -- COMMAND --------------------------------------------------------------------------

TEST(Launch, RunStartsTheWebhookWithCertificatesItMadeAndStopsItAfterwards) {
  auto r = runConvcheck(
      plus({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--seed", "1", "--tests", "8"},
           exampleCommand()));
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  const std::string url = r.json["kinds"][0]["url"];
  EXPECT_EQ(url.rfind("https://127.0.0.1:", 0), 0u) << url;
  EXPECT_NE(url.find("/convert"), std::string::npos) << url;
  // The tls property held: the certificate convcheck made is what kube-apiserver accepts.
  bool tlsPassed = false;
  for (const auto& t : r.json["kinds"][0]["results"])
    if (t["property"] == "tls") tlsPassed = t["failed"] == 0 && t["passed"].get<int>() > 0;
  EXPECT_TRUE(tlsPassed) << r.json.dump(1).substr(0, 2000);
  // Stopped: nothing listens there any more.
  EXPECT_FALSE(waitForEndpoint(url, TlsOptions{}, 300ms).ready);
  EXPECT_NE(r.json["command"].get<std::string>().find(" -- "), std::string::npos);
}

TEST(Launch, AFaultOfTheStartedWebhookIsFoundAtAUrlNamingItsPort) {
  auto r = runConvcheck(plus(
      {"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url", "https://localhost:{port}/convert",
       "--seed", "1", "--tests", "8", "--properties", "uid-echo"},
      exampleCommand({"--fault", "uid-not-echoed"})));
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(r.failedProperties(), std::vector<std::string>{"uid-echo"});
  EXPECT_EQ(r.json["kinds"][0]["url"].get<std::string>().rfind("https://localhost:", 0), 0u);
  EXPECT_EQ(r.json["kinds"][0]["url"].get<std::string>().find("{port}"), std::string::npos);
}

TEST(Launch, AWebhookThatExitsBeforeAnsweringExitsThreeWithItsStderr) {
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--", "/bin/sh", "-c",
                         "echo 'cannot load {certdir}/nope.crt' >&2; exit 7"});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  const std::string said = r.out + r.err;
  EXPECT_NE(said.find("exited with code 7"), std::string::npos) << said;
  EXPECT_NE(said.find("cannot load /"), std::string::npos) << said;  // {certdir} replaced
}

TEST(Launch, ACrashDuringTheRunIsReportedWithTheTailOfItsStderr) {
  // The webhook is killed after a second; the shell that started it says so and ends.
  std::string script = "'" + ExampleWebhook::binaryPath() +
                       "' --cert {certdir}/tls.crt --key {certdir}/tls.key --host 127.0.0.1 "
                       "--port {port} --delay-ms 20 & pid=$!; sleep 1; kill -9 $pid; "
                       "echo 'webhook: fatal: out of memory' >&2; exit 9";
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--seed", "1", "--tests",
                         "2000", "--", "/bin/sh", "-c", script});
  EXPECT_NE(r.status.code, 0) << r.out << r.err;
  const std::string all = r.out + r.err + r.json.dump();
  EXPECT_NE(all.find("exited with code 9 during the run"), std::string::npos)
      << all.substr(0, 4000);
  EXPECT_NE(all.find("webhook: fatal: out of memory"), std::string::npos);
}

TEST(Launch, TheNodeWebhookIsStartedLikeAnyCommand) {
  if (std::system("node --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed";
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--seed", "1", "--tests",
                         "8", "--", "node",
                         std::string(CONVCHECK_SOURCE_DIR) + "/tests/webhooks/crontab-webhook.js",
                         "--cert", "{certdir}/tls.crt", "--key", "{certdir}/tls.key", "--host",
                         "127.0.0.1", "--port", "{port}"});
  // It was tested (its float64 parsing is a finding), not unreachable.
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_FALSE(r.json["kinds"][0]["results"].empty());
}

// --- service references ----------------------------------------------------------------------

TEST(ServiceReference, AUrlWithoutPathPostsToTheServicePathAndVerifiesTheServiceName) {
  Scratch dir;
  const std::string crd =
      crdWithClientConfig(ExampleWebhook::widgetCrdPath(), dir.path(), kServiceConfig);
  ExampleWebhookOptions options;
  options.pki.extraDnsNames = {"widget-webhook.system.svc"};
  ExampleWebhook hook(options);
  auto r = runConvcheck({"run", "--crd", crd, "--url", hook.baseUrl(), "--ca-file",
                         hook.pki().caFile(), "--seed", "1", "--tests", "8"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_EQ(r.json["kinds"][0]["url"], hook.baseUrl() + "/convert");
}

TEST(ServiceReference, ACertificateWithoutTheServiceNameSaysWhichNameAndWhichFlag) {
  Scratch dir;
  const std::string crd =
      crdWithClientConfig(ExampleWebhook::widgetCrdPath(), dir.path(), kServiceConfig);
  ExampleWebhook hook;  // SANs 127.0.0.1 and localhost only
  auto r = runConvcheck({"run", "--crd", crd, "--url", hook.baseUrl(), "--ca-file",
                         hook.pki().caFile(), "--seed", "1", "--tests", "8"});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  const std::string said = r.out + r.err;
  EXPECT_NE(said.find("verified for widget-webhook.system.svc as kube-apiserver does"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("--tls-server-name"), std::string::npos) << said;
  // With the flag it names, the same webhook is tested.
  auto named =
      runConvcheck({"run", "--crd", crd, "--url", hook.baseUrl(), "--ca-file", hook.pki().caFile(),
                    "--tls-server-name", "localhost", "--seed", "1", "--tests", "8"});
  EXPECT_EQ(named.status.code, 0) << named.out << named.err;
}

TEST(ServiceReference, AStartedWebhookGetsACertificateForTheService) {
  Scratch dir;
  const std::string crd =
      crdWithClientConfig(ExampleWebhook::widgetCrdPath(), dir.path(), kServiceConfig);
  auto r =
      runConvcheck(plus({"run", "--crd", crd, "--seed", "1", "--tests", "8"}, exampleCommand()));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
}

// --- portable bundles ------------------------------------------------------------------------

TEST(PortableBundle, AMovedReportDirectoryStillReplaysAndItsCurlScriptRuns) {
  Scratch dir;
  ExampleWebhookOptions options;
  options.faults = {"uid-not-echoed"};
  ExampleWebhook hook(options);
  // The CA file given to the run is gone after it: the bundle has its own copy.
  const fs::path ca = dir.path() / "given-ca.pem";
  fs::copy_file(hook.pki().caFile(), ca);
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url", hook.url(),
                         "--ca-file", ca.string(), "--seed", "1", "--tests", "8", "--properties",
                         "uid-echo", "--report-dir", "out"},
                        "", 240s, dir.path().string());
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  // Replay lines name the bundle as the report directory was given: relative.
  EXPECT_NE(r.out.find("replay: convcheck replay out/bundles/"), std::string::npos) << r.out;
  EXPECT_NE(r.junit.find("curl: curl "), std::string::npos) << r.junit;  // the console has none
  std::istringstream lines(r.out + r.junit);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("replay: ") != std::string::npos || line.find("curl: ") != std::string::npos) {
      EXPECT_EQ(line.find(dir.path().string()), std::string::npos) << line;
    }
  }
  fs::remove(ca);
  const fs::path moved = dir.path() / "downloaded";
  fs::create_directories(moved);
  fs::rename(dir.path() / "out", moved / "report");
  fs::path bundle;
  for (const auto& entry : fs::directory_iterator(moved / "report" / "bundles"))
    bundle = entry.path();
  ASSERT_FALSE(bundle.empty());

  const json manifest = json::parse(textOf(bundle / "bundle.json"));
  EXPECT_EQ(manifest["target"]["caFile"], "ca.pem");
  EXPECT_EQ(textOf(bundle / "ca.pem"), hook.pki().caPem());
  const std::string script = textOf(bundle / "curl.sh");
  EXPECT_EQ(script.find(dir.path().string()), std::string::npos) << script;

  // curl.sh from another working directory sends the request: the webhook answers it.
  ChildProcess curl({"/bin/sh", (bundle / "curl.sh").string()}, {{}, "/"});
  auto status = curl.wait(60s);
  ASSERT_TRUE(status && status->success()) << curl.stderrText();
  EXPECT_NE(curl.stdoutText().find("\"ConversionReview\""), std::string::npos)
      << curl.stdoutText() << curl.stderrText();

  auto replay = runBinary({"replay", bundle.string()}, "/");
  EXPECT_EQ(replay.status.code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("still fails"), std::string::npos) << replay.out;

  // Pointed elsewhere (--url), replay waits for a webhook with --wait, then says why it stopped.
  const std::string nowhere = "https://127.0.0.1:" + std::to_string(freePort()) + "/convert";
  auto waited = runBinary({"replay", bundle.string(), "--url", nowhere, "--wait", "500ms"});
  EXPECT_EQ(waited.status.code, 3) << waited.out << waited.err;
  EXPECT_NE(waited.err.find("did not answer TLS at " + nowhere + " within --wait 500ms"),
            std::string::npos)
      << waited.err;
}

TEST(PortableBundle, ABundleOfAStartedWebhookReplaysByStartingItAgainOrAtAGivenUrl) {
  Scratch dir;
  const std::vector<std::string> faulty = exampleCommand({"--fault", "uid-not-echoed"});
  auto r = runConvcheck(plus({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--seed", "1",
                              "--tests", "8", "--properties", "uid-echo", "--report-dir", "out"},
                             faulty),
                        "", 240s, dir.path().string());
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  fs::path bundle;
  for (const auto& entry : fs::directory_iterator(dir.path() / "out" / "bundles"))
    bundle = entry.path();
  ASSERT_FALSE(bundle.empty());
  const json manifest = json::parse(textOf(bundle / "bundle.json"));
  EXPECT_EQ(manifest["target"]["reach"], "command");
  const std::string again = manifest["replay"];
  EXPECT_NE(again.find(" -- " + ExampleWebhook::binaryPath() + " --cert '{certdir}/tls.crt'"),
            std::string::npos)
      << again;
  EXPECT_NE(r.out.find("replay: " + again.substr(0, again.find(" -- ") + 4)), std::string::npos)
      << r.out;
  EXPECT_NE(textOf(bundle / "curl.sh").find(again), std::string::npos);

  // As it is, the bundle's URL is the stopped webhook's port: replay says how to reach it again.
  auto alone = runBinary({"replay", bundle.string()});
  EXPECT_EQ(alone.status.code, 2) << alone.out << alone.err;
  EXPECT_NE(alone.err.find("was a webhook convcheck started for the run"), std::string::npos)
      << alone.err;
  EXPECT_NE(alone.err.find(" -- "), std::string::npos) << alone.err;

  // replay BUNDLE -- COMMAND starts the webhook again: still failing, then fixed.
  auto still = runBinary(plus({"replay", bundle.string()}, faulty));
  EXPECT_EQ(still.status.code, 1) << still.out << still.err;
  EXPECT_NE(still.out.find("still fails"), std::string::npos) << still.out;
  EXPECT_NE(still.out.find("against https://127.0.0.1:"), std::string::npos) << still.out;
  auto fixed = runBinary(plus({"replay", bundle.string()}, exampleCommand()));
  EXPECT_EQ(fixed.status.code, 0) << fixed.out << fixed.err;
  EXPECT_NE(fixed.out.find("passes now"), std::string::npos) << fixed.out;

  // replay BUNDLE --url: a webhook the user started, with certificates of its own.
  TestPki pki;
  int port = 0;
  auto hook = startExampleWebhook(pki.serverCertFile(), pki.serverKeyFile(), 0, &port,
                                  {"--fault", "uid-not-echoed"});
  auto atUrl = runBinary({"replay", bundle.string(), "--url",
                          "https://127.0.0.1:" + std::to_string(port) + "/convert", "--ca-file",
                          pki.caFile()});
  EXPECT_EQ(atUrl.status.code, 1) << atUrl.out << atUrl.err;
  EXPECT_NE(atUrl.out.find("still fails"), std::string::npos) << atUrl.out;

  // Words after the bundle without -- are refused, naming the first of them.
  auto stray = runBinary({"replay", bundle.string(), "extra", "words"});
  EXPECT_EQ(stray.status.code, 2) << stray.out << stray.err;
  EXPECT_NE(stray.err.find("unexpected argument extra (a webhook command to start goes after --)"),
            std::string::npos)
      << stray.err;
}

// The CA of a webhook convcheck started goes with its certificate directory when the run ends:
// the bundle holds it (ca.pem), so that replay and curl.sh can still verify TLS against it.
TEST(PortableBundle, ABundleOfAStartedWebhookHoldsTheCaOfItsCertificates) {
  Scratch dir;
  // The started command keeps a copy of the CA convcheck made for it, then runs the webhook.
  const std::vector<std::string> webhook = exampleCommand({"--fault", "uid-not-echoed"});
  std::vector<std::string> command = {
      "--", "sh", "-c", "cp \"$1\" seen-ca.pem && shift && exec \"$@\"", "sh", "{certdir}/ca.crt"};
  command.insert(command.end(), webhook.begin() + 1, webhook.end());  // after its --
  auto r = runConvcheck(plus({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--seed", "1",
                              "--tests", "8", "--properties", "uid-echo", "--report-dir", "out"},
                             command),
                        "", 240s, dir.path().string());
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  const std::string seen = textOf(dir.path() / "seen-ca.pem");
  ASSERT_NE(seen.find("BEGIN CERTIFICATE"), std::string::npos) << seen;
  fs::path bundle;
  for (const auto& entry : fs::directory_iterator(dir.path() / "out" / "bundles"))
    bundle = entry.path();
  ASSERT_FALSE(bundle.empty());
  ASSERT_TRUE(fs::exists(bundle / "ca.pem")) << bundle;
  EXPECT_EQ(textOf(bundle / "ca.pem"), seen);
  const json manifest = json::parse(textOf(bundle / "bundle.json"));
  EXPECT_EQ(manifest["target"]["caFile"], "ca.pem") << manifest["target"].dump();
  EXPECT_NE(textOf(bundle / "curl.sh").find("--cacert ca.pem"), std::string::npos)
      << textOf(bundle / "curl.sh");
}

}  // namespace
}  // namespace convcheck::test
