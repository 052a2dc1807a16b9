#include "reports/html_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "properties/checks/property_registry.h"
#include "reports/html_coverage.h"
#include "reports/html_problem.h"
#include "reports/html_text.h"
#include "reports/latency_plot.h"
#include "reports/problem_list.h"

namespace convcheck {

namespace {

// Nothing is loaded from anywhere: the policy makes the browser refuse (and say so) if a later
// change ever adds a script, image, font or link that would be.
constexpr const char* kHtmlStart = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>)";

// After the title: the style sheet, every rule of the page.
constexpr const char* kHtmlStyle = R"(</title>
<style>
:root{color-scheme:light;--fail:#b91c1c;--warn:#b45309;--pass:#15803d;--na:#6b7280;--line:#d1d5db}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1100px;padding:12px;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#fff}
h1{font-size:1.35em;margin:.3em 0} h2{font-size:1.2em;margin:1.6em 0 .3em;border-bottom:2px solid var(--line)}
h3{font-size:1.05em;margin:1.2em 0 .4em} h4{font-size:1em;margin:.6em 0 .3em}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{overflow-wrap:anywhere}
pre{background:#f3f4f6;padding:8px;overflow-x:auto;max-height:28em;white-space:pre}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.3em 0} th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f9fafb} td.num,th.num{text-align:right;white-space:nowrap}
.matrix td{text-align:center;white-space:nowrap} .matrix th[scope=row]{white-space:nowrap}
td.fail{background:#fee2e2;color:var(--fail);font-weight:600} td.warn{background:#fef3c7;color:var(--warn)}
td.pass{background:#dcfce7;color:var(--pass)} td.na{color:var(--na)}
.verdict{font-weight:600} .verdict.fail{color:var(--fail)} .verdict.pass{color:var(--pass)}
.sev{display:inline-block;padding:0 6px;border-radius:4px;color:#fff;font-size:.85em;background:var(--na)}
.sev.s0{background:#991b1b} .sev.s1{background:#c2410c} .sev.s2{background:#a16207} .sev.s3{background:#6d28d9} .sev.warning{background:var(--warn)}
.problem{border-left:4px solid var(--line);padding-left:10px;margin:1em 0}
.diff del{color:var(--fail);text-decoration:none;display:block} .diff ins{color:var(--pass);text-decoration:none;display:block}
.meta,.sites,.shrink,.note,.legend{color:#374151;font-size:.92em}
.label{margin:.4em 0 0;font-size:.9em;color:#374151}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:10px}
figure{margin:0;border:1px solid var(--line);padding:4px} figcaption{text-align:center;font-size:.9em}
svg.latency{width:100%;height:auto;display:block}
svg .grid{stroke:#e5e7eb} svg .tick,svg .axis{font:10px system-ui,sans-serif;fill:#4b5563}
svg polyline{fill:none;stroke-width:2} svg circle{stroke:none}
polyline.p50{stroke:#2563eb} polyline.p95{stroke:#d97706;stroke-dasharray:5 3} polyline.p99{stroke:#dc2626;stroke-dasharray:2 3}
circle.p50{fill:#2563eb} circle.p95{fill:#d97706} circle.p99{fill:#dc2626}
.key{display:inline-block;width:18px;height:0;border-top:3px solid;vertical-align:middle;margin:0 3px 0 8px}
.key.p50{border-color:#2563eb} .key.p95{border-color:#d97706;border-top-style:dashed} .key.p99{border-color:#dc2626;border-top-style:dotted}
meter{width:60px;vertical-align:middle}
.chip{display:inline-block;border:1px solid var(--line);border-radius:4px;padding:0 4px;margin:1px;font-size:.85em;overflow-wrap:anywhere}
.chip.gap,tr.gap td{color:var(--fail)}
ul.gaps{columns:2 360px;padding-left:1.2em}
nav ul{padding-left:1.2em}
@media (max-width:640px){body{padding:8px;font-size:14px} th,td{padding:2px 4px} ul.gaps{columns:1}}
</style></head><body>
)";

std::string verdictLine(const RunReport& report, int problems) {
  const std::string count = fmt::format("{} problem{}", problems, problems == 1 ? "" : "s");
  if (report.interrupted) return count + " — interrupted, the results are partial";
  switch (report.exitCode) {
    case 0:
      return count + " — every property held";
    case 1:
      return count + " — properties failed";
    default:
      return fmt::format("{} — nothing was tested (exit {})", count, report.exitCode);
  }
}

std::string cellClass(const PropertyTally& t) {
  if (t.failed > 0) return t.warningOnly ? "warn" : "fail";
  return t.passed > 0 ? "pass" : "na";
}

std::string cellText(const PropertyTally& t) {
  if (t.failed > 0) return fmt::format("{} {}", t.warningOnly ? "!" : "✗", t.failed);
  return t.passed > 0 ? "✓" : "n/a";
}

// Rows: the properties the kind tallied, in registry order; columns: its pairs (and the endpoint,
// for properties not tied to a pair), in tally order.
std::string matrixHtml(const KindReport& kind, const std::vector<Problem>& problems) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& t : kind.tallies)
    if (std::find(pairs.begin(), pairs.end(), std::pair{t.from, t.to}) == pairs.end())
      pairs.emplace_back(t.from, t.to);
  std::stable_partition(pairs.begin(), pairs.end(), [](const auto& p) { return !p.first.empty(); });
  std::string out = "<div class=\"scroll\"><table class=\"matrix\"><thead><tr><th>property</th>";
  for (const auto& [from, to] : pairs)
    out += from.empty() ? "<th>endpoint</th>"
                        : fmt::format("<th>{} →<br>{}</th>", htmlText(from), htmlText(to));
  out += "</tr></thead><tbody>";
  for (const auto& property : propertyRegistry()) {
    std::vector<const PropertyTally*> row;
    bool any = false;
    for (const auto& pair : pairs) {
      auto it = std::find_if(kind.tallies.begin(), kind.tallies.end(), [&](const PropertyTally& t) {
        return t.property == property.id && t.from == pair.first && t.to == pair.second;
      });
      row.push_back(it == kind.tallies.end() ? nullptr : &*it);
      any = any || it != kind.tallies.end();
    }
    if (!any) continue;
    out += fmt::format("<tr><th scope=\"row\">{}</th>", htmlText(property.id));
    for (const PropertyTally* t : row) {
      if (!t) {
        out += "<td></td>";
        continue;
      }
      std::string title = fmt::format("{}: {} passed, {} failed, {} not evaluable", caseName(*t),
                                      t->passed, t->failed, t->blocked);
      for (const Problem* p : problemsAt(problems, *t)) title += " · " + p->id;
      if (!t->blockedBy.empty()) title += " · " + t->blockedBy;
      out += fmt::format("<td class=\"{}\" title=\"{}\">{}</td>", cellClass(*t), htmlText(title),
                         cellText(*t));
    }
    out += "</tr>";
  }
  return out + "</tbody></table></div>";
}

std::string digestHtml(const std::vector<Problem>& problems, const std::string& anchor) {
  if (problems.empty()) return "<p class=\"verdict pass\">No problems found.</p>";
  std::string out =
      "<div class=\"scroll\"><table><thead><tr><th>id</th><th>severity</th><th>problem</th>"
      "<th>breaks</th><th class=\"num\">cases</th></tr></thead><tbody>";
  for (const auto& p : problems)
    out += fmt::format(
        "<tr><td><a href=\"#{}-{}\">{}</a></td><td><span class=\"sev {}\">{}</span></td><td>{}</td>"
        "<td>{}</td><td class=\"num\">{}</td></tr>",
        anchor, htmlText(p.id), htmlText(p.id),
        p.warningOnly ? "warning" : "s" + std::to_string(static_cast<int>(p.severity)),
        htmlText(p.warningOnly ? "warning" : severityName(p.severity)), htmlText(p.title),
        htmlText(sitesText(p, 400)), p.cases);
  return out + "</tbody></table></div>";
}

std::string kindHtml(const KindReport& kind, const WrittenBundles& bundles,
                     const WebhookReach& reach, const std::string& anchor) {
  const std::vector<Problem> problems = kind.problems;
  std::string out = fmt::format("<h2 id=\"{}\">{} <small>({})</small></h2>", anchor,
                                htmlText(kind.kind), htmlText(kind.crdName));
  out += fmt::format(
      "<p class=\"meta\">via <code>{}</code>, ConversionReview {}: {} requests, {} objects, "
      "{:.1f} s</p>",
      htmlText(kind.url), htmlText(kind.reviewVersion), kind.requests, kind.objectsSent,
      kind.seconds);
  if (!kind.versions.empty()) {
    out += "<ul class=\"meta\">";
    for (const auto& v : kind.versions) {
      auto role = kind.versionRoles.find(v);
      out += "<li><code>" + htmlText(v) + "</code>" +
             (role != kind.versionRoles.end() ? ": " + htmlText(role->second) : "") + "</li>";
    }
    out += "</ul>";
  }
  out += "<h3>Problems</h3>" + digestHtml(problems, anchor);
  out += "<h3>Properties by version pair</h3>" + matrixHtml(kind, problems);
  for (const auto& p : problems)
    out += problemHtml(p, anchor + "-" + p.id, bundles.find(kind, p), reach);
  if (!kind.latency.empty())
    out += "<h3>Answer time by batch size</h3>" + latencyPlots(kind.latency);
  out += "<h3>Coverage</h3>" + coverageHtml(kind.coverage);
  if (!kind.notes.empty()) {
    out += "<h3>Notes</h3><ul class=\"note\">";
    for (const auto& n : kind.notes) out += "<li>" + htmlText(n) + "</li>";
    out += "</ul>";
  }
  return out;
}

}  // namespace

std::string renderHtmlReport(const RunReport& report, const WrittenBundles& bundles) {
  int problems = 0;
  for (const auto& kind : report.kinds) problems += static_cast<int>(kind.problems.size());
  const std::string verdict = verdictLine(report, problems);
  std::string out = kHtmlStart + htmlText("convcheck: " + verdict) + kHtmlStyle;
  out +=
      fmt::format("<h1>convcheck: <span class=\"verdict {}\">{}</span></h1>",
                  report.exitCode == 0 && !report.interrupted ? "pass" : "fail", htmlText(verdict));
  out += fmt::format("<p class=\"meta\">seed <code>{}</code>, {:.1f} s{}{}</p>", report.seed,
                     report.seconds,
                     report.startedAt.empty() ? "" : ", started " + htmlText(report.startedAt),
                     report.version.empty() ? "" : ", convcheck " + htmlText(report.version));
  if (!report.command.empty())
    out += "<p class=\"meta\">reproduce: <code>" + htmlText(report.command) + "</code></p>";
  if (!report.fatalError.empty())
    out += "<pre class=\"fatal\">" + htmlText(report.fatalError) + "</pre>";
  for (const auto& w : report.warnings) out += "<p class=\"note\">warning: " + htmlText(w) + "</p>";
  if (report.kinds.size() > 1) {
    out += "<nav><ul>";
    for (std::size_t i = 0; i < report.kinds.size(); ++i)
      out += fmt::format("<li><a href=\"#kind-{}\">{}</a></li>", i + 1,
                         htmlText(report.kinds[i].kind));
    out += "</ul></nav>";
  }
  for (std::size_t i = 0; i < report.kinds.size(); ++i)
    out += kindHtml(report.kinds[i], bundles, report.reach, fmt::format("kind-{}", i + 1));
  return out + "</body></html>\n";
}

std::string writeHtmlReport(const RunReport& report, const WrittenBundles& bundles,
                            const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return fmt::format("cannot write HTML report {}", path);
    f << renderHtmlReport(report, bundles);
    if (!f.flush()) return fmt::format("cannot write HTML report {}", path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return fmt::format("cannot move HTML report into place at {}", path);
  return "";
}

}  // namespace convcheck
