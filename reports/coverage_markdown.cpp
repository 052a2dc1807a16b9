#include "reports/coverage_markdown.h"

#include <fmt/format.h>

namespace convcheck {

namespace {

std::string fraction(int part, int whole) {
  return whole == 0 ? "–" : fmt::format("{} / {}", part, whole);
}

// Text inside a code span of a table cell or list item: no backticks, pipes or line breaks.
std::string codeText(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '`' ? '\'' : c == '|' ? '/' : (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

}  // namespace

std::string coverageMarkdown(const KindCoverage& coverage, std::size_t maxGaps) {
  if (!coverage.collected()) return "";
  std::string out = "\n#### Coverage\n\n";
  out +=
      "| version | objects sent | paths sent | optional paths sent absent | boundaries reached |\n";
  out += "|---|---:|---:|---:|---:|\n";
  for (const auto& v : coverage.versions) {
    const CoverageCounts c = coverageCounts(v);
    out += fmt::format("| {} | {} | {} | {} | {} |\n", codeText(v.version), v.objects,
                       fraction(c.presentPaths, c.paths), fraction(c.absentPaths, c.optionalPaths),
                       fraction(c.reachedBoundaries, c.boundaries));
  }
  if (!coverage.pairs.empty()) {
    out += "\n| pair | cases | requests | objects | bytes |\n|---|---:|---:|---:|---:|\n";
    for (const auto& p : coverage.pairs)
      out += fmt::format("| {} → {} | {} | {} | {} | {} |\n", codeText(p.from), codeText(p.to),
                         p.cases, p.requests, p.objects, byteSize(p.bytes));
  }
  for (const auto& v : coverage.versions) {
    const std::vector<std::string> gaps = unexercised(v);
    if (gaps.empty()) continue;
    out += fmt::format("\n**Not exercised at {}** ({}):\n\n", codeText(v.version), gaps.size());
    for (std::size_t i = 0; i < gaps.size() && i < maxGaps; ++i)
      out += "- `" + codeText(gaps[i]) + "`\n";
    if (gaps.size() > maxGaps)
      out += fmt::format("- … and {} more (results.json lists them all)\n", gaps.size() - maxGaps);
  }
  return out;
}

}  // namespace convcheck
