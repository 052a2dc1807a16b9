// Reading a reproduction bundle: its case goes through the case codec of regression files
// (harness/corpus/case_json), so the same seed and object rules hold for both; the CRD file is the
// one bundle.json names (format 2) or the bundle's own (format 1); malformed files are refused
// with the file and field named.
#include "reports/bundle_reader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "reports/bundle_writer.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json bundleJson(const json& theCase) {
  return {{"format", kBundleFormat},
          {"crd", "widgets.example.com"},
          {"crdFile", "../crd.json"},
          {"kind", "Widget"},
          {"property", "round-trip"},
          {"from", "v1"},
          {"to", "v2"},
          {"part", "forward"},
          {"case", theCase},
          {"target", {{"url", "https://127.0.0.1:9443/convert"}}}};
}

// A bundle directory inside a report directory of the test's own: ctest runs the tests of this
// file in parallel processes.
fs::path testDir() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir =
      fs::path(::testing::TempDir()) /
      ("bundle_reader_test-" + std::string(test->name()) + "-" + std::to_string(::getpid())) /
      "bundle";
  fs::create_directories(dir);
  return dir;
}

std::variant<Bundle, std::string> readText(const std::string& text) {
  const fs::path dir = testDir();
  std::ofstream(dir / "bundle.json") << text;
  std::ofstream(dir.parent_path() / "crd.json") << "{}";  // the run's, as bundleJson names it
  std::ofstream(dir / "crd.json") << "{}";                // a format 1 bundle's own
  return readBundle(dir.string());
}

std::variant<Bundle, std::string> readWritten(const json& bundle) {
  return readText(bundle.dump());
}

// The error of reading `bundle`, or "" when it reads.
std::string errorOf(const std::variant<Bundle, std::string>& read) {
  return std::holds_alternative<std::string>(read) ? std::get<std::string>(read) : "";
}

json validCase() {
  return {{"to", "v2"},
          {"seed", "18446744073709551557"},
          {"cause", "spec.size"},
          {"objects", json::array({{{"apiVersion", "example.com/v1"}, {"kind", "Widget"}}})}};
}

TEST(BundleReader, TheCaseIsReadWithItsSeedAsText) {
  auto read = readWritten(bundleJson(validCase()));
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  const Bundle& b = std::get<Bundle>(read);
  EXPECT_EQ(b.caseTo, "v2");
  EXPECT_EQ(b.seed, 18446744073709551557ull);
  EXPECT_EQ(b.cause, "spec.size");
  ASSERT_EQ(b.objects.size(), 1u);
  EXPECT_EQ(b.objects[0]["kind"], "Widget");
}

TEST(BundleReader, ACaseBrokenAsARegressionFileWouldBeIsRefusedTheSameWay) {
  json c = validCase();
  c["seed"] = "12abc";
  auto read = readWritten(bundleJson(c));
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_NE(
      std::get<std::string>(read).find("case.seed: must be a decimal unsigned 64-bit integer"),
      std::string::npos)
      << std::get<std::string>(read);
  c = validCase();
  c["objects"].push_back(json{{"kind", "Widget"}});
  read = readWritten(bundleJson(c));
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_NE(std::get<std::string>(read).find("case.objects[1]: must be an object with apiVersion"),
            std::string::npos)
      << std::get<std::string>(read);
}

TEST(BundleReader, TheCrdFileIsTheOneBundleJsonNamesRelativeToTheBundle) {
  auto read = readWritten(bundleJson(validCase()));
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  EXPECT_EQ(std::get<Bundle>(read).crdFile, (testDir().parent_path() / "crd.json").string());
}

TEST(BundleReader, AFormat1BundleReadsItsOwnCrdJson) {
  json b = bundleJson(validCase());
  b["format"] = 1;
  b.erase("crdFile");
  auto read = readWritten(b);
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  EXPECT_EQ(std::get<Bundle>(read).crdFile, (testDir() / "crd.json").string());
}

TEST(BundleReader, AFormat2BundleWithoutItsCrdFileIsRefused) {
  json b = bundleJson(validCase());
  b.erase("crdFile");
  EXPECT_NE(errorOf(readWritten(b)).find("bundle.json: crdFile: required (a string)"),
            std::string::npos)
      << errorOf(readWritten(b));
}

TEST(BundleReader, AMissingCrdFileIsRefusedSayingToKeepTheReportDirectoryWhole) {
  json b = bundleJson(validCase());
  b["crdFile"] = "../no-such-crd.json";
  const std::string error = errorOf(readWritten(b));
  EXPECT_NE(error.find("bundle.json: crdFile: "), std::string::npos) << error;
  EXPECT_NE(error.find("no-such-crd.json is not there"), std::string::npos) << error;
  EXPECT_NE(error.find("copy the report directory whole"), std::string::npos) << error;
}

TEST(BundleReader, AnUnknownFormatIsRefusedNamingIt) {
  json b = bundleJson(validCase());
  b["format"] = 3;
  EXPECT_NE(errorOf(readWritten(b)).find("format 3 is not known to this convcheck"),
            std::string::npos);
  b["format"] = "2";
  EXPECT_NE(errorOf(readWritten(b)).find("format: required"), std::string::npos);
}

