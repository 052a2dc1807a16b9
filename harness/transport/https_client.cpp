#include "harness/transport/https_client.h"

#include <curl/curl.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/transport/json_shape.h"
#include "harness/transport/sigpipe.h"
#include "harness/transport/url_parts.h"
#include "kube/go/duration.h"

namespace convcheck {

void ensureCurlGlobalInit() {
  // curl_global_init is not thread-safe and must run once per process before any handle; a
  // function-local static runs it exactly once without exposing a global.
  static const CURLcode initialized = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (initialized != CURLE_OK) {
    throw std::runtime_error(std::string("libcurl initialisation failed: ") +
                             curl_easy_strerror(initialized));
  }
}

namespace {

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

Slist appendHeader(Slist list, const char* header) {
  curl_slist* grown = curl_slist_append(list.get(), header);
  if (grown == nullptr) return list;
  list.release();
  return Slist(grown);
}

// Go's defaultCheckRedirect refuses the 10th redirect: 9 are followed.
constexpr long kMaxRedirectsFollowed = 9;

struct BodySink {
  std::string* body = nullptr;
  std::size_t cap = 0;
  bool tooLarge = false;
};

// Receives the decoded (gzip undone) response body; refusing a chunk aborts the transfer with
// CURLE_WRITE_ERROR, which post() reports as "too-large".
std::size_t writeBody(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<BodySink*>(user);
  const std::size_t length = size * count;
  if (sink->body->size() + length > sink->cap) {
    sink->tooLarge = true;
    return 0;
  }
  sink->body->append(data, length);
  return length;
}

struct Failure {
  TransportErrorKind kind;
  std::string message;
};

std::string oneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// An OpenSSL alert from the peer ("tlsv13 alert certificate required", "alert bad certificate").
bool mentionsTlsAlert(const std::string& detail) {
  return detail.find("alert") != std::string::npos;
}

// The name the serving certificate is verified for: --tls-server-name, else the URL's host.
std::string verifiedName(const std::string& url, const TransportOptions& options) {
  if (!options.tls.serverName.empty()) return options.tls.serverName;
  auto parts = parseUrl(url);
  return parts ? parts->host : url;
}

// What post() knows about the failed transfer besides the curl code. Nothing timing decides
// (whether the request was still being sent when it closed, whether it was reset or ended) is
// read: the same webhook behaviour gets the same kind on every run.
struct TransferFacts {
  bool responseStarted = false;  // a status line arrived
  // The server asked for a client certificate in the handshake of the connection this transfer
  // opened (a reused connection's handshake was an earlier transfer's, and answered then).
  bool certificateRequested = false;
};

// OpenSSL's message callback: `requested` (a bool) is set when a CertificateRequest arrives.
void noteCertificateRequest(int writing, int, int contentType, const void* message,
                            std::size_t length, SSL*, void* requested) {
  if (!writing && contentType == SSL3_RT_HANDSHAKE && length > 0 &&
      static_cast<const unsigned char*>(message)[0] == SSL3_MT_CERTIFICATE_REQUEST)
    *static_cast<bool*>(requested) = true;
}

// libcurl's hook for each new TLS connection's context (OpenSSL's): the handshake is watched for
// a certificate request.
CURLcode watchHandshake(CURL*, void* context, void* requested) {
  *static_cast<bool*>(requested) = false;
  SSL_CTX_set_msg_callback(static_cast<SSL_CTX*>(context), noteCertificateRequest);
  SSL_CTX_set_msg_callback_arg(static_cast<SSL_CTX*>(context), requested);
  return CURLE_OK;
}

Failure classify(CURLcode code, const std::string& errorBuffer, const BodySink& sink,
                 const TransferFacts& facts, const std::string& url,
                 const TransportOptions& options) {
  // libcurl records the first failf() of a transfer; a non-fatal "getpeername() failed" on a
  // connection the server already dropped would otherwise hide the real error.
  const bool usefulBuffer = !errorBuffer.empty() && errorBuffer.rfind("getpeername()", 0) != 0;
  const std::string detail = oneLine(usefulBuffer ? errorBuffer : curl_easy_strerror(code));
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
      return {TransportErrorKind::Connect,
              "Connect: " + detail + " for " + url +
                  " (check that the webhook is running and listening on this host and "
                  "port; for an in-cluster service, use --port-forward or --service-proxy)"};
    case CURLE_OPERATION_TIMEDOUT:
      return {TransportErrorKind::Timeout,
              "Timeout: no complete response within " + formatGoDuration(options.timeout) +
                  " from " + url + " (" + detail +
                  "; kube-apiserver gives up after 30s: check that the webhook answers "
                  "promptly and is reachable)"};
    case CURLE_FILESIZE_EXCEEDED:
      return {TransportErrorKind::TooLarge,
              "Too large: the response from " + url + " is larger than " +
                  std::to_string(options.maxResponseBytes) + " bytes (the response size cap)"};
    case CURLE_WRITE_ERROR:
      if (sink.tooLarge) {
        return {TransportErrorKind::TooLarge,
                "Too large: the response from " + url + " exceeds " +
                    std::to_string(options.maxResponseBytes) +
                    " bytes after gzip decoding (the response size cap)"};
      }
      return {TransportErrorKind::Other, "Error: " + detail + " for " + url};
    case CURLE_PEER_FAILED_VERIFICATION:
      return {TransportErrorKind::Tls,
              "TLS: certificate verify failed (" + detail + ") for " + url +
                  " (the certificate must chain to --ca-file / the CRD's caBundle and hold " +
                  verifiedName(url, options) +
                  " in its subjectAltName; --tls-server-name sets the name verified)"};
    case CURLE_SSL_CACERT_BADFILE:
      return {TransportErrorKind::Tls, "TLS: cannot load the CA certificates (" + detail +
                                           ") for " + url +
                                           " (check that --ca-file / the CRD's caBundle is PEM)"};
    case CURLE_SSL_CERTPROBLEM:
      return {TransportErrorKind::Tls,
              "TLS: client certificate problem (" + detail + ") for " + url +
                  " (check --cert and --key: PEM files that belong together)"};
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
      return {TransportErrorKind::Tls,
              "TLS: handshake failed (" + detail + ") for " + url +
                  " (check that the server speaks HTTPS with TLS >= 1.2, and --cert/--key "
                  "if it requires a client certificate)"};
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
      if (mentionsTlsAlert(detail) || (facts.certificateRequested && !facts.responseStarted)) {
        // With TLS 1.3 a server that refuses the client certificate does so after the client
        // finished its handshake: the client reads the server's alert on first use, or (when the
        // request was still being sent) finds the connection closed. Whether a certificate was
        // asked for is what tells this from a webhook that closes the connection on a request.
        return {TransportErrorKind::Tls,
                "TLS: the server ended the connection after the handshake, in which it asked for a "
                "client certificate (" +
                    detail + ") for " + url +
                    " (check --cert/--key: the server requires a client certificate)"};
      }
      // Whether the request was still being sent, or the close came as a reset or a plain end,
      // is timing: one kind and one reading for all of them.
      if (facts.responseStarted)
        return {TransportErrorKind::Protocol,
                "Protocol: the connection closed in the middle of the answer (" + detail +
                    ") for " + url};
      return {TransportErrorKind::Protocol,
              "Protocol: the connection closed before any answer (" + detail + ") for " + url +
                  " (the server closed or reset it mid-request: a crash, or a cap on request "
                  "bodies; a server that requires a client certificate may also end it so: "
                  "check --cert/--key)"};
    case CURLE_TOO_MANY_REDIRECTS:
      return {TransportErrorKind::Protocol,
              "Protocol: stopped after 10 redirects for " + url +
                  " (kube-apiserver's client follows at most 9 redirects; point the "
                  "URL at the webhook itself)"};
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_PARTIAL_FILE:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return {TransportErrorKind::Protocol,
              "Protocol: " + detail + " for " + url +
                  " (check that the URL scheme matches the server: https:// for TLS, "
                  "http:// for plain HTTP, and that it answers HTTP/1.1)"};
    default:
      return {TransportErrorKind::Other, "Error: " + detail + " for " + url};
  }
}

}  // namespace

