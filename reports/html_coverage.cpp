#include "reports/html_coverage.h"

#include <fmt/format.h>

#include "reports/html_text.h"

namespace convcheck {

namespace {

// The not-exercised lines shown before the rest is folded away.
constexpr std::size_t kGapsShown = 30;

std::string share(int part, int whole) {
  if (whole == 0) return "<td class=\"num\">–</td>";
  return fmt::format(
      "<td class=\"num\">{} / {} <meter min=\"0\" max=\"{}\" value=\"{}\"></meter></td>", part,
      whole, whole, part);
}

std::string boundaryChip(const BoundaryCoverage& b) {
  std::string what = b.kind == "null" ? "null" : b.kind + " " + b.value;
  return fmt::format("<span class=\"chip{}\">{} ×{}</span>", b.hits == 0 ? " gap" : "",
                     htmlText(what), b.hits);
}

std::string pathsTable(const VersionCoverage& v) {
  std::string out = fmt::format(
      "<details><summary>Every path of {} ({})</summary><div class=\"scroll\"><table "
      "class=\"paths\"><thead><tr><th>path</th><th>type</th><th class=\"num\">sent</th><th "
      "class=\"num\">absent</th><th>boundaries (values sent at each)</th></tr></thead><tbody>",
      htmlText(v.version), v.paths.size());
  for (const auto& p : v.paths) {
    std::string chips;
    for (const auto& b : p.boundaries) chips += boundaryChip(b) + " ";
    out += fmt::format(
        "<tr{}><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td "
        "class=\"num\">{}</td><td>{}</td></tr>",
        p.present == 0 ? " class=\"gap\"" : "", htmlText(p.path), htmlText(p.type), p.present,
        p.required ? "required" : std::to_string(p.absent), chips);
  }
  return out + "</tbody></table></div></details>";
}

std::string gapsList(const VersionCoverage& v) {
  const std::vector<std::string> gaps = unexercised(v);
  if (gaps.empty())
    return fmt::format("<p>Every path and boundary of {} was exercised.</p>", htmlText(v.version));
  std::string out = fmt::format("<h4>Not exercised at {} ({})</h4><ul class=\"gaps\">",
                                htmlText(v.version), gaps.size());
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    if (i == kGapsShown)
      out += fmt::format("</ul><details><summary>{} more</summary><ul class=\"gaps\">",
                         gaps.size() - kGapsShown);
    out += "<li><code>" + htmlText(gaps[i]) + "</code></li>";
  }
  return out + (gaps.size() > kGapsShown ? "</ul></details>" : "</ul>");
}

}  // namespace

std::string coverageHtml(const KindCoverage& coverage) {
  if (!coverage.collected()) return "<p>No coverage was collected.</p>";
  std::string out =
      "<div class=\"scroll\"><table><thead><tr><th>version</th><th class=\"num\">objects "
      "sent</th><th class=\"num\">paths sent</th><th class=\"num\">optional paths sent "
      "absent</th><th class=\"num\">boundaries reached</th></tr></thead><tbody>";
  for (const auto& v : coverage.versions) {
    const CoverageCounts c = coverageCounts(v);
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td>{}{}{}</tr>", htmlText(v.version),
                       v.objects, share(c.presentPaths, c.paths),
                       share(c.absentPaths, c.optionalPaths),
                       share(c.reachedBoundaries, c.boundaries));
  }
  out += "</tbody></table></div>";
  if (!coverage.pairs.empty()) {
    out +=
        "<div class=\"scroll\"><table><thead><tr><th>pair</th><th class=\"num\">cases</th><th "
        "class=\"num\">requests</th><th class=\"num\">objects</th><th "
        "class=\"num\">bytes</th></tr></thead><tbody>";
    for (const auto& p : coverage.pairs)
      out += fmt::format(
          "<tr><td>{} → {}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
          htmlText(p.from), htmlText(p.to), p.cases, p.requests, p.objects, byteSize(p.bytes));
    out += "</tbody></table></div>";
  }
  for (const auto& v : coverage.versions) out += gapsList(v) + pathsTable(v);
  return out;
}

}  // namespace convcheck
