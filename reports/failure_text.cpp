#include "reports/failure_text.h"

#include <fmt/format.h>

#include "properties/checks/json_diff.h"

namespace convcheck {

std::string caseName(const PropertyTally& tally) {
  if (tally.from.empty()) return tally.property;
  return fmt::format("{} -> {}: {}", tally.from, tally.to, tally.property);
}

std::string failureText(const Finding& finding, const RunReport& report) {
  std::string out = finding.summary + "\n";
  if (!finding.apiserverMessage.empty())
    out += fmt::format("kube-apiserver rejects this: {}\n", finding.apiserverMessage);
  for (const auto& d : finding.details) out += "  " + d + "\n";
  if (!finding.expected.is_null() || !finding.got.is_null()) {
    auto diff = jsonDiff(finding.expected, finding.got);
    if (!diff.empty()) out += "diff (expected -> got):\n" + renderDiff(diff);
  }
  const auto& input = finding.caseObjects.empty() ? finding.batch : finding.caseObjects;
  if (!input.empty()) {
    const std::size_t shown = input.size() <= 4 ? input.size() : 1;
    out += fmt::format("input{}: {} object(s){}\n", finding.shrink ? " (shrunk)" : "", input.size(),
                       shown < input.size() ? "; first:" : ":");
    for (std::size_t i = 0; i < shown; ++i)
      out += input[i].dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  if (finding.shrink) out += shrinkSummary(*finding.shrink) + "\n";
  if (!finding.origin.empty() && finding.origin != "generated")
    out += fmt::format("found by: {}\n", finding.origin);
  if (!report.command.empty()) out += fmt::format("reproduce: {}\n", report.command);
  if (!finding.bundle.empty()) out += fmt::format("replay: convcheck replay {}\n", finding.bundle);
  if (!finding.curl.empty()) out += fmt::format("curl: {}\n", finding.curl);
  return out;
}

namespace {
std::string bytes(std::size_t n) {
  if (n < 10 * 1024) return fmt::format("{} B", n);
  if (n < 10 * 1024 * 1024) return fmt::format("{:.1f} KiB", n / 1024.0);
  return fmt::format("{:.1f} MiB", n / (1024.0 * 1024.0));
}
}  // namespace

std::string shrinkSummary(const ShrinkInfo& s) {
  std::string out = fmt::format(
      "shrunk from {} object(s), {} fields, {} to {} object(s), {} fields ({} optional), {} in {} "
      "webhook call(s)",
      s.originalObjects, s.originalFields, bytes(s.originalBytes), s.shrunkObjects, s.shrunkFields,
      s.optionalFields, bytes(s.shrunkBytes), s.calls);
  if (!s.reproduced) out += "; no smaller case failed the same way";
  if (s.budgetExhausted) out += "; --shrink-budget spent, so it may not be minimal";
  return out;
}

}  // namespace convcheck
