#include "engine/upgrade/release_bundles.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "reports/bundle_crd.h"
#include "reports/bundle_writer.h"
#include "reports/problem_list.h"

namespace convcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The CRDs of one side of the run as one file (a List when there are several).
std::string writeCrds(const ReleaseRun& run, bool old, const fs::path& path) {
  json items = json::array();
  std::vector<std::string> names;
  for (const auto& kind : run.releases) {
    const Crd& crd = old ? kind.oldCrd : kind.newCrd;
    if (std::find(names.begin(), names.end(), crd.name) != names.end()) continue;
    names.push_back(crd.name);
    items.push_back(crdManifest(crd));
  }
  const json file =
      items.size() == 1 ? items[0] : json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << file.dump(2) << "\n";
  return out.flush() ? "" : fmt::format("cannot write {}", path.string());
}

BundleTarget bundleTarget(const ResolvedTarget& target) {
  return {target.url, reviewVersionName(target.reviewVersion), target.transport};
}

// The CA a release's webhook was verified with, copied into the bundle as `name` (a started
// webhook's CA goes with it): "" when there is none, else the file's name in the bundle.
std::string copyCa(const TlsOptions& tls, const fs::path& dir, const std::string& name) {
  std::string pem = tls.caPem;
  if (!tls.caFile.empty()) {
    std::ifstream in(tls.caFile, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (in) pem = text.str();
  }
  if (pem.empty()) return "";
  std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
  out << pem;
  return out.flush() ? name : "";
}

json releaseJson(const std::string& name, const ResolvedTarget& target, const fs::path& crdFile,
                 const fs::path& dir) {
  std::error_code ec;
  return {{"crdFile", fs::proximate(fs::absolute(crdFile, ec), dir, ec).generic_string()},
          {"url", target.url},
          {"reviewVersion", reviewVersionName(target.reviewVersion)},
          {"caFile", copyCa(target.transport.tls, dir, "ca-" + name + ".pem")},
          {"tlsServerName", target.transport.tls.serverName}};
}

std::string writeReleaseFile(const fs::path& dir, const Finding& finding,
                             const std::string& release, const fs::path& oldCrds,
                             const fs::path& newCrds, const KindReleases& kind) {
  const json file = {{"format", 1},
                     {"property", finding.property},
                     {"release", release},
                     {"expected", finding.expected},
                     {"objectIndex", finding.objectIndex.value_or(0)},
                     {"releases",
                      {{"old", releaseJson("old", kind.oldTarget, oldCrds, dir)},
                       {"new", releaseJson("new", kind.newTarget, newCrds, dir)}}}};
  std::ofstream out(dir / kReleaseBundleFile, std::ios::binary | std::ios::trunc);
  out << file.dump(2) << "\n";
  return out.flush() ? "" : fmt::format("cannot write {}", (dir / kReleaseBundleFile).string());
}

}  // namespace

WrittenBundles writeReleaseBundles(ReleaseRun& run, const std::string& reportDir) {
  WrittenBundles written;
  std::vector<std::string>& errors = written.errors;
  const fs::path bundles = fs::path(reportDir) / "bundles";
  std::error_code ec;
  fs::remove_all(bundles, ec);
  const fs::path oldCrds = fs::path(reportDir) / "crd-old.json";
  const fs::path newCrds = fs::path(reportDir) / "crd-new.json";
  RunReport& report = run.report;
  if (report.kinds.empty()) return written;
  for (const auto& [path, old] : {std::pair{oldCrds, true}, std::pair{newCrds, false}})
    if (auto e = writeCrds(run, old, path); !e.empty()) errors.push_back(e);
  for (std::size_t k = 0; k < report.kinds.size() && k < run.releases.size(); ++k) {
    KindReport& kind = report.kinds[k];
    const KindReleases& releases = run.releases[k];
    for (auto& problem : kind.problems) {
      Finding& finding = problem.example;
      if (finding.exchanges.empty() || problem.sites.empty()) continue;
      const std::string release = releaseOfProperty(finding.property);
      const bool old = release == std::string("old");
      const ProblemSite& site = problem.sites.front();
      const fs::path dir =
          bundles / bundleName(kind.kind + "-" + problem.id, site.from, site.to, site.property);
      BundleContext context{report.version,
                            report.seed,
                            report.command,
                            false,
                            report.canonicalDateTimes,
                            fs::absolute(old ? oldCrds : newCrds, ec).string()};
      const WrittenBundle bundle =
          writeBundle(dir.string(), finding, old ? releases.oldCrd : releases.newCrd,
                      bundleTarget(old ? releases.oldTarget : releases.newTarget), context);
      if (!bundle.error.empty()) {
        errors.push_back(bundle.error);
        continue;
      }
      written.add(kind, problem, bundle.bundle);
      if (auto e = writeReleaseFile(dir, finding, release, oldCrds, newCrds, releases); !e.empty())
        errors.push_back(e);
    }
  }
  return written;
}

}  // namespace convcheck
