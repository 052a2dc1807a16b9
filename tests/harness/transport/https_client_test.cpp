// HttpsClient against real HTTPS servers on 127.0.0.1: what goes on the wire, and how each
// network failure is reported.
#include "harness/transport/https_client.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/harness/transport/test_https_server.h"
#include "tests/harness/transport/test_pki.h"

namespace convcheck {
namespace {

using namespace std::chrono_literals;
using testing::answerJson;
using testing::ServerTls;
using testing::TestHttpsServer;
using testing::TransportPki;

const TransportPki& pki() { return TransportPki::instance(); }

ServerTls serving(const testing::CertKey& pair) {
  return testing::servingCert(pair.cert, pair.key);
}

TransportOptions trustingTestCa() {
  TransportOptions options;
  options.tls.caFile = pki().caFile;
  return options;
}

std::size_t headerCount(const testing::SeenRequest& request, const std::string& name) {
  return request.headers.count(name);
}

std::string header(const testing::SeenRequest& request, const std::string& name) {
  const auto it = request.headers.find(name);
  return it == request.headers.end() ? "<absent>" : it->second;
}

TEST(HttpsClient, SendsThePostKubeApiserverSends) {
  TestHttpsServer server(serving(pki().server), answerJson(R"({"ok":true})"));
  HttpsClient client(trustingTestCa());
  const std::string body = "{\"kind\":\"ConversionReview\",\"pad\":\"" + std::string(4096, 'x') +
                           "\"}";  // > 1 KiB: libcurl would add Expect: 100-continue by default

  const HttpResult result = client.post(server.url("/convert"), body);

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.body, R"({"ok":true})");
  EXPECT_EQ(result.contentType, "application/json");
  EXPECT_EQ(result.url, server.url("/convert?timeout=30s"));
  ASSERT_EQ(server.requests().size(), 1u);
  const auto seen = server.requests()[0];
  EXPECT_EQ(seen.method, "POST");
  EXPECT_EQ(seen.target, "/convert?timeout=30s");
  EXPECT_EQ(seen.version, "HTTP/1.1");
  EXPECT_EQ(header(seen, "Content-Type"), "application/json");
  EXPECT_EQ(headerCount(seen, "Content-Type"), 1u);
  EXPECT_EQ(header(seen, "Accept"), "application/json, */*");
  EXPECT_EQ(header(seen, "User-Agent"), "kube-apiserver-admission");
  EXPECT_EQ(header(seen, "Accept-Encoding"), "gzip");
  EXPECT_EQ(headerCount(seen, "Expect"), 0u);
  EXPECT_EQ(header(seen, "Content-Length"), std::to_string(body.size()));
  EXPECT_EQ(seen.body, body);
  EXPECT_EQ(seen.clientCertCn, "");
  EXPECT_GT(result.elapsed.count(), 0);
}

TEST(HttpsClient, AppendsTheTimeoutAsAGoDurationAfterAnExistingQuery) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TransportOptions options = trustingTestCa();
  options.timeout = 1500ms;
  options.userAgent = "convcheck/test";
  HttpsClient client(options);

  const HttpResult result = client.post(server.url("/convert?crd=widgets"), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  const auto seen = server.requests().at(0);
  EXPECT_EQ(seen.target, "/convert?crd=widgets&timeout=1.5s");
  EXPECT_EQ(header(seen, "User-Agent"), "convcheck/test");
}

TEST(HttpsClient, OmitsTheTimeoutQueryWhenDisabled) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TransportOptions options = trustingTestCa();
  options.appendTimeoutQuery = false;
  HttpsClient client(options);

  ASSERT_TRUE(client.post(server.url("/convert"), "{}").ok());
  EXPECT_EQ(server.requests().at(0).target, "/convert");
}

TEST(HttpsClient, RequestUrlBuildsTheQueryLikeClientGo) {
  TransportOptions options;
  options.timeout = 90s;
  EXPECT_EQ(requestUrl("https://h/convert", options), "https://h/convert?timeout=1m30s");
  EXPECT_EQ(requestUrl("https://h/c?a=b", options), "https://h/c?a=b&timeout=1m30s");
  EXPECT_EQ(requestUrl("https://h/c?", options), "https://h/c?timeout=1m30s");
  options.timeout = 0ms;  // Go: no timeout, no query parameter
  EXPECT_EQ(requestUrl("https://h/c", options), "https://h/c");
}