TEST(BundleReader, MalformedFilesAreRefusedWithTheFileNamed) {
  EXPECT_NE(errorOf(readText("{not json")).find("bundle.json: not a JSON object"),
            std::string::npos);
  EXPECT_NE(errorOf(readText("[1, 2]")).find("bundle.json: not a JSON object"), std::string::npos);
  EXPECT_NE(errorOf(readBundle("/nonexistent/bundle")).find("cannot read"), std::string::npos);
  json b = bundleJson(validCase());
  b.erase("target");
  EXPECT_NE(errorOf(readWritten(b)).find("target: required"), std::string::npos);
  b = bundleJson(validCase());
  b["property"] = 5;
  EXPECT_NE(errorOf(readWritten(b)).find("property: required (a string)"), std::string::npos);
  b = bundleJson(validCase());
  b["target"]["insecureSkipTlsVerify"] = "yes";
  EXPECT_NE(errorOf(readWritten(b)).find("insecureSkipTlsVerify: must be a boolean"),
            std::string::npos);
  b = bundleJson(validCase());
  b.erase("case");
  EXPECT_NE(errorOf(readWritten(b)).find("case: required"), std::string::npos);
}

TEST(BundleReader, EveryTruncationOfAValidFileIsRefusedWithTheFileNamed) {
  const std::string text = bundleJson(validCase()).dump(2);
  ASSERT_TRUE(std::holds_alternative<Bundle>(readText(text)));
  for (std::size_t cut = 0; cut < text.size(); cut += 3) {
    const std::string error = errorOf(readText(text.substr(0, cut)));
    EXPECT_NE(error.find("bundle.json: not a JSON object"), std::string::npos)
        << "cut at " << cut << ": " << error;
  }
}

TEST(BundleReader, EachRequiredFieldMissingIsNamed) {
  for (const char* field : {"crd", "kind", "property", "from", "to", "part"}) {
    json b = bundleJson(validCase());
    b.erase(field);
    const std::string error = errorOf(readWritten(b));
    EXPECT_NE(error.find(std::string("bundle.json: ") + field + ": required (a string)"),
              std::string::npos)
        << field << ": " << error;
  }
  json b = bundleJson(validCase());
  b["target"].erase("url");
  EXPECT_NE(errorOf(readWritten(b)).find("bundle.json: target.url: required (a string)"),
            std::string::npos)
      << errorOf(readWritten(b));
  b = bundleJson(validCase());
  b["target"] = "https://127.0.0.1:9443/convert";
  EXPECT_NE(errorOf(readWritten(b)).find("bundle.json: target: required"), std::string::npos);
  b = bundleJson(validCase());
  b["case"] = json::array();
  EXPECT_NE(errorOf(readWritten(b)).find("case"), std::string::npos) << errorOf(readWritten(b));
  b = bundleJson(validCase());
  b["case"].erase("objects");
  EXPECT_NE(errorOf(readWritten(b)).find("case.objects"), std::string::npos)
      << errorOf(readWritten(b));
}

TEST(BundleReader, AFormatVersionThatIsNotAKnownIntegerIsRefused) {
  for (const json& format : {json(0), json(-1), json(kBundleFormat + 1)}) {
    json b = bundleJson(validCase());
    b["format"] = format;
    const std::string error = errorOf(readWritten(b));
    EXPECT_NE(
        error.find("bundle.json: format " + format.dump() + " is not known to this convcheck"),
        std::string::npos)
        << error;
  }
  for (const json& format : {json(2.5), json(nullptr), json("2"), json::array({2})}) {
    json b = bundleJson(validCase());
    b["format"] = format;
    EXPECT_NE(errorOf(readWritten(b)).find("bundle.json: format: required (an integer)"),
              std::string::npos)
        << format.dump();
  }
  json b = bundleJson(validCase());
  b.erase("format");
  EXPECT_NE(errorOf(readWritten(b)).find("format: required"), std::string::npos);
}

TEST(BundleReader, TheTargetsTransportIsReadAndABadTimeoutIsRefused) {
  json b = bundleJson(validCase());
  b["target"]["timeout"] = "1m30s";
  b["target"]["http2"] = true;
  b["target"]["caFile"] = "ca.pem";
  b["target"]["tlsServerName"] = "widgets.system.svc";
  auto read = readWritten(b);
  ASSERT_TRUE(std::holds_alternative<Bundle>(read)) << std::get<std::string>(read);
  const Bundle& bundle = std::get<Bundle>(read);
  EXPECT_EQ(bundle.target.transport.timeout, std::chrono::milliseconds(90000));
  EXPECT_TRUE(bundle.target.transport.http2);
  EXPECT_EQ(bundle.target.transport.tls.caFile, (testDir() / "ca.pem").string());
  EXPECT_EQ(bundle.target.transport.tls.serverName, "widgets.system.svc");
  for (const char* timeout : {"soon", "-5s", "30"}) {
    b["target"]["timeout"] = timeout;
    const std::string error = errorOf(readWritten(b));
    EXPECT_NE(error.find("bundle.json: target.timeout: "), std::string::npos)
        << timeout << ": " << error;
  }
  b["target"]["timeout"] = 30;
  EXPECT_NE(errorOf(readWritten(b)).find("timeout: must be a string"), std::string::npos)
      << errorOf(readWritten(b));
}

}  // namespace
}  // namespace convcheck
