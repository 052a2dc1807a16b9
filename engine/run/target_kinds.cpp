#include "engine/run/target_kinds.h"

#include <string_view>

#include <fmt/format.h>

#include "harness/transport/function_target.h"
#include "harness/transport/kcp_target.h"
#include "harness/transport/url_parts.h"

namespace convcheck {

namespace {

using Open = std::unique_ptr<ReviewTarget> (*)(const ResolvedTarget&);
// What a kind refuses for a CRD before any review is sent ("" when nothing), or nullptr.
using Check = std::string (*)(const Crd&, const std::string& url);

std::unique_ptr<ReviewTarget> webhookOverHttp(const ResolvedTarget& target) {
  return std::make_unique<HttpsTarget>(target.url, target.transport);
}

std::unique_ptr<ReviewTarget> conversionFunction(const ResolvedTarget& target) {
  return functionTarget(target.function, target.url);
}

std::unique_ptr<ReviewTarget> kcpConversionRules(const ResolvedTarget& target) {
  return kcpTarget(target.url);
}

// Every kind of target, by URL scheme. Adding one (a live cluster, ...) is its ReviewTarget in
// harness/ and a row here; `option` is how the command line names it ("--url", an option of its
// own that the commands declare, or "" when only the engine's API makes it).
struct TargetKind {
  std::string_view scheme;
  bool network;  // reached over the network: TLS, --wait, curl lines and the tls property apply
  Open open;
  std::string_view option;
  std::string_view help = {};  // the help of an option of its own
  Check check = nullptr;
};
constexpr TargetKind kTargetKinds[] = {
    {"https://", true, webhookOverHttp, "--url"},     // also --port-forward's local end
    {"http://", true, webhookOverHttp, "--url"},      // also --service-proxy's local kubectl proxy
    {"inprocess://", false, conversionFunction, ""},  // the in-process harness's function
    {kKcpTargetScheme, false, kcpConversionRules, "--conversion",
     "kcp APIConversion (YAML): its CEL rules convert in this process as kcp does, instead of a "
     "webhook (no --url); --crd may then be the APIResourceSchema",
     kcpConversionProblems},
};

const TargetKind* kindOf(std::string_view url) {
  for (const auto& kind : kTargetKinds)
    if (url.substr(0, kind.scheme.size()) == kind.scheme) return &kind;
  return nullptr;
}

}  // namespace

std::unique_ptr<ReviewTarget> openTarget(const ResolvedTarget& target) {
  const TargetKind* kind = kindOf(target.url);
  return kind ? kind->open(target) : webhookOverHttp(target);
}

std::string targetProblems(const Crd& crd, const std::string& url) {
  const TargetKind* kind = kindOf(url);
  return kind && kind->check ? kind->check(crd, url) : "";
}

TargetFactory targetFactory(const TargetFactory& given) {
  return given ? given : TargetFactory(openTarget);
}

bool isNetworkTarget(const std::string& url) {
  const TargetKind* kind = kindOf(url);
  return !kind || kind->network;
}

bool isApiOnlyTarget(const std::string& url) {
  const TargetKind* kind = kindOf(url);
  return kind && kind->option.empty();
}

std::string checkTargetUrl(const std::string& url, const std::string& option) {
  const TargetKind* kind = kindOf(url);
  if (!kind || kind->network) {  // the URL parser says what it accepts
    std::string whyNot;
    return parseUrl(url, &whyNot) ? "" : fmt::format("{}: {}", option, whyNot);
  }
  if (kind->option == option) return "";
  return fmt::format(
      "{} {}: a target of this kind is made through convcheck's library (the in-process "
      "harness), not the command line",
      option, url);
}

std::vector<TargetKindOption> targetKindOptions() {
  std::vector<TargetKindOption> out;
  for (const auto& kind : kTargetKinds)
    if (!kind.option.empty() && kind.option != "--url")
      out.push_back({std::string(kind.option), std::string(kind.scheme), std::string(kind.help)});
  return out;
}

}  // namespace convcheck