TEST(HttpsClient, Http2OptionStillTalksToAnHttp11OnlyServer) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TransportOptions options = trustingTestCa();
  options.http2 = true;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(server.requests().at(0).version, "HTTP/1.1");
}

TEST(HttpsClient, DecodesGzipAnswers) {
  const std::string json = R"({"kind":"ConversionReview","response":{"uid":"u"}})";
  TestHttpsServer server(
      serving(pki().server), [json](const httplib::Request&, httplib::Response& response) {
        response.set_header("Content-Encoding", "gzip");
        response.set_content(testing::gzipCompress(json), "application/octet-stream");
      });
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url(), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.body, json);
}

TEST(HttpsClient, ReusesOneConnectionAcrossPosts) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  HttpsClient client(trustingTestCa());

  ASSERT_TRUE(client.post(server.url(), "{}").ok());
  ASSERT_TRUE(client.post(server.url(), "{}").ok());
  ASSERT_TRUE(client.post(server.url(), "{}").ok());

  const auto seen = server.requests();
  ASSERT_EQ(seen.size(), 3u);
  std::set<int> connections;
  for (const auto& request : seen) connections.insert(request.remotePort);
  EXPECT_EQ(connections.size(), 1u);
}

TEST(HttpsClient, AcceptsTheCaAsPemText) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TransportOptions options;
  options.tls.caPem = pki().caPem;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.status, 200);
}

TEST(HttpsClient, RejectsAServerFromAnUnknownCaAsTls) {
  TestHttpsServer server(serving(pki().unknownCa), answerJson("{}"));
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url("/convert"), "{}");

  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Tls);
  EXPECT_EQ(result.status, 0);
  EXPECT_NE(result.transportError.find("certificate verify failed"), std::string::npos)
      << result.transportError;
  EXPECT_NE(result.transportError.find(server.url("/convert")), std::string::npos);
  EXPECT_NE(result.transportError.find("--ca-file"), std::string::npos);
  EXPECT_EQ(result.transportError.find('\n'), std::string::npos);
  EXPECT_TRUE(server.requests().empty());
}

TEST(HttpsClient, RejectsAnExpiredCertificateAsTls) {
  TestHttpsServer server(serving(pki().expired), answerJson("{}"));
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Tls) << result.transportError;
  EXPECT_NE(result.transportError.find("expired"), std::string::npos) << result.transportError;
}

TEST(HttpsClient, RejectsTheSystemRootsWhenNoCaIsGiven) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  HttpsClient client(TransportOptions{});

  EXPECT_EQ(client.post(server.url(), "{}").transportErrorKind, TransportErrorKind::Tls);
}

// libcurl+OpenSSL still fall back to the Common Name; Go (kube-apiserver) does not. The transport
// talks to such a webhook so conversion can be tested, and inspectServerTls reports the
// certificate (see TlsInspect.RejectsACommonNameOnlyCertificateThatOpenSslVerifies).
TEST(HttpsClient, ReachesACommonNameOnlyServerThatKubeApiserverWouldRefuse) {
  TestHttpsServer server(serving(pki().cnOnly), answerJson("{}"));
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.status, 200);
}

TEST(HttpsClient, InsecureSkipVerifyAcceptsAnUnknownCa) {
  TestHttpsServer server(serving(pki().unknownCa), answerJson("{}"));
  TransportOptions options;
  options.tls.insecureSkipVerify = true;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.status, 200);
}

TEST(HttpsClient, ServerNameIsVerifiedSentAsSniAndHostWhileConnectingToTheUrl) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TransportOptions options = trustingTestCa();
  options.tls.serverName = "webhook.convcheck.svc";
  HttpsClient client(options);

  const HttpResult result = client.post(server.url("/convert"), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.url, server.url("/convert?timeout=30s"));
  const auto seen = server.requests().at(0);
  EXPECT_EQ(seen.sni, "webhook.convcheck.svc");
  EXPECT_EQ(header(seen, "Host"), "webhook.convcheck.svc:" + std::to_string(server.port()));
}

TEST(HttpsClient, ServerNameNotInTheCertificateIsATlsError) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TransportOptions options = trustingTestCa();
  options.tls.serverName = "other.convcheck.svc";
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Tls) << result.transportError;
  EXPECT_TRUE(server.requests().empty());
}

