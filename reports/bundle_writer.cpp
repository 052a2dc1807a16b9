#include "reports/bundle_writer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "harness/corpus/case_json.h"
#include "kube/go/duration.h"
#include "properties/checks/json_diff.h"
#include "reports/bundle_crd.h"
#include "reports/json_report.h"

namespace convcheck {

namespace fs = std::filesystem;
using nlohmann::json;

std::string bundleName(const std::string& kind, const std::string& from, const std::string& to,
                       const std::string& property) {
  std::string name = fmt::format("{}-{}-{}-{}", kind, from, to, property);
  for (auto& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return name;
}

namespace {

bool writeFile(const fs::path& p, const std::string& text, std::string& error) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.flush()) {
    if (error.empty()) error = fmt::format("cannot write {}", p.string());
    return false;
  }
  return true;
}

// What curl.sh says before its requests: whether its URL can still be reached and which replay
// line reaches the webhook as the run did. A webhook convcheck started is gone with the run: the
// script says so on stderr when it runs.
std::string curlScriptNote(const std::string& url, const WebhookReach& reach,
                           const std::string& dir) {
  const std::string replay = replayCommand(dir, reach);
  switch (reach.how) {
    case WebhookReach::How::Url:
      return "# Replay with convcheck: " + replay + " (add --url to send it elsewhere).\n";
    case WebhookReach::How::Command:
      return fmt::format(
          "# {} was a webhook convcheck started (-- COMMAND) and stopped after\n"
          "# the run: start it there, or replay with convcheck, which starts it again:\n"
          "#   {}\n"
          "# or, with the webhook started yourself: {} --url URL [--ca-file CA]\n"
          "echo {} >&2\n",
          url, replay, replayCommand(dir, WebhookReach{}),
          shellQuote("curl.sh: " + url +
                     " was a webhook convcheck started and stopped after the run; to start it "
                     "again: " +
                     replay));
    case WebhookReach::How::ServiceProxy:
    case WebhookReach::How::PortForward:
      return fmt::format(
          "# {} was kubectl's local end during the run (gone with it): start kubectl again and\n"
          "# change the URL below, or replay with convcheck through the cluster:\n#   {}\n",
          url, replay);
    case WebhookReach::How::InProcess:
      return fmt::format(
          "# {} was a conversion function in the fuzzing process: there is nothing to send to.\n"
          "# Send the case to a webhook with that conversion: {}\n",
          url, replay);
  }
  return "";
}

std::string dumpJson(const json& j) {
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

WrittenBundle writeBundle(const std::string& dirText, const Finding& finding, const Crd& crd,
                          const BundleTarget& target, const BundleContext& context) {
  std::error_code ec;
  const fs::path dir = fs::absolute(dirText, ec);
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec)
    return {{}, fmt::format("cannot create bundle directory {}: {}", dir.string(), ec.message())};
  std::string error;

  // The CA as a file next to the requests (from --ca-file or the CRD's caBundle), so that the
  // bundle still works when it is moved or downloaded elsewhere.
  std::string caFile = target.transport.tls.caFile.empty()
                           ? ""
                           : fs::absolute(target.transport.tls.caFile, ec).string();
  std::string caPem = target.transport.tls.caPem;
  if (!caFile.empty()) {
    std::ifstream in(caFile, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    caPem = in ? text.str() : "";  // unreadable: the bundle names the file where it was
  }
  const bool caInBundle = !caPem.empty() && writeFile(dir / kBundleCaFile, caPem, error);
  if (caInBundle) caFile = kBundleCaFile;
  // Client certificates are not copied (a private key); curl lines name them absolutely, as
  // bundle.json does, since curl.sh runs in the bundle's directory.
  BundleTarget sendAs = target;
  for (std::string* file : {&sendAs.transport.tls.certFile, &sendAs.transport.tls.keyFile})
    if (!file->empty()) *file = fs::absolute(*file, ec).string();
  // Paths of the bundle's own files as the report directory was given (relative stays relative).
  const fs::path shown(dirText);
  const auto fromHere = [&](const std::string& name) {
    return name.empty() || fs::path(name).is_absolute() ? name : (shown / name).string();
  };

  json exchanges = json::array();
  for (std::size_t i = 0; i < finding.exchanges.size(); ++i) {
    const Exchange& ex = *finding.exchanges[i];
    const std::string request = fmt::format("request-{}.json", i + 1);
    const std::string response = fmt::format("response-{}.json", i + 1);
    writeFile(dir / request, requestBodyOf(ex), error);
    writeFile(dir / response, ex.http.body, error);
    json e = exchangeToJson(ex);
    e["request"].erase("body");
    e["response"].erase("body");
    e["request"]["file"] = request;
    e["response"]["file"] = response;
    exchanges.push_back(e);
  }
  const BundleRef written{shown.string(),
                          finding.exchanges.empty()
                              ? ""
                              : curlCommand(sendAs, fromHere("request-1.json"), fromHere(caFile))};

  std::string diff;
  if (!finding.expected.is_null() || !finding.got.is_null())
    diff = renderDiff(jsonDiff(finding.expected, finding.got), 400);
  std::string diffText = finding.summary + "\n";
  if (!finding.apiserverMessage.empty())
    diffText += "kube-apiserver rejects this: " + finding.apiserverMessage + "\n";
  for (const auto& d : finding.details) diffText += "  " + d + "\n";
  if (!diff.empty()) diffText += "diff (expected -> got):\n" + diff;
  writeFile(dir / "diff.txt", diffText, error);
  // The run's CRD file when there is one (a copy per bundle made report directories of
  // hundreds of MB), else a copy in the bundle.
  std::string crdFile = "crd.json";
  if (context.crdFile.empty())
    writeFile(dir / "crd.json", dumpJson(crdManifest(crd)), error);
  else
    crdFile = fs::proximate(fs::absolute(context.crdFile, ec), dir, ec).generic_string();

  // Paths relative to the script's own directory: it runs wherever the bundle is.
  const std::string replay = replayCommand(shown.string(), context.reach);
  std::string curlScript =
      "#!/bin/sh\n# Re-sends the requests of this failure as convcheck sent them.\n" +
      curlScriptNote(target.url, context.reach, shown.string()) +
      "cd \"$(dirname \"$0\")\" || exit 1\n";
  for (std::size_t i = 0; i < finding.exchanges.size(); ++i)
    curlScript += curlCommand(sendAs, fmt::format("request-{}.json", i + 1), caFile) + "\necho\n";
  if (!curlCommand(sendAs, "request-1.json", caFile).empty()) {  // not for in-process targets
    writeFile(dir / "curl.sh", curlScript, error);
    fs::permissions(dir / "curl.sh", fs::perms::owner_exec | fs::perms::group_exec,
                    fs::perm_options::add, ec);
  }

  const TlsOptions& tls = target.transport.tls;
  json theCase =
      caseToJson({finding.caseTo.empty() ? finding.to : finding.caseTo, finding.seed,
                  (finding.caseObjects.empty() ? finding.batch : finding.caseObjects).copy()});
  theCase["cause"] = finding.cause ? finding.cause->key : std::string();
  theCase["rawObjects"] = context.rawObjects;
  theCase["dateTimes"] = context.canonicalDateTimes ? "canonical" : "any";
  json bundle = {
      {"format", kBundleFormat},
      {"convcheck", context.convcheckVersion},
      {"crd", crd.name},
      {"crdFile", crdFile},
      {"kind", crd.kind},
      {"property", finding.property},
      {"from", finding.from},
      {"to", finding.to},
      {"part", finding.part.empty() ? "forward" : finding.part},
      {"failure", ""},
      {"summary", finding.summary},
      {"apiserverMessage", finding.apiserverMessage},
      {"details", finding.details},
      {"origin", finding.origin},
      {"runSeed", std::to_string(context.runSeed)},
      {"command", context.command},
      {"case", theCase},
      {"target",
       {{"url", target.url},
        {"reviewVersion", target.reviewVersion},
        {"caFile", caFile},
        {"cert", tls.certFile.empty() ? "" : fs::absolute(tls.certFile, ec).string()},
        {"key", tls.keyFile.empty() ? "" : fs::absolute(tls.keyFile, ec).string()},
        {"tlsServerName", tls.serverName},
        {"insecureSkipTlsVerify", tls.insecureSkipVerify},
        {"timeout", formatGoDuration(target.transport.timeout)},
        {"http2", target.transport.http2},
        {"userAgent", target.transport.userAgent},
        {"reach", webhookReachName(context.reach.how)},
        {"webhookCommand", context.reach.command},
        {"portOfCommand", context.reach.portOfCommand}}},
      {"exchanges", exchanges},
      {"replay", replay},
      {"curl",
       finding.exchanges.empty() ? std::string() : curlCommand(sendAs, "request-1.json", caFile)}};
  if (finding.shrink) bundle["shrink"] = shrinkInfoToJson(*finding.shrink);
  bundle["failure"] = [&] {
    for (const auto& ex : finding.exchanges)
      if (!ex->verdict.accepted())
        return std::string(modelStageName(ex->verdict.stage)) +
               (ex->verdict.stage == ModelStage::Transport
                    ? ":" + std::string(transportErrorKindName(ex->http.transportErrorKind))
                    : "");
    return std::string("accepted");
  }();
  writeFile(dir / "bundle.json", dumpJson(bundle), error);
  return {written, error};  // a file that could not be written is said, the rest still replays
}

std::string writeRunCrds(const RunReport& report, const std::string& path) {
  json items = json::array();
  std::vector<std::string> names;
  for (const auto& kind : report.kinds) {
    if (std::find(names.begin(), names.end(), kind.crd.name) != names.end()) continue;
    names.push_back(kind.crd.name);
    items.push_back(crdManifest(kind.crd));
  }
  const json file =
      items.size() == 1 ? items[0] : json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
  std::string error;
  writeFile(path, dumpJson(file), error);
  return error;
}

WrittenBundles writeBundles(const RunReport& report, const TransportOptions& runTransport,
                            bool urlGiven, const std::string& reportDir) {
  WrittenBundles written;
  std::vector<std::string>& errors = written.errors;
  const fs::path bundles = fs::path(reportDir) / "bundles";
  std::error_code ec;
  fs::remove_all(bundles, ec);  // a previous run's bundles name other problems
  if (ec) errors.push_back(fmt::format("cannot clear {}: {}", bundles.string(), ec.message()));
  const std::string crdFile = (fs::path(reportDir) / "crd.json").string();
  if (!report.kinds.empty())
    if (auto e = writeRunCrds(report, crdFile); !e.empty()) errors.push_back(e);
  BundleContext context{report.version,
                        report.seed,
                        report.command,
                        report.rawObjects,
                        report.canonicalDateTimes,
                        fs::absolute(crdFile, ec).string(),
                        report.reach};
  for (const auto& kind : report.kinds) {
    const BundleTarget target = bundleTargetFor(kind, runTransport, urlGiven);
    for (const auto& problem : kind.problems) {  // one bundle per problem, for its example
      const Finding& finding = problem.example;
      if (finding.caseObjects.empty() && finding.batch.empty()) continue;  // e.g. tls
      if (finding.exchanges.empty() || problem.sites.empty()) continue;
      // Named after the example's own case, which may be of another site than the first.
      const ProblemSite& site = problem.sites.front();
      const bool own = !finding.property.empty();
      const fs::path dir =
          bundles / bundleName(kind.kind + "-" + problem.id, own ? finding.from : site.from,
                               own ? finding.to : site.to, own ? finding.property : site.property);
      WrittenBundle one = writeBundle(dir.string(), finding, kind.crd, target, context);
      if (!one.error.empty()) errors.push_back(one.error);
      if (!one.bundle.dir.empty()) written.add(kind, problem, std::move(one.bundle));
    }
  }
  return written;
}

}  // namespace convcheck
