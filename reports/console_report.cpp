#include "reports/console_report.h"

#include <map>
#include <ostream>

#include <fmt/format.h>

#include "properties/checks/property_registry.h"
#include "reports/failure_text.h"

namespace convcheck {

namespace {
struct Paint {
  bool on;
  std::string operator()(const std::string& s, const char* code) const {
    return on ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  }
};
}  // namespace

void printConsoleReport(const RunReport& report, std::ostream& out, bool colour) {
  Paint paint{colour};
  for (const auto& w : report.warnings) out << "warning: " << w << "\n";
  for (const auto& kind : report.kinds) {
    out << fmt::format("\n{} ({}) via {}, ConversionReview {}\n", kind.kind, kind.crdName, kind.url,
                       kind.reviewVersion);
    std::string versions;
    for (const auto& v : kind.versions)
      versions +=
          (versions.empty() ? "" : ", ") + v + (v == kind.storageVersion ? " (storage)" : "");
    out << fmt::format("  versions: {}; {} requests, {} objects sent\n", versions, kind.requests,
                       kind.objectsSent);
    for (const auto& n : kind.notes) out << "  note: " << n << "\n";
    // One row per property, aggregated over version pairs.
    struct Row {
      int passed = 0, failed = 0, blocked = 0, warnings = 0;
      std::vector<std::string> failingPairs;
    };
    std::map<std::string, Row> rows;
    for (const auto& t : kind.tallies) {
      Row& r = rows[t.property];
      r.passed += t.passed;
      r.blocked += t.blocked;
      if (t.warningOnly)
        r.warnings += t.failed;
      else
        r.failed += t.failed;
      if (t.failed > 0 && !t.from.empty())
        r.failingPairs.push_back(fmt::format("{}->{}", t.from, t.to));
    }
    for (const auto& info : propertyRegistry()) {
      auto it = rows.find(std::string(info.id));
      if (it == rows.end()) continue;
      const Row& r = it->second;
      std::string verdict = r.failed > 0     ? paint("FAIL", "31;1")
                            : r.warnings > 0 ? paint("WARN", "33")
                            : r.passed > 0   ? paint("pass", "32")
                                             : paint("n/a ", "2");
      std::string pairs;
      for (std::size_t i = 0; i < r.failingPairs.size() && i < 4; ++i)
        pairs += (i ? " " : "") + r.failingPairs[i];
      if (r.failingPairs.size() > 4) pairs += fmt::format(" +{}", r.failingPairs.size() - 4);
      out << fmt::format("  {} {:<26} {:>6} passed {:>5} failed {:>5} n/a  {}\n", verdict, info.id,
                         r.passed, r.failed + r.warnings, r.blocked, pairs);
    }
    if (!kind.latency.empty()) {
      out << "  latency (ms)            batch   calls    p50    p95    p99    max\n";
      for (const auto& l : kind.latency)
        out << fmt::format("  {:>10} -> {:<10} {:>6} {:>7} {:>6.1f} {:>6.1f} {:>6.1f} {:>6.1f}\n",
                           l.from, l.to, l.batchSizes, l.samples, l.p50Ms, l.p95Ms, l.p99Ms,
                           l.maxMs);
    }
  }
  bool header = false;
  for (const auto& kind : report.kinds) {
    for (const auto& t : kind.tallies) {
      if (t.failed == 0) continue;
      if (!header) {
        out << "\n" << paint("Failures", "1") << "\n";
        header = true;
      }
      out << fmt::format(
          "\n[{}] {} {}{}: {} of {} cases failed, {} cause{}\n", t.property, kind.kind, caseName(t),
          t.warningOnly ? " (warning: " + t.warningReason + ")" : "", t.failed, t.failed + t.passed,
          t.findings.size() + t.moreCauses, t.findings.size() + t.moreCauses == 1 ? "" : "s");
      for (std::size_t k = 0; k < t.findings.size(); ++k) {
        const Finding& f = t.findings[k];
        if (f.cause) out << fmt::format("  {}. {}\n", k + 1, causeHeadline(f));
        std::string text = failureText(f, report, true);
        for (std::size_t start = 0; start < text.size();) {
          auto end = text.find('\n', start);
          if (end == std::string::npos) end = text.size();
          out << "      " << text.substr(start, end - start) << "\n";
          start = end + 1;
        }
      }
      if (t.moreCauses > 0)
        out << fmt::format("  ... and {} more cause(s), counted in results.json\n", t.moreCauses);
    }
  }
  bool ackHeader = false;
  for (const auto& kind : report.kinds)
    for (const auto& t : kind.tallies)
      for (const auto& a : t.acknowledged) {
        if (!ackHeader) {
          out << "\n" << paint("Acknowledged differences (not failures)", "1") << "\n";
          ackHeader = true;
        }
        out << fmt::format("  [{}] {} {}: {} ({} case{}); {}: {}\n", t.property, kind.kind,
                           caseName(t), a.ack.cause.title, a.cases, a.cases == 1 ? "" : "s",
                           a.ack.where, a.ack.reason);
      }
  if (!report.fatalError.empty())
    out << "\n" << paint("error: ", "31;1") << report.fatalError << "\n";
  int failed = report.failedProperties();
  out << fmt::format("\nseed {}; {:.1f} s; ", report.seed, report.seconds);
  if (report.interrupted)
    out << paint(fmt::format("interrupted after {} failed property check(s); results are partial",
                             failed),
                 "33;1")
        << "\n";
  else if (report.exitCode == 0)
    out << paint("all properties held", "32;1") << "\n";
  else if (report.exitCode == 1)
    out << paint(fmt::format("{} property check(s) failed", failed), "31;1") << "\n";
  else
    out << fmt::format("nothing was tested (exit {})\n", report.exitCode);
}

}  // namespace convcheck