TEST(HttpsClient, PresentsTheClientCertificateWhenConfigured) {
  ServerTls tls = serving(pki().server);
  tls.clientCaFile = pki().caFile;
  TestHttpsServer server(tls, answerJson("{}"));
  TransportOptions options = trustingTestCa();
  options.tls.certFile = pki().client.cert;
  options.tls.keyFile = pki().client.key;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(server.requests().at(0).clientCertCn, "convcheck-client");
}

TEST(HttpsClient, MissingClientCertificateIsATlsError) {
  ServerTls tls = serving(pki().server);
  tls.clientCaFile = pki().caFile;
  TestHttpsServer server(tls, answerJson("{}"));
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Tls) << result.transportError;
  EXPECT_TRUE(server.requests().empty());
}

TEST(HttpsClient, ConnectionRefusedIsAConnectError) {
  const int port = testing::closedPort();
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/convert";
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(url, "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Connect) << result.transportError;
  EXPECT_NE(result.transportError.find(url), std::string::npos) << result.transportError;
  EXPECT_EQ(result.status, 0);
}

TEST(HttpsClient, ASlowWebhookTimesOutWithinTheTimeout) {
  TestHttpsServer* self = nullptr;
  TestHttpsServer server(serving(pki().server),
                         [&self](const httplib::Request&, httplib::Response& response) {
                           self->holdUntilShutdown(10s);
                           response.set_content("{}", "application/json");
                         });
  self = &server;
  TransportOptions options = trustingTestCa();
  options.timeout = 300ms;
  HttpsClient client(options);

  const auto started = std::chrono::steady_clock::now();
  const HttpResult result = client.post(server.url(), "{}");
  const auto took = std::chrono::steady_clock::now() - started;

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Timeout) << result.transportError;
  EXPECT_NE(result.transportError.find("300ms"), std::string::npos) << result.transportError;
  EXPECT_GE(took, 250ms);
  EXPECT_LT(took, 2s);
  EXPECT_EQ(server.requests().at(0).target, "/convert?timeout=300ms");
}

TEST(HttpsClient, AnAnswerBeyondTheSizeCapIsTooLarge) {
  TestHttpsServer server(serving(pki().server), answerJson(std::string(5u << 20, 'x')));
  TransportOptions options = trustingTestCa();
  options.maxResponseBytes = 1u << 20;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::TooLarge) << result.transportError;
  EXPECT_TRUE(result.body.empty());
  EXPECT_LT(result.body.capacity(), 1024u) << "what arrived before the cap is freed";
}

// An exchange keeps the answer for its reports: at its size, not at the capacity the text grew to
// while it arrived in pieces.
TEST(HttpsClient, AReceivedBodyIsKeptAtItsSize) {
  const std::string big = "\"" + std::string((3u << 20) + 12345, 'x') + "\"";
  TestHttpsServer server(serving(pki().server), answerJson(big));
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url(), "{}");

  ASSERT_TRUE(result.transportError.empty()) << result.transportError;
  ASSERT_EQ(result.body, big);
  EXPECT_EQ(result.body.capacity(), result.body.size());
}

TEST(HttpsClient, AChunkedAnswerBeyondTheSizeCapIsTooLarge) {
  TestHttpsServer server(serving(pki().server),
                         [](const httplib::Request&, httplib::Response& response) {
                           response.set_chunked_content_provider(
                               "application/json", [](std::size_t, httplib::DataSink& sink) {
                                 const std::string chunk(64u << 10, 'y');
                                 for (int i = 0; i < 80 && sink.is_writable(); ++i) {
                                   sink.write(chunk.data(), chunk.size());
                                 }
                                 sink.done();
                                 return true;
                               });
                         });
  TransportOptions options = trustingTestCa();
  options.maxResponseBytes = 1u << 20;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::TooLarge) << result.transportError;
}

