// The report formats a run writes: distinct options and file names, and each entry writes its own
// format (JUnit XML, JSON, Markdown, HTML) to the path it is given; only the summary has a default
// path ($GITHUB_STEP_SUMMARY).
#include "reports/report_formats.h"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace convcheck {
namespace {

RunReport minimalReport() {
  RunReport r;
  r.seed = 42;
  KindReport k;
  k.kind = "CronTab";
  k.crdName = "crontabs.stable.example.com";
  k.tallies = {PropertyTally{"order", "v1beta1", "v1", 10, 0, 0, {}, "", false}};
  r.kinds.push_back(k);
  return r;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ReportFormats, EachHasItsOwnOptionAndFileName) {
  std::set<std::string> ids, files;
  for (const auto& f : reportFormats()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id;
    EXPECT_TRUE(files.insert(f.fileName).second) << f.fileName;
    EXPECT_FALSE(f.help.empty()) << f.id;
    EXPECT_TRUE(f.write) << f.id;
  }
  EXPECT_EQ(ids, (std::set<std::string>{"junit", "json", "summary", "html"}));
}

TEST(ReportFormats, OnlyTheSummaryGoesToTheGithubStepSummaryByDefault) {
  ::setenv("GITHUB_STEP_SUMMARY", "/tmp/step-summary.md", 1);
  for (const auto& f : reportFormats())
    EXPECT_EQ(f.defaultPath ? f.defaultPath() : "", f.id == "summary" ? "/tmp/step-summary.md" : "")
        << f.id;
  ::unsetenv("GITHUB_STEP_SUMMARY");
  for (const auto& f : reportFormats()) EXPECT_EQ(f.defaultPath ? f.defaultPath() : "", "") << f.id;
}

TEST(ReportFormats, EachWritesItsFormatToThePathGiven) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("convcheck-report-formats-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& f : reportFormats()) {
    const auto path = dir / f.fileName;
    ASSERT_EQ(f.write(minimalReport(), {}, path.string()), "") << f.id;
    const std::string text = slurp(path);
    if (f.id == "junit") {
      pugi::xml_document doc;
      ASSERT_TRUE(doc.load_string(text.c_str())) << text;
      EXPECT_STREQ(doc.child("testsuites").child("testsuite").attribute("name").value(),
                   "CronTab (crontabs.stable.example.com)");
    } else if (f.id == "summary") {
      EXPECT_EQ(text.rfind("## convcheck: 0 problems", 0), 0u) << text;
      EXPECT_NE(text.find("### CronTab (`crontabs.stable.example.com`)"), std::string::npos)
          << text;
    } else if (f.id == "html") {
      EXPECT_EQ(text.rfind("<!DOCTYPE html>", 0), 0u) << text;
      EXPECT_NE(text.find("CronTab"), std::string::npos) << text;
    } else {
      auto json = nlohmann::json::parse(text);
      EXPECT_EQ(json["kinds"][0]["kind"], "CronTab");
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace convcheck
