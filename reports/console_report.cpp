#include "reports/console_report.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "kube/go/utf8.h"
#include "properties/checks/property_registry.h"
#include "reports/failure_text.h"
#include "reports/problem_list.h"

namespace convcheck {

namespace {

// Lines stay within this width, except for values that cannot be cut (diff values, paths).
constexpr std::size_t kWidth = 160;

struct Paint {
  bool on;
  std::string operator()(const std::string& s, const char* code) const {
    return on ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  }
};

// `items` after `head`, separated by ", ", wrapped at kWidth with `indent` on each further line.
std::string wrapped(const std::string& head, const std::vector<std::string>& items,
                    const std::string& indent) {
  std::string out = head, line = head;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() + 1 + item.size() > kWidth && line.size() > indent.size()) {
      out += "\n" + indent;
      line = indent;
    } else if (i > 0 || !head.empty()) {
      out += " ";
      line += " ";
    }
    out += item;
    line += item;
  }
  return out;
}

std::string plural(int n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

void printHeader(const KindReport& kind, std::ostream& out) {
  out << fmt::format("\n{} ({}) via {}, ConversionReview {}: {} requests, {} objects, {:.1f} s\n",
                     kind.kind, kind.crdName, kind.url, kind.reviewVersion, kind.requests,
                     kind.objectsSent, kind.seconds);
  std::vector<std::string> versions;
  for (const auto& v : kind.versions) {
    auto role = kind.versionRoles.find(v);
    versions.push_back(role != kind.versionRoles.end()
                           ? fmt::format("{} ({})", v, role->second)
                           : v + (v == kind.storageVersion ? " (storage)" : ""));
  }
  out << wrapped("  versions:", versions, "    ") << "\n";
  for (const auto& n : kind.notes) out << "  note: " << n << "\n";
}

// How many cases of `kind` were judged (passed or failed) over every (property, pair).
int judgedCases(const KindReport& kind) {
  int n = 0;
  for (const auto& t : kind.tallies) n += t.passed + t.failed;
  return n;
}

// Why no case of `kind` could be judged: the first reason a tally gives, or "".
std::string notJudgedBecause(const KindReport& kind) {
  for (const auto& t : kind.tallies)
    if (!t.blockedBy.empty()) return t.blockedBy;
  return "";
}

const char* severityColour(const Problem& p) {
  return p.warningOnly || p.severity == Severity::Cosmetic ? "33" : "31;1";
}

// One line per problem: id, severity, title, cases and the sites it breaks.
void printDigest(const KindReport& kind, std::ostream& out, const Paint& paint) {
  const std::vector<Problem>& problems = kind.problems;
  if (problems.empty()) {
    // A kind the run could not test has no problems, and no verdict either.
    if (judgedCases(kind) == 0) {
      const std::string why = notJudgedBecause(kind);
      out << "  " << paint("nothing was tested", "33;1") << ": "
          << (why.empty() ? std::string("no case could be judged") : why) << "\n";
      return;
    }
    out << "  " << paint("no problems", "32;1") << "\n";
    return;
  }
  out << "  " << paint(plural(static_cast<int>(problems.size()), "problem"), "1") << ":\n";
  for (const auto& p : problems) {
    const std::string severity =
        p.warningOnly ? std::string("warning") : std::string(severityName(p.severity));
    std::string head = fmt::format("    {:<3} {:<13} {}", p.id, severity, digestTitle(p, 88));
    head += fmt::format(" ({}):", plural(p.cases, "case"));
    const std::size_t room = head.size() + 20 < kWidth ? kWidth - head.size() - 1 : 20;
    out << "    " << paint(p.id, severityColour(p)) << head.substr(4 + p.id.size()) << " "
        << sitesText(p, room) << "\n";
  }
}

// The properties, one verdict each, on as few lines as fit.
void printProperties(const KindReport& kind, std::ostream& out, const Paint& paint) {
  struct Row {
    int passed = 0, failed = 0, blocked = 0, warnings = 0, pairs = 0;
  };
  std::map<std::string, Row> rows;
  for (const auto& t : kind.tallies) {
    Row& r = rows[t.property];
    r.passed += t.passed;
    r.blocked += t.blocked;
    (t.warningOnly ? r.warnings : r.failed) += t.failed;
    if (t.failed > 0 && !t.warningOnly) ++r.pairs;
  }
  std::vector<std::string> failing, warning, held, notEvaluable;
  for (const auto& info : propertyRegistry()) {
    auto it = rows.find(std::string(info.id));
    if (it == rows.end()) continue;
    const Row& r = it->second;
    const int total = r.passed + r.failed + r.warnings;
    if (r.failed > 0)
      failing.push_back(fmt::format("{} ({} of {} cases, {})", info.id, r.failed, total,
                                    plural(r.pairs, "pair")));
    else if (r.warnings > 0)
      warning.push_back(fmt::format("{} ({} of {} cases)", info.id, r.warnings, total));
    else if (r.passed > 0)
      held.push_back(std::string(info.id));
    else
      notEvaluable.push_back(std::string(info.id));
  }
  if (!failing.empty()) out << wrapped("  " + paint("FAIL", "31;1"), failing, "       ") << "\n";
  if (!warning.empty()) out << wrapped("  " + paint("WARN", "33"), warning, "       ") << "\n";
  if (!held.empty()) out << wrapped("  " + paint("pass", "32"), held, "       ") << "\n";
  if (!notEvaluable.empty())
    out << wrapped("  " + paint("n/a ", "2"), notEvaluable, "       ") << "\n";
}

// The slowest answers in one line; every pair and batch size is in the JUnit and JSON reports.
void printLatency(const KindReport& kind, std::ostream& out) {
  if (kind.latency.empty()) return;
  const LatencyStats* slowest = &kind.latency.front();
  int calls = 0;
  double max = 0;
  for (const auto& l : kind.latency) {
    calls += l.samples;
    max = std::max(max, l.maxMs);
    if (l.p99Ms > slowest->p99Ms) slowest = &l;
  }
  out << fmt::format(
      "  latency: {} calls, slowest p99 {:.1f} ms ({} -> {}, batch {}, p50 {:.1f} ms), max {:.1f} "
      "ms\n",
      calls, slowest->p99Ms, slowest->from, slowest->to, slowest->batchSizes, slowest->p50Ms, max);
}

void printProblem(const Problem& p, const KindReport& kind, const RunReport& report,
                  const BundleRef* bundle, std::ostream& out, const Paint& paint) {
  out << "\n"
      << paint(fmt::format("{} {}", p.id, p.warningOnly ? "warning" : severityName(p.severity)),
               "1")
      << shortenUtf8(fmt::format(" ({}): {}", kind.kind, p.title), kWidth - 20) << "\n";
  std::string breaks =
      fmt::format("  breaks {}, {}", sitesText(p, kWidth - 40), plural(p.cases, "failing case"));
  if (p.warningOnly) breaks += "; only a warning: " + p.warningReason;
  out << breaks << "\n";
  // The other symptoms of the defect (engine/run/tally.h: their shrunk cases show each other).
  constexpr std::size_t kSymptomsShown = 6;
  for (std::size_t i = 0; i < p.symptoms.size() && i < kSymptomsShown; ++i)
    out << shortenUtf8("  also: " + p.symptoms[i], kWidth) << "\n";
  if (p.symptoms.size() > kSymptomsShown)
    out << fmt::format("  also: {} more symptoms (results.json)\n",
                       p.symptoms.size() - kSymptomsShown);
  // The text is shortened line by line (JUnit, JSON and the bundle's diff.txt have it whole),
  // except kube-apiserver's message (it carries the webhook's own), the diff's values and the
  // replay line's path.
  const std::string text = problemText(p, kind, report, bundle, true);
  for (std::size_t start = 0; start < text.size();) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const bool whole = line.rfind("kube-apiserver rejects this: ", 0) == 0 ||
                       line.rfind("- ", 0) == 0 || line.rfind("+ ", 0) == 0 ||
                       line.rfind("replay: ", 0) == 0 || line.rfind("input", 0) == 0;
    out << "    " << (whole ? line : shortenUtf8(line, kWidth - 4)) << "\n";
    start = end + 1;
  }
}

