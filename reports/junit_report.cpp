#include "reports/junit_report.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "kube/go/go_format.h"
#include "kube/go/utf8.h"
#include "properties/checks/cause_analysis.h"
#include "properties/checks/property_registry.h"
#include "reports/failure_text.h"
#include "reports/problem_list.h"

namespace convcheck {

std::string xmlSafe(const std::string& text) {
  const std::string valid = toValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  std::string_view rest = valid;
  while (!rest.empty()) {
    const auto [rune, width] = decodeRune(rest);
    if ((rune < 0x20 && rune != '\n' && rune != '\t' && rune != '\r') || rune == 0xFFFE ||
        rune == 0xFFFF)
      out += rune < 0x20 ? fmt::format("\\x{:02x}", static_cast<unsigned>(rune))
                         : fmt::format("\\u{:04X}", static_cast<unsigned>(rune));
    else
      out.append(rest.substr(0, width));
    rest.remove_prefix(width);
  }
  return out;
}

namespace {

void setAttribute(pugi::xml_node node, const char* name, const std::string& value) {
  node.append_attribute(name) = xmlSafe(value).c_str();
}

void addProperty(pugi::xml_node props, const char* name, const std::string& value) {
  auto p = props.append_child("property");
  setAttribute(p, "name", name);
  setAttribute(p, "value", value);
}

std::string seconds(double s) { return fmt::format("{:.3f}", s); }

std::string problemHeadline(const Problem& p) {
  return fmt::format("{} {}: {}", p.id, p.warningOnly ? "warning" : severityName(p.severity),
                     p.title);
}

// The problems a testcase shows: each in full at its first site, elsewhere a pointer to it.
std::string problemsBody(const std::vector<const Problem*>& problems, const PropertyTally& tally,
                         const KindReport& kind, const RunReport& report,
                         const WrittenBundles& bundles) {
  std::string body;
  for (const Problem* p : problems) {
    body += problemHeadline(*p) + "\n";
    body += fmt::format("breaks {} ({} failing case{})\n", sitesText(*p), p->cases,
                        p->cases == 1 ? "" : "s");
    if (p->warningOnly) body += "only a warning: " + p->warningReason + "\n";
    if (isFirstSite(*p, tally, kind)) {
      body += problemText(*p, kind, report, bundles.find(kind, *p)) + "\n";
      continue;
    }
    for (const auto& t : kind.tallies)
      if (isFirstSite(*p, t, kind)) {
        body += fmt::format("shown in full under \"{}\"\n\n", caseName(t));
        break;
      }
  }
  return body;
}

std::string countsText(const PropertyTally& tally, const KindReport& kind) {
  std::string counts = fmt::format("passed {}, failed {}, not evaluable {}", tally.passed,
                                   tally.failed, tally.blocked);
  if (!tally.blockedBy.empty()) counts += " (first: " + tally.blockedBy + ")";
  if (const Property* p = findProperty(tally.property); p != nullptr && p->aboutLatency)
    for (const auto& l : kind.latency)
      if (l.from == tally.from && l.to == tally.to)
        counts += fmt::format(
            "\nlatency batch {}: {} calls, p50 {:.1f} ms, p95 {:.1f} ms, p99 {:.1f} ms, max {:.1f} "
            "ms",
            l.batchSizes, l.samples, l.p50Ms, l.p95Ms, l.p99Ms, l.maxMs);
  for (const auto& a : tally.acknowledged)
    counts += fmt::format("\nacknowledged ({} cases): {}; {}: {}", a.cases, a.ack.cause.title,
                          a.ack.where, a.ack.reason);
  return counts;
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};

Counts addKind(pugi::xml_node suites, const KindReport& kind, const RunReport& report,
               const WrittenBundles& bundles) {
  Counts c;
  auto suite = suites.append_child("testsuite");
  setAttribute(suite, "name", fmt::format("{} ({})", kind.kind, kind.crdName));
  auto props = suite.append_child("properties");
  addProperty(props, "seed", std::to_string(report.seed));
  addProperty(props, "command", report.command);
  addProperty(props, "url", kind.url);
  addProperty(props, "conversionReviewVersion", kind.reviewVersion);
  addProperty(props, "storageVersion", kind.storageVersion);
  for (const auto& [version, role] : kind.versionRoles)
    addProperty(props, ("version " + version).c_str(), role);
  const std::vector<Problem>& problems = kind.problems;
  addProperty(props, "problems", std::to_string(problems.size()));
  // A kind's wall time spread evenly: the cases of every (property, pair) run interleaved, on the
  // same calls, so no one of them has a time of its own.
  const double each = kind.tallies.empty() ? 0 : kind.seconds / kind.tallies.size();
  for (const auto& tally : kind.tallies) {
    auto tc = suite.append_child("testcase");
    setAttribute(tc, "classname", "convcheck." + kind.kind);
    setAttribute(tc, "name", caseName(tally));
    setAttribute(tc, "time", seconds(each));
    ++c.tests;
    const std::vector<const Problem*> shown = problemsAt(problems, tally);
    std::string headline;
    for (const Problem* p : shown)
      headline += (headline.empty() ? "" : "; ") + shortenUtf8(problemHeadline(*p), 200);
    const std::string counts = countsText(tally, kind);
    if (tally.failed > 0 && !tally.warningOnly) {
      ++c.failures;
      auto failure = tc.append_child("failure");
      setAttribute(failure, "message",
                   headline.empty() ? fmt::format("{} case(s) failed", tally.failed) : headline);
      setAttribute(failure, "type", tally.property);
      failure.text().set(
          xmlSafe(problemsBody(shown, tally, kind, report, bundles) + counts + "\n").c_str());
    } else if (tally.failed > 0) {
      ++c.skipped;
      auto skip = tc.append_child("skipped");
      setAttribute(skip, "message", "warning only (" + tally.warningReason + "): " + headline);
      tc.append_child("system-out")
          .text()
          .set(xmlSafe(problemsBody(shown, tally, kind, report, bundles) + counts).c_str());
      continue;
    } else if (tally.passed == 0) {
      ++c.skipped;
      auto skip = tc.append_child("skipped");
      setAttribute(skip, "message", "not evaluable: " + tally.blockedBy);
    }
    tc.append_child("system-out").text().set(xmlSafe(counts).c_str());
  }
  setAttribute(suite, "tests", std::to_string(c.tests));
  setAttribute(suite, "failures", std::to_string(c.failures));
  setAttribute(suite, "errors", "0");
  setAttribute(suite, "skipped", std::to_string(c.skipped));
  setAttribute(suite, "time", seconds(kind.seconds));
  if (!report.startedAt.empty()) setAttribute(suite, "timestamp", report.startedAt);
  return c;
}

}  // namespace

std::string renderJunit(const RunReport& report, const WrittenBundles& bundles) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "convcheck";
  Counts all;