TEST(HttpsClient, TheSizeCapAppliesAfterGzipDecoding) {
  const std::string compressed = testing::gzipCompress(std::string(5u << 20, 'z'));
  ASSERT_LT(compressed.size(), 64u << 10);
  TestHttpsServer server(serving(pki().server),
                         [compressed](const httplib::Request&, httplib::Response& response) {
                           response.set_header("Content-Encoding", "gzip");
                           response.set_content(compressed, "application/octet-stream");
                         });
  TransportOptions options = trustingTestCa();
  options.maxResponseBytes = 1u << 20;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::TooLarge) << result.transportError;
  EXPECT_NE(result.transportError.find("gzip"), std::string::npos) << result.transportError;
}

std::string zeros(std::size_t n) {
  std::string text = "[0";
  for (std::size_t i = 1; i < n; ++i) text += ",0";
  return text + "]";
}

TEST(HttpsClient, AnAnswerWithMoreJsonValuesThanTheComplexityCapIsTooLarge) {
  TestHttpsServer server(serving(pki().server), answerJson(zeros(2000)));
  TransportOptions options = trustingTestCa();
  options.maxResponseValues = 1000;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url("/convert"), "{}");

  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::TooLarge);
  EXPECT_NE(result.transportError.find("1000 JSON values"), std::string::npos)
      << result.transportError;
  EXPECT_EQ(result.body, "");
}

TEST(HttpsClient, AnAnswerNestedDeeperThanTheNestingCapIsTooLarge) {
  TestHttpsServer server(serving(pki().server),
                         answerJson("{\"a\":" + std::string(50, '[') + std::string(50, ']') + "}"));
  TransportOptions options = trustingTestCa();
  options.maxResponseDepth = 40;
  HttpsClient client(options);

  const HttpResult deep = client.post(server.url("/convert"), "{}");
  EXPECT_EQ(deep.transportErrorKind, TransportErrorKind::TooLarge);
  EXPECT_NE(deep.transportError.find("nests deeper than 40 levels"), std::string::npos)
      << deep.transportError;

  options.maxResponseDepth = 60;
  HttpsClient roomier(options);
  EXPECT_TRUE(roomier.post(server.url("/convert"), "{}").ok());
}

TEST(HttpsClient, TheComplexityCapGrowsWithTheRequest) {
  TestHttpsServer server(serving(pki().server), answerJson(zeros(2000)));
  TransportOptions options = trustingTestCa();
  options.maxResponseValues = 1000;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url("/convert"), zeros(600));  // 4 x 600 > 2000

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.body, zeros(2000));
}

TEST(HttpsClient, CommasInsideStringsDoNotCountTowardsTheComplexityCap) {
  const std::string body = R"({"s":")" + std::string(5000, ',') + R"("})";
  TestHttpsServer server(serving(pki().server), answerJson(body));
  TransportOptions options = trustingTestCa();
  options.maxResponseValues = 1000;
  HttpsClient client(options);

  const HttpResult result = client.post(server.url("/convert"), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.body, body);
}

TEST(HttpsClient, ReturnsNon2xxStatusesAsResponses) {
  TestHttpsServer server(serving(pki().server),
                         [](const httplib::Request&, httplib::Response& response) {
                           response.status = 500;
                           response.set_content("boom", "text/plain");
                         });
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url(), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.status, 500);
  EXPECT_EQ(result.body, "boom");
  EXPECT_EQ(result.contentType, "text/plain");
}

// Redirects: /hop/N answers `status` with Location /hop/N-1; /hop/0 answers {"ok":true}.
testing::Handler hops(int status) {
  return [status](const httplib::Request& request, httplib::Response& response) {
    const int n = std::stoi(request.path.substr(std::string("/hop/").size()));
    if (n == 0) {
      response.set_content(R"({"ok":true})", "application/json");
      return;
    }
    response.status = status;
    response.set_header("Location", "/hop/" + std::to_string(n - 1));
  };
}

TEST(HttpsClient, Follows307And308ByRepeatingThePostWithItsBody) {
  for (int status : {307, 308}) {
    TestHttpsServer server(serving(pki().server), hops(status));
    HttpsClient client(trustingTestCa());

    const HttpResult result = client.post(server.url("/hop/1"), R"({"kind":"ConversionReview"})");

    ASSERT_TRUE(result.ok()) << status << ": " << result.transportError;
    EXPECT_EQ(result.status, 200);
    EXPECT_EQ(result.body, R"({"ok":true})");
    const auto seen = server.requests();
    ASSERT_EQ(seen.size(), 2u) << status;
    EXPECT_EQ(seen[1].method, "POST") << status;
    EXPECT_EQ(seen[1].path, "/hop/0");
    EXPECT_EQ(seen[1].body, R"({"kind":"ConversionReview"})") << status;
  }
}