// A problem beyond the full blocks: one line, with where its whole text is.
void printProblemLine(const Problem& p, const KindReport& kind, const BundleRef* bundle,
                      std::ostream& out, const Paint& paint) {
  const std::string severity =
      p.warningOnly ? std::string("warning") : std::string(severityName(p.severity));
  out << "  " << paint(p.id, severityColour(p))
      << fmt::format(" {} ({}): {}; ", severity, kind.kind, digestTitle(p, 72))
      << (bundle != nullptr ? "bundle: " + shownPath(bundle->dir)
                            : std::string("no bundle (run with --report-dir)"))
      << "\n";
}

// The problems shown in full: the `limit` most severe of the run, whatever their kind, by the
// order every kind lists its own (severity, then cases; ties keep the kinds' order), the first of
// each severity among them whatever comes before it, so that a run losing data in many ways still
// shows its rejections in full.
std::set<const Problem*> fullProblems(const RunReport& report, std::size_t limit) {
  std::vector<const Problem*> all;
  for (const auto& kind : report.kinds)
    for (const auto& p : kind.problems) all.push_back(&p);
  std::stable_sort(all.begin(), all.end(), [](const Problem* a, const Problem* b) {
    if (a->warningOnly != b->warningOnly) return !a->warningOnly;
    if (a->severity != b->severity) return a->severity < b->severity;
    return a->cases > b->cases;
  });
  std::set<const Problem*> full;
  std::set<std::pair<bool, Severity>> shown;
  for (const Problem* p : all)
    if (full.size() < limit && shown.insert({p->warningOnly, p->severity}).second) full.insert(p);
  for (const Problem* p : all)
    if (full.size() < limit) full.insert(p);
  return full;
}

}  // namespace

