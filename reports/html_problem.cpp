#include "reports/html_problem.h"

#include <fmt/format.h>

#include "kube/go/utf8.h"
#include "properties/checks/json_diff.h"
#include "reports/bundle_target.h"
#include "reports/failure_text.h"
#include "reports/html_text.h"
#include "reports/problem_list.h"

namespace convcheck {

namespace {

constexpr std::size_t kDiffLines = 60;          // diff lines shown; the rest are counted
constexpr std::size_t kValueBytes = 300;        // of each value in a diff line
constexpr std::size_t kInputBytes = 64 * 1024;  // of the counterexample's input shown

std::string diffValue(const nlohmann::json& v) {
  return shortenUtf8(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), kValueBytes);
}

std::string diffHtml(const Finding& f) {
  if (f.expected.is_null() && f.got.is_null()) return "";
  const std::vector<DiffLine> diff = jsonDiff(f.expected, f.got);
  if (diff.empty()) return "";
  std::string out = "<p class=\"label\">diff (expected → got)</p><pre class=\"diff\">";
  for (std::size_t i = 0; i < diff.size() && i < kDiffLines; ++i) {
    const DiffLine& line = diff[i];
    const std::string path = htmlText(line.path.empty() ? "(root)" : line.path);
    if (!line.added)
      out += fmt::format("<del>- {}: {}</del>\n", path, htmlText(diffValue(line.expected)));
    if (!line.missing)
      out += fmt::format("<ins>+ {}: {}</ins>\n", path, htmlText(diffValue(line.got)));
  }
  if (diff.size() > kDiffLines)
    out += fmt::format("… {} more differences\n", diff.size() - kDiffLines);
  return out + "</pre>";
}

std::string inputHtml(const Finding& f) {
  const SharedObjects& input = f.caseObjects.empty() ? f.batch : f.caseObjects;
  if (input.empty()) return "";
  std::string text;
  for (const auto& o : input) {
    text += o.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (text.size() > kInputBytes) break;
  }
  return fmt::format("<details><summary>input{}: {} object{}</summary><pre>{}</pre></details>",
                     f.shrink ? " (shrunk)" : "", input.size(), input.size() == 1 ? "" : "s",
                     htmlText(shortenUtf8(text, kInputBytes)));
}

}  // namespace

std::string problemHtml(const Problem& p, const std::string& anchor, const BundleRef* bundle,
                        const WebhookReach& reach) {
  const Finding& f = p.example;
  std::string out = fmt::format(
      "<section class=\"problem\" id=\"{}\"><h4><span class=\"sev {}\">{}</span> {} {}</h4>",
      htmlText(anchor),
      p.warningOnly ? "warning" : "s" + std::to_string(static_cast<int>(p.severity)),
      htmlText(p.warningOnly ? "warning" : severityName(p.severity)), htmlText(p.id),
      htmlText(p.title));
  out += fmt::format("<p class=\"sites\">breaks {} · {} failing case{}</p>",
                     htmlText(sitesText(p, 1000)), p.cases, p.cases == 1 ? "" : "s");
  if (p.warningOnly && !p.warningReason.empty())
    out += "<p class=\"note\">" + htmlText(p.warningReason) + "</p>";
  out += "<p>" + htmlText(f.summary) + "</p>";
  if (!f.apiserverMessage.empty())
    out += "<p>kube-apiserver rejects this: <code>" + htmlText(f.apiserverMessage) + "</code></p>";
  if (!f.details.empty()) {
    out += "<ul class=\"details\">";
    for (const auto& d : f.details) out += "<li>" + htmlText(d) + "</li>";
    out += "</ul>";
  }
  out += diffHtml(f) + inputHtml(f);
  if (f.shrink) out += "<p class=\"shrink\">" + htmlText(shrinkSummary(*f.shrink)) + "</p>";
  if (!f.origin.empty() && f.origin != "generated")
    out += "<p>found by: " + htmlText(f.origin) + "</p>";
  if (bundle)
    out += "<p>replay: <code>" + htmlText(replayCommand(shownPath(bundle->dir), reach)) +
           "</code></p>";
  return out + "</section>";
}

}  // namespace convcheck