TEST(HttpsClient, Follows301302And303AsAGetWithoutBodyAsGoDoes) {
  for (int status : {301, 302, 303}) {
    TestHttpsServer server(serving(pki().server), hops(status));
    HttpsClient client(trustingTestCa());

    const HttpResult result = client.post(server.url("/hop/1"), R"({"kind":"ConversionReview"})");

    ASSERT_TRUE(result.ok()) << status << ": " << result.transportError;
    const auto seen = server.requests();
    ASSERT_EQ(seen.size(), 2u) << status;
    EXPECT_EQ(seen[1].method, "GET") << status;
    EXPECT_EQ(seen[1].body, "") << status;
  }
}

TEST(HttpsClient, FollowsNineRedirectsAndRefusesTheTenthLikeGo) {
  TestHttpsServer server(serving(pki().server), hops(307));
  HttpsClient client(trustingTestCa());

  const HttpResult nine = client.post(server.url("/hop/9"), "{}");
  ASSERT_TRUE(nine.ok()) << nine.transportError;
  EXPECT_EQ(nine.body, R"({"ok":true})");
  EXPECT_EQ(server.requests().size(), 10u);

  const HttpResult ten = client.post(server.url("/hop/10"), "{}");
  EXPECT_FALSE(ten.ok());
  EXPECT_EQ(ten.transportErrorKind, TransportErrorKind::Protocol);
  EXPECT_NE(ten.transportError.find("stopped after 10 redirects"), std::string::npos)
      << ten.transportError;
  EXPECT_EQ(server.requests().size(), 20u) << "Go sends 10 requests before giving up";
}

TEST(HttpsClient, ARedirectLoopEndsAsAProtocolError) {
  TestHttpsServer server(serving(pki().server),
                         [](const httplib::Request&, httplib::Response& response) {
                           response.status = 307;
                           response.set_header("Location", "/convert");
                         });
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url("/convert"), "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Protocol) << result.transportError;
  EXPECT_LE(server.requests().size(), 10u);
}

TEST(HttpsClient, ARedirectWithoutLocationIsTheAnswer) {
  TestHttpsServer server(
      serving(pki().server),
      [](const httplib::Request&, httplib::Response& response) { response.status = 307; });
  HttpsClient client(trustingTestCa());

  const HttpResult result = client.post(server.url("/convert"), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.status, 307);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(HttpsClient, SpeaksPlainHttpToHttpUrls) {
  TestHttpsServer server(answerJson(R"({"plain":true})"));
  HttpsClient client(TransportOptions{});

  const HttpResult result = client.post(server.url("/convert"), "{}");

  ASSERT_TRUE(result.ok()) << result.transportError;
  EXPECT_EQ(result.body, R"({"plain":true})");
  EXPECT_EQ(server.requests().at(0).target, "/convert?timeout=30s");
}

TEST(HttpsClient, HttpsToAPlainHttpServerIsATlsError) {
  TestHttpsServer server(answerJson("{}"));
  HttpsClient client(TransportOptions{});
  const std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/convert";

  const HttpResult result = client.post(url, "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Tls) << result.transportError;
}

TEST(HttpsClient, PlainHttpToATlsServerIsAProtocolError) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  HttpsClient client(TransportOptions{});
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/convert";

  const HttpResult result = client.post(url, "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Protocol) << result.transportError;
}

TEST(HttpsClient, AMalformedUrlIsReportedNotThrown) {
  HttpsClient client(TransportOptions{});

  const HttpResult result = client.post("ftp://127.0.0.1/convert", "{}");

  EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Other);
  EXPECT_NE(result.transportError.find("ftp://127.0.0.1/convert"), std::string::npos);
}

TEST(HttpsClient, RecoversAfterAFailedCall) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  HttpsClient client(trustingTestCa());

  EXPECT_FALSE(
      client.post("https://127.0.0.1:" + std::to_string(testing::closedPort()), "{}").ok());
  const HttpResult result = client.post(server.url(), "{}");

  EXPECT_TRUE(result.ok()) << result.transportError;
}

}  // namespace
}  // namespace convcheck