std::string requestUrl(const std::string& url, const TransportOptions& options) {
  if (!options.appendTimeoutQuery || options.timeout.count() <= 0) return url;
  const std::size_t fragment = url.find('#');
  std::string base = url.substr(0, fragment);
  const std::string tail = fragment == std::string::npos ? "" : url.substr(fragment);
  if (base.find('?') == std::string::npos) {
    base += '?';
  } else if (base.back() != '?' && base.back() != '&') {
    base += '&';
  }
  return base + "timeout=" + formatGoDuration(options.timeout) + tail;
}

struct HttpsClient::Impl {
  TransportOptions options;
  CURL* handle = nullptr;
  // The server asked for a client certificate in the handshake of the last connection `handle`
  // opened (written by OpenSSL's message callback during curl_easy_perform, on its thread).
  bool certificateRequested = false;

  explicit Impl(TransportOptions opts) : options(std::move(opts)) {
    ensureCurlGlobalInit();
    ignoreSigpipe();
    handle = curl_easy_init();
    if (handle == nullptr) throw std::runtime_error("libcurl: curl_easy_init failed");
  }
  ~Impl() { curl_easy_cleanup(handle); }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  HttpResult post(const std::string& url, const std::string& body);

  // The URL parsed last and its parts: a run posts to one URL, parsed once.
  std::string parsedUrl;
  std::optional<UrlParts> parsedParts;
};