void printConsoleReport(const RunReport& report, const WrittenBundles& bundles,
                        std::ostream& terminal, const ConsoleOptions& options) {
  // Webhook answers may hold any bytes: the text is made valid UTF-8 before it is printed.
  std::ostringstream out;
  Paint paint{options.colour};
  for (const auto& w : report.warnings) out << "warning: " << w << "\n";
  for (const auto& kind : report.kinds) {
    printHeader(kind, out);
    printDigest(kind, out, paint);
    printProperties(kind, out, paint);
    printLatency(kind, out);
  }
  const std::set<const Problem*> full = fullProblems(report, options.fullBlocks);
  int oneLine = 0;
  for (const auto& kind : report.kinds)
    for (const auto& p : kind.problems) {
      if (full.count(&p) != 0)
        printProblem(p, kind, report, bundles.find(kind, p), out, paint);
      else
        ++oneLine;
    }
  if (oneLine > 0) {
    out << "\n"
        << paint(fmt::format("{} more, one line each", plural(oneLine, "problem")), "1")
        << " (each in full in the JUnit report, results.json and its bundle's diff.txt):\n";
    for (const auto& kind : report.kinds)
      for (const auto& p : kind.problems)
        if (full.count(&p) == 0) printProblemLine(p, kind, bundles.find(kind, p), out, paint);
  }
  bool ackHeader = false;
  for (const auto& kind : report.kinds)
    for (const auto& t : kind.tallies)
      for (const auto& a : t.acknowledged) {
        if (!ackHeader) {
          out << "\n" << paint("Acknowledged differences (not failures)", "1") << "\n";
          ackHeader = true;
        }
        out << fmt::format("  [{}] {} {}: {} ({}); {}: {}\n", t.property, kind.kind, caseName(t),
                           a.ack.cause.title, plural(a.cases, "case"), a.ack.where, a.ack.reason);
      }
  if (options.fatalError && !report.fatalError.empty())
    out << "\n" << paint("error: ", "31;1") << report.fatalError << "\n";
  int problemCount = 0, failingProblems = 0;
  for (const auto& kind : report.kinds)
    for (const auto& p : kind.problems) {
      ++problemCount;
      if (!p.warningOnly) ++failingProblems;
    }
  out << "\n";
  if (report.shardCount > 1)
    out << fmt::format(
        "shard {}/{}: {} of the run's {} (kind, version pair)s; `convcheck merge` joins the "
        "shards' report directories into the run's verdict\n",
        report.shardIndex + 1, report.shardCount, report.shardPairs, report.runPairs);
  if (!report.command.empty()) out << "reproduce: " << report.command << "\n";
  const int failed = report.failedProperties();
  out << fmt::format("seed {}; {:.1f} s; ", report.seed, report.seconds);
  if (report.interrupted)
    out << paint(fmt::format("interrupted with {} and {} failed property check(s) so far; results "
                             "are partial",
                             plural(problemCount, "problem"), failed),
                 "33;1")
        << "\n";
  else if (report.exitCode == 0)
    out << paint(problemCount == 0 ? "all properties held"
                                   : fmt::format("all properties held ({} only warn)",
                                                 plural(problemCount, "problem")),
                 "32;1")
        << "\n";
  else if (report.exitCode == 1)
    out << paint(fmt::format("{} ({} failed property check(s))", plural(failingProblems, "problem"),
                             failed),
                 "31;1")
        << "\n";
  else if (report.exitCode == 2 && !report.kinds.empty())  // shards that are not one run's
    out << paint(fmt::format("results are incomplete (exit 2): {}",
                             report.fatalError.substr(0, report.fatalError.find('\n'))),
                 "33;1")
        << "\n";
  else
    out << fmt::format("nothing was tested (exit {})\n", report.exitCode);
  terminal << toValidUtf8(out.str());
}

}  // namespace convcheck
