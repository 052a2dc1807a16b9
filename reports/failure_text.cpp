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
  if (!finding.batch.empty()) {
    out += fmt::format(
        "input: {} object(s); first:\n{}\n", finding.batch.size(),
        finding.batch.front().dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  if (!report.command.empty()) out += fmt::format("reproduce: {}\n", report.command);
  return out;
}

}  // namespace convcheck