  if (!report.fatalError.empty() || report.interrupted) {
    auto suite = suites.append_child("testsuite");
    suite.append_attribute("name") = "convcheck";
    auto tc = suite.append_child("testcase");
    tc.append_attribute("classname") = "convcheck";
    tc.append_attribute("name") = report.interrupted ? "run interrupted" : "run";
    tc.append_attribute("time") = seconds(report.seconds).c_str();
    auto err = tc.append_child("error");
    const std::string message =
        report.interrupted ? "the run was interrupted; results are partial" : report.fatalError;
    setAttribute(err, "message", message);
    err.append_attribute("type") = report.interrupted ? "interrupted" : "fatal";
    err.text().set(xmlSafe(message).c_str());
    suite.append_attribute("tests") = 1;
    suite.append_attribute("failures") = 0;
    suite.append_attribute("errors") = 1;
    suite.append_attribute("skipped") = 0;
    suite.append_attribute("time") = seconds(report.seconds).c_str();
    if (!report.startedAt.empty()) setAttribute(suite, "timestamp", report.startedAt);
    ++all.tests;
    ++all.errors;
  }

  for (const auto& kind : report.kinds) {
    const Counts c = addKind(suites, kind, report, bundles);
    all.tests += c.tests;
    all.failures += c.failures;
    all.skipped += c.skipped;
  }
  // junit-10.xsd allows no skipped count on <testsuites>: each testsuite carries its own.
  suites.append_attribute("tests") = all.tests;
  suites.append_attribute("failures") = all.failures;
  suites.append_attribute("errors") = all.errors;
  suites.append_attribute("time") = seconds(report.seconds).c_str();
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

std::string writeJunit(const RunReport& report, const WrittenBundles& bundles,
                       const std::string& path) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return fmt::format("cannot write JUnit report {}", path);
    f << renderJunit(report, bundles);
    if (!f.flush()) return fmt::format("cannot write JUnit report {}", path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return fmt::format("cannot move JUnit report into place at {}", path);
  return "";
}

}  // namespace convcheck
