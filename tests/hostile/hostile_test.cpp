// The real convcheck binary against the hostile test webhook (tests/hostile), one misbehaviour at
// a time: convcheck must end with the exit code of SPEC §7, a one-line explanation, a well-formed
// JUnit file whenever testing started, within a few --timeout and with bounded memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>

#include <pugixml.hpp>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/child_process.h"
#include "tests/support/sanitizer.h"
#include "tests/support/test_pki.h"

#ifndef HOSTILE_WEBHOOK_BIN
#error "HOSTILE_WEBHOOK_BIN must be defined"
#endif
#ifndef CONVCHECK_EXAMPLES_DIR
#error "CONVCHECK_EXAMPLES_DIR must be defined (link convcheck_test_support)"
#endif

namespace convcheck::test {
namespace {

using namespace std::chrono_literals;

constexpr auto kTimeout = 2s;  // --timeout given to convcheck unless a case says otherwise
// "Well under 1 GiB"; under ASan its shadow memory and quarantine come on top, and code is slower.
constexpr long kMaxRssKiB = (kUnderAddressSanitizer ? 1536L : 512L) * 1024;
constexpr int kSlowdown = kUnderAddressSanitizer ? 3 : 1;

std::string cronTabCrd() {
  return std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/crontabs.stable.example.com.yaml";
}

// The hostile-webhook process on 127.0.0.1 with a fresh PKI (TLS unless `plainHttp`).
class HostileWebhook {
 public:
  HostileWebhook(const std::string& mode, ServerCertVariant cert, bool plainHttp)
      : pki_(TestPkiOptions{cert}) {
    std::vector<std::string> argv = {HOSTILE_WEBHOOK_BIN, "--mode", mode};
    if (!plainHttp)
      argv.insert(argv.end(), {"--cert", pki_.serverCertFile(), "--key", pki_.serverKeyFile()});
    process_ = std::make_unique<ChildProcess>(argv);
    auto line =
        process_->waitForLine(std::regex(R"(^listening on https?://127\.0\.0\.1:(\d+)$)"), 60s);
    if (!line) throw std::runtime_error("hostile-webhook did not start: " + process_->stderrText());
    port_ = std::stoi((*line)[1]);
  }
  // The URL convcheck is given: https:// unless `scheme` says otherwise.
  std::string url(const std::string& scheme = "https") const {
    return scheme + "://127.0.0.1:" + std::to_string(port_) + "/convert";
  }
  const TestPki& pki() const { return pki_; }
  bool alive() { return process_->running(); }

