#include "engine/run/kind_report_header.h"

#include <fmt/format.h>

#include "engine/run/target_kinds.h"
#include "kube/crd/version_roles.h"

namespace convcheck {

KindReport kindReportHeader(const Crd& crd, const ResolvedTarget& target, const RunConfig& config) {
  KindReport report;
  report.crdName = crd.name;
  report.kind = crd.kind;
  report.group = crd.group;
  report.source = fmt::format("{}, document {}", crd.source.file, crd.source.document);
  report.url = target.url;
  report.reviewVersion = reviewVersionName(target.reviewVersion);
  report.storedVersions = crd.storedVersions;
  report.crd = crd;
  for (const auto& v : crd.versions) {
    if (v.storage) report.storageVersion = v.name;
    if (!v.served) report.notServed.push_back(v.name);
  }
  if (crd.conversionStrategy != "Webhook" && isNetworkTarget(target.url))
    report.notes.push_back(fmt::format(
        "the CRD does not declare webhook conversion yet (spec.conversion.strategy {}); "
        "tested as it will be with strategy Webhook, sending {} ConversionReviews",
        crd.conversionStrategy.empty() ? "None" : crd.conversionStrategy, report.reviewVersion));
  report.warningVersions = warningOnlyVersions(crd);
  for (const auto& [version, why] : report.warningVersions)
    report.notes.push_back("findings on " + version + " are warnings: " + why);
  const ConversionReach reach(crd);
  report.versionRoles = reach.roles();
  for (const auto& v : crd.versions)
    if (reach.countsAsSource(v.name) && !reach.countsAsTarget(v.name))
      report.notes.push_back("findings on conversions to " + v.name +
                             " are warnings: " + reach.warningFor("", v.name));
  if (config.acks && !config.acks->items.empty())
    report.notes.push_back(
        fmt::format("{} acknowledged difference(s) from {}: listed as acknowledged, not failed",
                    config.acks->items.size(), config.acks->source));
  return report;
}

}  // namespace convcheck
