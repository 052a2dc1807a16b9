#include "reports/junit_report.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "reports/failure_text.h"

namespace convcheck {
namespace {

void addProperty(pugi::xml_node props, const char* name, const std::string& value) {
  auto p = props.append_child("property");
  p.append_attribute("name") = name;
  p.append_attribute("value") = value.c_str();
}

// XML 1.0 cannot carry most control characters; webhook answers may contain anything.
std::string xmlSafe(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  return out;
}

}  // namespace

std::string renderJunit(const RunReport& report) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "convcheck";
  int allTests = 0, allFailures = 0, allSkipped = 0, allErrors = 0;

  if (!report.fatalError.empty() || report.interrupted) {
    auto suite = suites.append_child("testsuite");
    suite.append_attribute("name") = "convcheck";
    auto tc = suite.append_child("testcase");
    tc.append_attribute("classname") = "convcheck";
    tc.append_attribute("name") = report.interrupted ? "run interrupted" : "run";
    auto err = tc.append_child("error");
    std::string message = report.interrupted ? "the run was interrupted; results are partial"
                                             : xmlSafe(report.fatalError);
    err.append_attribute("message") = message.c_str();
    err.append_attribute("type") = report.interrupted ? "interrupted" : "fatal";
    err.text().set(message.c_str());
    suite.append_attribute("tests") = 1;
    suite.append_attribute("failures") = 0;
    suite.append_attribute("errors") = 1;
    suite.append_attribute("skipped") = 0;
    ++allTests;
    ++allErrors;
  }

  for (const auto& kind : report.kinds) {
    auto suite = suites.append_child("testsuite");
    std::string name = fmt::format("{} ({})", kind.kind, kind.crdName);
    suite.append_attribute("name") = name.c_str();
    int tests = 0, failures = 0, skipped = 0;
    auto props = suite.append_child("properties");
    addProperty(props, "seed", std::to_string(report.seed));
    addProperty(props, "url", kind.url);
    addProperty(props, "conversionReviewVersion", kind.reviewVersion);
    addProperty(props, "storageVersion", kind.storageVersion);
    for (const auto& tally : kind.tallies) {
      auto tc = suite.append_child("testcase");
      std::string classname = "convcheck." + kind.kind;
      std::string tcName = caseName(tally);
      tc.append_attribute("classname") = classname.c_str();
      tc.append_attribute("name") = tcName.c_str();
      tc.append_attribute("time") = "0";
      ++tests;
      std::string counts = fmt::format("passed {}, failed {}, not evaluable {}", tally.passed,
                                       tally.failed, tally.blocked);
      if (tally.failed > 0 && !tally.warningOnly && !tally.findings.empty()) {
        ++failures;
        const Finding& f = tally.findings.front();
        auto failure = tc.append_child("failure");
        std::string message = xmlSafe(f.cause ? causeHeadline(f) : f.summary);
        failure.append_attribute("message") = message.c_str();
        failure.append_attribute("type") = tally.property.c_str();
        std::string body;
        for (std::size_t k = 0; k < tally.findings.size(); ++k) {
          const Finding& each = tally.findings[k];
          if (each.cause) body += fmt::format("cause {}: {}\n", k + 1, causeHeadline(each));
          body += failureText(each, report) + "\n";
        }
        if (tally.moreCauses > 0) body += fmt::format("{} more cause(s)\n", tally.moreCauses);
        std::string text = xmlSafe(body + counts + "\n");
        failure.text().set(text.c_str());
      } else if (tally.failed > 0 && !tally.findings.empty()) {
        ++skipped;
        auto skip = tc.append_child("skipped");
        std::string message = xmlSafe("warning only (" + tally.warningReason +
                                      "): " + tally.findings.front().summary);
        skip.append_attribute("message") = message.c_str();
      } else if (tally.passed == 0) {
        ++skipped;
        auto skip = tc.append_child("skipped");
        std::string message = xmlSafe("not evaluable: " + tally.blockedBy);
        skip.append_attribute("message") = message.c_str();
      }
      if (tally.property == "timeout")
        for (const auto& l : kind.latency)
          if (l.from == tally.from && l.to == tally.to)
            counts += fmt::format(
                "\nlatency batch {}: {} calls, p50 {:.1f} ms, p95 {:.1f} ms, "
                "p99 {:.1f} ms, max {:.1f} ms",
                l.batchSizes, l.samples, l.p50Ms, l.p95Ms, l.p99Ms, l.maxMs);
      for (const auto& a : tally.acknowledged)
        counts += fmt::format("\nacknowledged ({} cases): {}; {}: {}", a.cases, a.ack.cause.title,
                              a.ack.where, a.ack.reason);
      counts = xmlSafe(counts);
      tc.append_child("system-out").text().set(counts.c_str());
    }
    suite.append_attribute("tests") = tests;
    suite.append_attribute("failures") = failures;
    suite.append_attribute("errors") = 0;
    suite.append_attribute("skipped") = skipped;
    allTests += tests;
    allFailures += failures;
    allSkipped += skipped;
  }
  suites.append_attribute("tests") = allTests;
  suites.append_attribute("failures") = allFailures;
  suites.append_attribute("errors") = allErrors;
  suites.append_attribute("skipped") = allSkipped;
  suites.append_attribute("time") = fmt::format("{:.3f}", report.seconds).c_str();
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

std::string writeJunit(const RunReport& report, const std::string& path) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return fmt::format("cannot write JUnit report {}", path);
    f << renderJunit(report);
    if (!f.flush()) return fmt::format("cannot write JUnit report {}", path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return fmt::format("cannot move JUnit report into place at {}", path);
  return "";
}

}  // namespace convcheck
