#include "reports/bundle_target.h"

#include <fmt/format.h>

#include "harness/transport/https_client.h"
#include "harness/transport/url_parts.h"
#include "harness/transport/webhook_tls.h"

namespace convcheck {

BundleTarget bundleTargetFor(const KindReport& kind, const TransportOptions& runTransport,
                             bool urlGiven) {
  BundleTarget t;
  t.url = kind.url;
  t.reviewVersion = kind.reviewVersion;
  t.transport = runTransport;
  t.transport.tls = webhookTls(kind.crd, runTransport.tls, urlGiven);
  return t;
}

const char* webhookReachName(WebhookReach::How how) {
  switch (how) {
    case WebhookReach::How::Url:
      return "url";
    case WebhookReach::How::Command:
      return "command";
    case WebhookReach::How::ServiceProxy:
      return "service-proxy";
    case WebhookReach::How::PortForward:
      return "port-forward";
    case WebhookReach::How::InProcess:
      return "in-process";
  }
  return "url";
}

std::optional<WebhookReach::How> webhookReachFromName(const std::string& name) {
  for (auto how :
       {WebhookReach::How::Url, WebhookReach::How::Command, WebhookReach::How::ServiceProxy,
        WebhookReach::How::PortForward, WebhookReach::How::InProcess})
    if (name == webhookReachName(how)) return how;
  return std::nullopt;
}

std::string replayCommand(const std::string& dir, const WebhookReach& reach) {
  std::string line = "convcheck replay " + shellQuote(dir);
  switch (reach.how) {
    case WebhookReach::How::Url:
      break;
    case WebhookReach::How::Command:
      line += " -- " + shellCommand(reach.command);
      break;
    case WebhookReach::How::ServiceProxy:
      line += " --service-proxy";
      break;
    case WebhookReach::How::PortForward:
      line += " --port-forward";
      break;
    case WebhookReach::How::InProcess:
      line += " --url https://HOST:PORT/convert";
      break;
  }
  return line;
}

std::string curlCommand(const BundleTarget& target, const std::string& requestFile,
                        const std::string& caFile) {
  if (target.url.rfind("https://", 0) != 0 && target.url.rfind("http://", 0) != 0)
    return "";  // converted in this process (kcp's rules): nothing goes over the network
  const TransportOptions& o = target.transport;
  std::string url = requestUrl(target.url, o);
  std::string cmd = "curl --silent --show-error";
  cmd += o.http2 ? " --http2" : " --http1.1";
  const bool https = url.rfind("https://", 0) == 0;
  if (https) {
    if (o.tls.insecureSkipVerify)
      cmd += " --insecure";
    else if (!caFile.empty())
      cmd += " --cacert " + shellQuote(caFile);
    else if (!o.tls.caFile.empty())
      cmd += " --cacert " + shellQuote(o.tls.caFile);
    if (!o.tls.certFile.empty()) cmd += " --cert " + shellQuote(o.tls.certFile);
    if (!o.tls.keyFile.empty()) cmd += " --key " + shellQuote(o.tls.keyFile);
    if (!o.tls.serverName.empty()) {
      if (auto parts = parseUrl(url)) {
        if (auto renamed = replaceUrlHost(url, o.tls.serverName)) {
          cmd += " --connect-to " + shellQuote(hostPort(o.tls.serverName, parts->port) + ":" +
                                               hostPort(parts->host, parts->port));
          url = *renamed;
        }
      }
    }
  }
  cmd += " -H 'Content-Type: application/json' -H 'Accept: application/json, */*'";
  cmd += " -H " + shellQuote("User-Agent: " + o.userAgent);
  cmd += " -H 'Expect:' -H 'Accept-Encoding: gzip' --compressed";
  cmd += fmt::format(" --max-time {}", std::max<long long>(1, (o.timeout.count() + 999) / 1000));
  cmd += " --data-binary " + shellQuote("@" + requestFile);
  cmd += " " + shellQuote(url);
  return cmd;
}

}  // namespace convcheck