 private:
  TestPki pki_;
  std::unique_ptr<ChildProcess> process_;
  int port_ = 0;
};

struct HostileCase {
  std::string mode;
  int exitCode;
  std::string explanation;            // must appear in convcheck's output (stdout + stderr)
  std::vector<std::string> failed{};  // properties that must be among the failures
  ServerCertVariant cert = ServerCertVariant::Valid;
  bool plainHttpServer = false;
  std::string name{};                       // test name suffix when the mode is reused
  std::chrono::seconds timeout = kTimeout;  // --timeout given to convcheck
};

void PrintTo(const HostileCase& c, std::ostream* os) { *os << (c.name.empty() ? c.mode : c.name); }

std::string caseName(const HostileCase& c) {
  std::string name = c.name.empty() ? c.mode : c.name;
  for (auto& ch : name)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

bool wellFormedJunit(const std::string& text, std::string& why) {
  pugi::xml_document doc;
  auto parsed = doc.load_string(text.c_str());
  if (!parsed) {
    why = parsed.description();
    return false;
  }
  auto root = doc.document_element();
  if (std::string(root.name()) != "testsuites") {
    why = std::string("root element is <") + root.name() + ">";
    return false;
  }
  return true;
}

// The line of `text` containing `needle` (for the explanation check), or "".
std::string lineWith(const std::string& text, const std::string& needle) {
  auto at = text.find(needle);
  if (at == std::string::npos) return "";
  auto start = text.rfind('\n', at);
  auto end = text.find('\n', at);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

class HostileWebhookCase : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileWebhookCase, EndsWithTheRightExitCodeAnExplanationAndBoundedTimeAndMemory) {
  const HostileCase& c = GetParam();
  HostileWebhook hook(c.mode, c.cert, c.plainHttpServer);
  const auto started = std::chrono::steady_clock::now();
  // One case in flight: the memory bound is per answer (--jobs N holds up to N answers at once).
  auto r = runConvcheck({"run", "--crd", cronTabCrd(), "--url", hook.url(), "--ca-file",
                         hook.pki().caFile(), "--timeout", std::to_string(c.timeout.count()) + "s",
                         "--tests", "2", "--seed", "1", "--jobs", "1"},
                        "", 180s);
  const auto elapsed = std::chrono::steady_clock::now() - started;
  const std::string output = r.out + r.err;

  ASSERT_TRUE(r.status.exited) << r.status.describe() << "\n" << output;
  EXPECT_EQ(r.err.find("AddressSanitizer"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("runtime error:"), std::string::npos) << r.err;
  EXPECT_EQ(r.status.code, c.exitCode) << output;
  const std::string line = lineWith(output, c.explanation);
  EXPECT_FALSE(line.empty()) << "no line explains \"" << c.explanation << "\" in:\n" << output;
  EXPECT_LT(line.size(), 2000u) << "the explanation is one readable line";
  auto failed = r.failedProperties();
  for (const auto& property : c.failed)
    EXPECT_NE(std::find(failed.begin(), failed.end(), property), failed.end())
        << property << " should fail\n"
        << output;
  if (c.exitCode == 0) {
    EXPECT_TRUE(failed.empty()) << output;
  }

  if (c.exitCode == 0 || c.exitCode == 1) {
    std::string why;
    EXPECT_TRUE(wellFormedJunit(r.junit, why)) << why << "\n" << r.junit.substr(0, 2000);
    EXPECT_NE(r.junit.find("<testcase"), std::string::npos);
    EXPECT_TRUE(r.json.is_object()) << "the JSON report is written";
  }
  // Every call is bounded by --timeout. Against a webhook that never answers: the 4 generated
  // cases (2 per pair), then per failing pair a shrink that gives up after 2 failed calls, and
  // the TLS inspection: 9 timeouts. Anything else ends within one or two.
  EXPECT_LT(elapsed, 15 * c.timeout * kSlowdown)
      << "took " << std::chrono::duration<double>(elapsed).count() << " s";
  EXPECT_GT(r.status.maxRssKiB, 0);
  EXPECT_LT(r.status.maxRssKiB, kMaxRssKiB) << "peak RSS " << r.status.maxRssKiB / 1024 << " MiB";
  EXPECT_TRUE(hook.alive()) << "the hostile server itself must survive the run";
  RecordProperty("seconds", std::to_string(std::chrono::duration<double>(elapsed).count()));
  RecordProperty("maxRssMiB", std::to_string(r.status.maxRssKiB / 1024));
  std::printf("[ hostile ] %-22s exit %d  %.1f s  peak RSS %ld MiB\n", c.mode.c_str(),
              r.status.code, std::chrono::duration<double>(elapsed).count(),
              r.status.maxRssKiB / 1024);
}

const char* const kEnvelope = "response-envelope";
const char* const kComplexityCap = "JSON values (the response complexity cap";
const char* const kNestingCap = "levels (the response nesting cap)";

// clang-format off
std::vector<HostileCase> hostileCases() {
  return {
        HostileCase{"correct", 0, "tls"},
        // The webhook took the request but did not answer what kube-apiserver accepts: exit 1.
        HostileCase{"random-bytes", 1, "Protocol:", {kEnvelope}},
        HostileCase{"random-body", 1, "kube-apiserver rejects this", {kEnvelope}},
        HostileCase{"json-cut-in-half", 1, "unexpected end of JSON input", {kEnvelope}},
        HostileCase{"empty-200", 1, "0-length response with status code: 200", {kEnvelope}},
        HostileCase{"status-204", 1, "0-length response with status code: 204", {kEnvelope}},
        HostileCase{"html-500", 1, "Internal Server Error", {kEnvelope}},
        HostileCase{"text-422", 1, "the server rejected our request due to an error", {kEnvelope}},
        HostileCase{"endless-body", 1, "Too large", {kEnvelope}},
        HostileCase{"content-length-lie", 1, "Too large", {kEnvelope}},
        HostileCase{"content-length-short", 1, "Protocol:", {kEnvelope}},
        HostileCase{"slowloris", 1, "Timeout:", {"timeout"}},
        HostileCase{"never-answer", 1, "Timeout:", {"timeout"}},
        HostileCase{"silent-after-request", 1, "Timeout:", {"timeout"}},
        HostileCase{"tcp-reset", 1, "Protocol:", {kEnvelope}},
        HostileCase{"close-after-headers", 1, "Protocol:", {kEnvelope}},
        HostileCase{"deep-nesting", 1, kNestingCap, {kEnvelope}},
        HostileCase{"deeper-than-go", 1, kNestingCap, {kEnvelope}},
        HostileCase{"deep-nesting-array", 1, kNestingCap, {kEnvelope}},
        HostileCase{"deep-yaml", 1, "error converting YAML to JSON", {kEnvelope}},
        HostileCase{"yaml-alias-bomb", 1, "document contains excessive aliasing", {kEnvelope}},
        HostileCase{"huge-numbers", 1, "cannot unmarshal number", {kEnvelope}},
        HostileCase{"invalid-utf8", 1, "round-trip"},
        HostileCase{"duplicate-keys", 0, "tls"},
        HostileCase{"nan-infinity", 1, "json parse error: invalid character", {kEnvelope}},
        HostileCase{"redirect-307", 0, "tls"},
        HostileCase{"redirect-308", 0, "tls"},
        HostileCase{"redirect-302", 1, "does not allow this method", {kEnvelope}},
        HostileCase{"redirect-loop", 1, "stopped after 10 redirects", {kEnvelope}},
        HostileCase{"gzip-bomb", 1, "Too large", {kEnvelope}},
        HostileCase{"million-objects", 1, kComplexityCap, {kEnvelope}},
        HostileCase{"many-objects", 1, "returned 40000 objects, expected", {"object-count"}},
        // 15 MiB must arrive within the timeout: seconds through ASan on a busy machine. The
        // subject is the memory it costs, not the speed.
        HostileCase{"padded-answer", 0, "tls", {}, ServerCertVariant::Valid, false, "", 10s},
        HostileCase{"wide-object", 1, "no-pruned-fields", {"no-pruned-fields"}},
        HostileCase{"deep-valid", 1, "no-pruned-fields", {"no-pruned-fields"}},
        HostileCase{"answer-once", 1, "response-envelope", {kEnvelope}},
        // Certificates: what OpenSSL and Go both refuse stops everything (exit 3); what only Go
        // refuses is the tls property (exit 1). A plain HTTP server on an https:// URL: exit 3.
        HostileCase{"correct", 3, "TLS:", {}, ServerCertVariant::WrongSan, false, "wrong-san"},
        HostileCase{"correct", 1, "legacy Common Name field", {"tls"}, ServerCertVariant::CnOnly,
                    false, "cn-only"},
        HostileCase{"correct", 3, "TLS:", {}, ServerCertVariant::Expired, false, "expired"},
        HostileCase{"correct", 3, "TLS:", {}, ServerCertVariant::UnknownCa, false, "unknown-ca"},
        HostileCase{"correct", 3, "TLS:", {}, ServerCertVariant::Valid, true,
                    "plain-http-on-https-url"},
        HostileCase{"reset-on-accept", 3, "could not reach the webhook"}};
}
// clang-format on

INSTANTIATE_TEST_SUITE_P(Modes, HostileWebhookCase, ::testing::ValuesIn(hostileCases()),
                         [](const auto& info) { return caseName(info.param); });

// Every mode of the hostile webhook has a case above, and every case names a mode.
TEST(HostileWebhookCatalogue, EveryModeHasACase) {
  ChildProcess lister({HOSTILE_WEBHOOK_BIN, "--list-modes"});
  ASSERT_TRUE(lister.wait(30s));
  std::set<std::string> modes, tested;
  std::istringstream lines(lister.stdoutText());
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) modes.insert(line);
  for (const auto& c : hostileCases()) tested.insert(c.mode);
  EXPECT_GE(modes.size(), 30u);
  EXPECT_EQ(modes, tested);
}

}  // namespace
}  // namespace convcheck::test
