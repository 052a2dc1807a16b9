// Reading a reproduction bundle: its case goes through the case codec of regression files
// (harness/corpus/case_json), so the same seed and object rules hold for both.
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
          {"kind", "Widget"},
          {"property", "round-trip"},
          {"from", "v1"},
          {"to", "v2"},
          {"part", "forward"},
          {"case", theCase},
          {"target", {{"url", "https://127.0.0.1:9443/convert"}}}};
}

std::variant<Bundle, std::string> readWritten(const json& bundle) {
  // A directory of the test's own: ctest runs the tests of this file in parallel processes.
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir =
      fs::path(::testing::TempDir()) /
      ("bundle_reader_test-" + std::string(test->name()) + "-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "bundle.json") << bundle.dump();
  return readBundle(dir.string());
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

}  // namespace
}  // namespace convcheck
