#include "reports/failure_text.h"

#include <filesystem>

#include <fmt/format.h>

#include "properties/checks/cause_analysis.h"
#include "properties/checks/json_diff.h"
#include "reports/bundle_target.h"

namespace convcheck {

std::string caseName(const PropertyTally& tally) {
  if (tally.from.empty()) return tally.property;
  return fmt::format("{} -> {}: {}", tally.from, tally.to, tally.property);
}

std::string causeHeadline(const Finding& finding) {
  if (!finding.cause) return "";
  return fmt::format("{}: {} ({} case{})", severityName(finding.cause->severity),
                     finding.cause->title, finding.cases, finding.cases == 1 ? "" : "s");
}

namespace {
// The console shows a case's objects inline up to this size, and names the bundle file beyond.
constexpr std::size_t kInlineInputBytes = 140;
}  // namespace

std::string failureText(const Finding& finding, const RunReport& report, bool compact) {
  std::string out = finding.summary + "\n";
  if (!finding.apiserverMessage.empty())
    out += fmt::format("kube-apiserver rejects this: {}\n", finding.apiserverMessage);
  for (const auto& d : finding.details) out += "  " + d + "\n";
  if (!finding.expected.is_null() || !finding.got.is_null()) {
    auto diff = jsonDiff(finding.expected, finding.got);
    if (!diff.empty()) out += "diff (expected -> got):\n" + renderDiff(diff, compact ? 12 : 40);
  }
  // A view, not a copy: the batch of a large case is shown by its size.
  const SharedObjects input = finding.caseObjects.empty()
                                  ? finding.batch
                                  : SharedObjects::heldBy(nullptr, finding.caseObjects);
  std::size_t inputBytes = 0;
  for (const auto& o : input)
    inputBytes += o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
  if (compact && !input.empty() && (input.size() > 1 || inputBytes > kInlineInputBytes)) {
    out += fmt::format("input{}: {} object(s), {} B of JSON; {}\n",
                       finding.shrink ? " (shrunk)" : "", input.size(), inputBytes,
                       finding.bundle.empty()
                           ? "run with --report-dir to keep the full objects"
                           : "full objects in " + shownPath(finding.bundle) + "/request-1.json");
  } else if (compact && !input.empty()) {
    out += fmt::format("input{}: {}\n", finding.shrink ? " (shrunk)" : "",
                       input[0].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  } else if (!input.empty()) {
    const std::size_t shown = input.size() <= 4 ? input.size() : 1;
    out += fmt::format("input{}: {} object(s){}\n", finding.shrink ? " (shrunk)" : "", input.size(),
                       shown < input.size() ? "; first:" : ":");
    for (std::size_t i = 0; i < shown; ++i)
      out += input[i].dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  if (finding.shrink) out += shrinkSummary(*finding.shrink) + "\n";
  if (!finding.origin.empty() && finding.origin != "generated")
    out += fmt::format("found by: {}\n", finding.origin);
  if (!compact && !report.command.empty()) out += fmt::format("reproduce: {}\n", report.command);
  if (!finding.bundle.empty())
    out += fmt::format("replay: {}\n", replayCommand(shownPath(finding.bundle), report.reach));
  if (!compact && !finding.curl.empty()) out += fmt::format("curl: {}\n", finding.curl);
  return out;
}

std::string shownPath(const std::string& path) {
  std::error_code ec;
  const auto relative = std::filesystem::proximate(path, ec);
  if (ec || relative.empty() || relative.string().rfind("..", 0) == 0) return path;
  return relative.string();
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
