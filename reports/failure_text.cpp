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

// Everything after the lead sentence.
std::string failureBody(const Finding& finding, const RunReport& report, const BundleRef* bundle,
                        bool compact) {
  std::string out;
  if (!finding.apiserverMessage.empty())
    out += fmt::format("kube-apiserver rejects this: {}\n", finding.apiserverMessage);
  for (const auto& d : finding.details) out += "  " + d + "\n";
  if (!finding.expected.is_null() || !finding.got.is_null()) {
    auto diff = jsonDiff(finding.expected, finding.got);
    if (!diff.empty()) out += "diff (expected -> got):\n" + renderDiff(diff, compact ? 12 : 40);
  }
  // A view, not a copy: the batch of a large case is shown by its size.
  const SharedObjects& input = finding.caseObjects.empty() ? finding.batch : finding.caseObjects;
  std::size_t inputBytes = 0;
  for (const auto& o : input)
    inputBytes += o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
  if (compact && !input.empty() && (input.size() > 1 || inputBytes > kInlineInputBytes)) {
    out += fmt::format("input{}: {} object(s), {} B of JSON; {}\n",
                       finding.shrink ? " (shrunk)" : "", input.size(), inputBytes,
                       bundle == nullptr
                           ? "run with --report-dir to keep the full objects"
                           : "full objects in " + shownPath(bundle->dir) + "/request-1.json");
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
  if (finding.shrink) out += shrinkSummary(*finding.shrink, report.interrupted) + "\n";
  if (!finding.origin.empty() && finding.origin != "generated")
    out += fmt::format("found by: {}\n", finding.origin);
  if (!compact && !report.command.empty()) out += fmt::format("reproduce: {}\n", report.command);
  if (bundle != nullptr)
    out += fmt::format("replay: {}\n", replayCommand(shownPath(bundle->dir), report.reach));
  if (!compact && bundle != nullptr && !bundle->curl.empty())
    out += fmt::format("curl: {}\n", bundle->curl);
  return out;
}

// How many other problems the lead names at most.
constexpr std::size_t kOthersNamed = 3;

// "spec.port is lost (was 1) (data loss, P8)": another problem the example's case shows.
std::string otherProblem(const Cause& cause, const KindReport& kind) {
  std::string where = severityName(cause.severity);
  for (const auto& p : kind.problems)
    if (!cause.problem.empty() && p.key == cause.problem) where += ", " + p.id;
  return fmt::format("{} ({})", cause.title, where);
}

}  // namespace

std::string failureText(const Finding& finding, const RunReport& report, const BundleRef* bundle,
                        bool compact) {
  return finding.summary + "\n" + failureBody(finding, report, bundle, compact);
}

std::string problemText(const Problem& problem, const KindReport& kind, const RunReport& report,
                        const BundleRef* bundle, bool compact) {
  const Finding& example = problem.example;
  std::vector<const Cause*> graver;
  for (const auto& c : example.causes)
    if (c.severity < problem.severity) graver.push_back(&c);
  if (graver.empty()) return failureText(example, report, bundle, compact);
  std::string lead = fmt::format("{}: {}; the same case also shows ",
                                 severityName(problem.severity), problem.title);
  for (std::size_t i = 0; i < graver.size() && i < kOthersNamed; ++i)
    lead += (i == 0 ? "" : "; ") + otherProblem(*graver[i], kind);
  if (graver.size() > kOthersNamed) lead += fmt::format("; {} more", graver.size() - kOthersNamed);
  return lead + "\n" + failureBody(example, report, bundle, compact);
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

std::string shrinkSummary(const ShrinkInfo& s, bool interrupted) {
  // Without a call, or stopped before the failure was seen again, nothing was learnt about
  // smaller cases: say why it was not shrunk, never that no smaller case fails.
  if (!s.reproduced && (s.calls == 0 || interrupted)) {
    const char* why = interrupted         ? "the run was interrupted"
                      : s.budgetExhausted ? "the run's --shrink-budget was spent before its turn"
                                          : "shrinking was off or stopped before its first call";
    return fmt::format("not shrunk ({}): {} object(s), {} fields, {}", why, s.originalObjects,
                       s.originalFields, bytes(s.originalBytes));
  }
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
