#include "reports/markdown_report.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "kube/go/utf8.h"
#include "properties/checks/cause_analysis.h"
#include "properties/checks/property_registry.h"
#include "reports/coverage_markdown.h"
#include "reports/problem_list.h"

namespace convcheck {

namespace fs = std::filesystem;

namespace {

// Text inside a table cell: one line, no column breaks, no HTML tags.
std::string cell(const std::string& text, std::size_t maxBytes = 300) {
  std::string out;
  for (char c : shortenUtf8(text, maxBytes)) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else if (c == '<')
      out += "&lt;";
    else
      out += c;
  }
  return out;
}

std::string code(const std::string& text) {
  std::string out = cell(text);
  for (std::size_t i = 0; (i = out.find('`', i)) != std::string::npos; i += 2) out.insert(i, "\\");
  return "`" + out + "`";
}

// The bundle's cell: a link relative to linkBase, or its path (relative to the working directory)
// as text where a link could not be followed.
std::string bundleCell(const std::string& target, const std::string& linkBase, BundleCells cells) {
  std::error_code ec;
  const fs::path base = linkBase.empty() ? fs::current_path(ec) : fs::path(linkBase);
  std::string relative = fs::proximate(target, fs::absolute(base, ec), ec).generic_string();
  if (ec || relative.empty()) relative = target;
  if (cells == BundleCells::Paths) return code(relative);
  std::string escaped;
  for (char c : relative) escaped += c == ' ' ? std::string("%20") : std::string(1, c);
  return fmt::format("[{}]({})", cell(fs::path(target).filename().string()), escaped);
}

void writeKind(const KindReport& kind, const WrittenBundles& bundles, const std::string& linkBase,
               BundleCells cells, std::string& out) {
  out += fmt::format("\n### {} (`{}`)\n\n", cell(kind.kind), cell(kind.crdName));
  out += fmt::format(
      "{} via `{}`, ConversionReview {}: {} requests, {} objects, {:.1f} s\n\n",
      kind.versions.size() == 1 ? "1 version" : fmt::format("{} versions", kind.versions.size()),
      cell(kind.url), kind.reviewVersion, kind.requests, kind.objectsSent, kind.seconds);
  const std::vector<Problem>& problems = kind.problems;
  int judged = 0;
  for (const auto& t : kind.tallies) judged += t.passed + t.failed;
  if (problems.empty() && judged == 0) {
    out += "Nothing was tested: no case could be judged.\n";
  } else if (problems.empty()) {
    out += "No problems found.\n";
  } else {
    out += "| id | severity | problem | breaks | cases | bundle |\n";
    out += "|---|---|---|---|---:|---|\n";
    for (const auto& p : problems) {
      const BundleRef* bundle = bundles.find(kind, p);
      out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", p.id,
                         p.warningOnly ? "warning" : severityName(p.severity), cell(p.title),
                         cell(sitesText(p, 400)), p.cases,
                         bundle == nullptr ? "" : bundleCell(bundle->dir, linkBase, cells));
    }
    const bool anyBundle = std::any_of(problems.begin(), problems.end(), [&](const Problem& p) {
      return bundles.find(kind, p) != nullptr;
    });
    if (cells == BundleCells::Paths && anyBundle)
      out +=
          "\nThe bundles are files in the job's report directory, which this page cannot link "
          "to: keep that directory as the job's artifact (e.g. actions/upload-artifact) and "
          "run `convcheck replay BUNDLE` on it.\n";
  }
  std::map<std::string, std::pair<int, int>> failed;  // property -> failing cases, warnings
  for (const auto& t : kind.tallies)
    (t.warningOnly ? failed[t.property].second : failed[t.property].first) += t.failed;
  std::string failing, warning, passing;
  for (const auto& info : propertyRegistry()) {
    auto it = failed.find(std::string(info.id));
    if (it == failed.end()) continue;
    std::string& list = it->second.first > 0 ? failing : it->second.second > 0 ? warning : passing;
    list += (list.empty() ? "" : ", ") + std::string("`") + std::string(info.id) + "`";
  }
  out += "\n";
  if (!failing.empty()) out += "**Failed:** " + failing + "  \n";
  if (!warning.empty()) out += "**Warnings only:** " + warning + "  \n";
  if (!passing.empty()) out += "**Held (or not evaluable):** " + passing + "\n";
  out += coverageMarkdown(kind.coverage);
}

}  // namespace

std::string renderMarkdownSummary(const RunReport& report, const WrittenBundles& bundles,
                                  const std::string& linkBase, BundleCells cells) {
  int problems = 0;
  for (const auto& kind : report.kinds) problems += static_cast<int>(kind.problems.size());
  std::string verdict = report.interrupted     ? "interrupted; results are partial"
                        : report.exitCode == 0 ? "every property held"
                        : report.exitCode == 1
                            ? "properties failed"
                            : fmt::format("nothing was tested (exit {})", report.exitCode);
  std::string out =
      fmt::format("## convcheck: {} problem{}, {}\n", problems, problems == 1 ? "" : "s", verdict);
  if (!report.fatalError.empty()) out += "\n> " + cell(report.fatalError, 2000) + "\n";
  for (const auto& w : report.warnings) out += "\n> warning: " + cell(w, 2000) + "\n";
  for (const auto& kind : report.kinds) writeKind(kind, bundles, linkBase, cells, out);
  out += fmt::format("\nSeed `{}`, {:.1f} s{}.", report.seed, report.seconds,
                     report.startedAt.empty() ? "" : ", started " + report.startedAt);
  if (!report.command.empty()) out += " Reproduce: " + code(report.command);
  out += "\n";
  return toValidUtf8(out);
}

std::string githubStepSummary() {
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  return path ? path : "";
}

std::string writeMarkdownSummary(const RunReport& report, const WrittenBundles& bundles,
                                 const std::string& path) {
  const bool stepSummary = path == githubStepSummary();
  std::error_code ec;
  const std::string base = stepSummary ? "" : fs::absolute(path, ec).parent_path().string();
  std::ofstream f(path, std::ios::binary | (stepSummary ? std::ios::app : std::ios::trunc));
  if (!f) return fmt::format("cannot write Markdown summary {}", path);
  f << renderMarkdownSummary(report, bundles, base,
                             stepSummary ? BundleCells::Paths : BundleCells::Links);
  if (!f.flush()) return fmt::format("cannot write Markdown summary {}", path);
  return "";
}

}  // namespace convcheck