HttpResult HttpsClient::Impl::post(const std::string& url, const std::string& body) {
  HttpResult result;
  result.url = requestUrl(url, options);
  const auto started = std::chrono::steady_clock::now();
  const auto finish = [&](HttpResult& r) -> HttpResult {
    r.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - started);
    return std::move(r);
  };

  if (!parsedParts || url != parsedUrl) {
    std::string whyNot;
    parsedParts = parseUrl(url, &whyNot);
    if (!parsedParts) {
      result.transportErrorKind = TransportErrorKind::Other;
      result.transportError = whyNot;
      return finish(result);
    }
    parsedUrl = url;
  }
  const std::optional<UrlParts>& parts = parsedParts;

  // Keeps live connections, TLS session and DNS caches; clears every option.
  curl_easy_reset(handle);

  std::string target = result.url;
  std::string connectTo;
  Slist connectToList;
  const TlsOptions& tls = options.tls;
  if (!tls.serverName.empty()) {
    const auto rewritten = replaceUrlHost(target, tls.serverName);
    if (!rewritten) {
      result.transportErrorKind = TransportErrorKind::Other;
      result.transportError = "invalid --tls-server-name \"" + tls.serverName + "\" for " + url;
      return finish(result);
    }
    target = *rewritten;
    // "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT": name and verify serverName, dial the URL host.
    connectTo = hostPort(tls.serverName, parts->port) + ":" + hostPort(parts->host, parts->port);
    connectToList = appendHeader(nullptr, connectTo.c_str());
    curl_easy_setopt(handle, CURLOPT_CONNECT_TO, connectToList.get());
  }

  char errorBuffer[CURL_ERROR_SIZE] = {0};
  BodySink sink{&result.body, options.maxResponseBytes, false};

  Slist headers;
  headers = appendHeader(std::move(headers), "Content-Type: application/json");
  headers = appendHeader(std::move(headers), "Accept: application/json, */*");
  headers = appendHeader(std::move(headers), "Expect:");

  curl_easy_setopt(handle, CURLOPT_URL, target.c_str());
  curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, errorBuffer);
  curl_easy_setopt(handle, CURLOPT_POST, 1L);
  curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(handle, CURLOPT_USERAGENT, options.userAgent.c_str());
  curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "gzip");
  // Go's http.Client default redirect policy, which kube-apiserver's webhook client keeps
  // (client-go sets no CheckRedirect): follow; 307/308 repeat the POST with its body, 301/302/303
  // turn it into a GET without body (libcurl's default, CURLOPT_POSTREDIR 0); the 10th redirect
  // response is an error ("stopped after 10 redirects"), so at most 9 are followed. The
  // timeout covers the whole chain, as http.Client.Timeout does.
  curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(handle, CURLOPT_MAXREDIRS, static_cast<long>(kMaxRedirectsFollowed));
  curl_easy_setopt(handle, CURLOPT_POSTREDIR, 0L);
  curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(
      handle, CURLOPT_HTTP_VERSION,
      static_cast<long>(options.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1));
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, writeBody);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &sink);
  if (options.maxResponseBytes > 0) {
    curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(options.maxResponseBytes));
  }
  if (options.timeout.count() > 0) {
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.timeout.count()));
  }
  // Go's ProxyFromEnvironment never proxies loopback addresses; libcurl would.
  if (parts->hostIsLoopback) curl_easy_setopt(handle, CURLOPT_NOPROXY, "*");

  curl_easy_setopt(handle, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
  curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, tls.insecureSkipVerify ? 0L : 1L);
  curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, tls.insecureSkipVerify ? 0L : 2L);
  curl_blob caBlob{};
  if (!tls.caFile.empty()) {
    curl_easy_setopt(handle, CURLOPT_CAINFO, tls.caFile.c_str());
    curl_easy_setopt(handle, CURLOPT_CAPATH, nullptr);
  } else if (!tls.caPem.empty()) {
    caBlob.data = const_cast<char*>(tls.caPem.data());
    caBlob.len = tls.caPem.size();
    caBlob.flags = CURL_BLOB_COPY;
    curl_easy_setopt(handle, CURLOPT_CAINFO_BLOB, &caBlob);
    curl_easy_setopt(handle, CURLOPT_CAPATH, nullptr);
  }
  if (!tls.certFile.empty()) {
    curl_easy_setopt(handle, CURLOPT_SSLCERT, tls.certFile.c_str());
    curl_easy_setopt(handle, CURLOPT_SSLCERTTYPE, "PEM");
  }
  if (!tls.keyFile.empty()) {
    curl_easy_setopt(handle, CURLOPT_SSLKEY, tls.keyFile.c_str());
    curl_easy_setopt(handle, CURLOPT_SSLKEYTYPE, "PEM");
  }

  // Not every TLS backend offers its context (then no certificate request is ever seen).
  curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, watchHandshake);
  curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, &certificateRequested);

  const CURLcode code = curl_easy_perform(handle);
  // Options pointing at locals must not outlive this call (the handle is reset next time anyway).
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, nullptr);
  curl_easy_setopt(handle, CURLOPT_CONNECT_TO, nullptr);

  if (code != CURLE_OK) {
    TransferFacts facts;
    long status = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    facts.responseStarted = status != 0;
    long connects = 0;
    curl_easy_getinfo(handle, CURLINFO_NUM_CONNECTS, &connects);
    facts.certificateRequested = connects > 0 && certificateRequested;
    const Failure failure = classify(code, errorBuffer, sink, facts, url, options);
    result.transportErrorKind = failure.kind;
    result.transportError = failure.message;
    std::string().swap(result.body);  // frees what a failed transfer received
    return finish(result);
  }
  // The value cap is the larger of the fixed one and a multiple of the request's values; the
  // request is counted only when the answer is over the fixed cap (most answers are not).
  std::size_t valueCap = options.maxResponseValues == 0 ? SIZE_MAX : options.maxResponseValues;
  const std::size_t depthCap = options.maxResponseDepth == 0 ? SIZE_MAX : options.maxResponseDepth;
  JsonShape shape = approximateJsonShape(result.body, valueCap, depthCap);
  if (shape.values > valueCap && shape.depth <= depthCap) {
    const std::size_t scaled =
        kResponseValuesPerRequestValue * approximateJsonShape(body, SIZE_MAX, SIZE_MAX).values;
    if (scaled > valueCap) {
      valueCap = scaled;
      shape = approximateJsonShape(result.body, valueCap, depthCap);
    }
  }
  if (shape.values > valueCap || shape.depth > depthCap) {
    result.transportErrorKind = TransportErrorKind::TooLarge;
    result.transportError =
        shape.values > valueCap
            ? "Too large: the response from " + url + " holds more than " +
                  std::to_string(valueCap) +
                  " JSON values (the response complexity cap: the larger of " +
                  std::to_string(options.maxResponseValues) + " and " +
                  std::to_string(kResponseValuesPerRequestValue) + " times the request's)"
            : "Too large: the response from " + url + " nests deeper than " +
                  std::to_string(depthCap) + " levels (the response nesting cap)";
    std::string().swap(result.body);  // frees what a failed transfer received
    return finish(result);
  }
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result.status);
  char* contentType = nullptr;
  if (curl_easy_getinfo(handle, CURLINFO_CONTENT_TYPE, &contentType) == CURLE_OK &&
      contentType != nullptr) {
    result.contentType = contentType;
  }
  // The body grew by doubling as it arrived; the exchange keeps it for reports, at its size.
  result.body.shrink_to_fit();
  return finish(result);
}

HttpsClient::HttpsClient(TransportOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}
HttpsClient::~HttpsClient() = default;
HttpsClient::HttpsClient(HttpsClient&&) noexcept = default;
HttpsClient& HttpsClient::operator=(HttpsClient&&) noexcept = default;

HttpResult HttpsClient::post(const std::string& url, const std::string& body) {
  return impl_->post(url, body);
}

const TransportOptions& HttpsClient::options() const { return impl_->options; }

}  // namespace convcheck
