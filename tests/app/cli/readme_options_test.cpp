// The README documents every command-line option that --help shows, for every subcommand, and
// shows the registry's table of properties.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "app/cli/cli.h"

namespace convcheck {
namespace {

std::set<std::string> optionsIn(const std::string& text) {
  std::set<std::string> out;
  std::regex option(R"((^|[\s,`])(--[a-z][a-z0-9-]+))");
  for (std::sregex_iterator it(text.begin(), text.end(), option), end; it != end; ++it)
    out.insert((*it)[2]);
  return out;
}

std::string helpOf(const std::string& subcommand) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({subcommand, "--help"}, in, out, err), 0) << err.str();
  return out.str();
}

class ReadmeOptions : public ::testing::TestWithParam<std::string> {};

TEST_P(ReadmeOptions, EveryHelpOptionIsDocumented) {
  std::ifstream file(CONVCHECK_README);
  std::stringstream readme;
  readme << file.rdbuf();
  auto documented = optionsIn(readme.str());
  auto shown = optionsIn(helpOf(GetParam()));
  ASSERT_FALSE(shown.empty());
  for (const auto& o : shown) EXPECT_TRUE(documented.count(o)) << GetParam() << " " << o;
}

INSTANTIATE_TEST_SUITE_P(Cli, ReadmeOptions,
                         ::testing::Values("run", "generate", "certs", "fuzz", "upgrade", "diff"));

TEST(Cli, UnknownOptionIsAUsageError) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"run", "--crd", "x.yaml", "--no-such-flag"}, in, out, err), 2);
  EXPECT_NE(err.str().find("no-such-flag"), std::string::npos);
}

TEST(Cli, ADoubleDashWithoutACommandIsAUsageError) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"run", "--crd", "x.yaml", "--"}, in, out, err), 2);
  EXPECT_NE(err.str().find("-- must be followed by the webhook command"), std::string::npos)
      << err.str();
}

TEST(Cli, FuzzTakesAWebhookCommandOnlyAfterADoubleDash) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"fuzz", "--crd", "x.yaml", "--"}, in, out, err), 2);
  EXPECT_NE(err.str().find("-- must be followed by the webhook command"), std::string::npos)
      << err.str();
  std::ostringstream out2, err2;
  EXPECT_EQ(runCli({"fuzz", "--crd", "x.yaml", "./webhook"}, in, out2, err2), 2);
  EXPECT_NE(err2.str().find("goes after --"), std::string::npos) << err2.str();
}

TEST(Cli, AnArgumentBeforeADoubleDashIsAUsageError) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"run", "--crd", "x.yaml", "./webhook"}, in, out, err), 2);
  EXPECT_NE(err.str().find("unexpected argument ./webhook (a webhook command to start goes after "
                           "--)"),
            std::string::npos)
      << err.str();
}

TEST(Cli, AWaitThatIsNotADurationIsAUsageError) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"run", "--crd", "x.yaml", "--wait", "soon"}, in, out, err), 2);
  EXPECT_NE(err.str().find("--wait soon: expected a duration"), std::string::npos) << err.str();
}

TEST(Cli, UnknownPropertyIdIsAUsageError) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"run", "--crd", "x.yaml", "--properties", "round-trip,nope"}, in, out, err), 2);
  EXPECT_NE(err.str().find("'nope'"), std::string::npos);
}

TEST(Cli, APropertyOfTwoReleasesIsNotRunsToCheck) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"run", "--crd", "x.yaml", "--properties", "read-after-upgrade"}, in, out, err),
            2);
  EXPECT_NE(err.str().find("read-after-upgrade is a property of two releases, checked by "
                           "convcheck upgrade and convcheck diff"),
            std::string::npos)
      << err.str();
}

TEST(Cli, PropertiesListsEverySpecId) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({"properties"}, in, out, err), 0);
  for (const char* id : {"response-envelope", "edit-round-trip", "batch-independence", "tls",
                         "timeout", "no-pruned-fields"})
    EXPECT_NE(out.str().find(id), std::string::npos) << id;
}

TEST(Cli, TheReadmesPropertyTableIsTheRegistrys) {
  std::istringstream in;
  std::ostringstream out, err;
  ASSERT_EQ(runCli({"properties", "--markdown"}, in, out, err), 0) << err.str();
  std::ifstream file(CONVCHECK_README);
  std::stringstream readme;
  readme << file.rdbuf();
  EXPECT_NE(readme.str().find(out.str()), std::string::npos)
      << "README.md's table of properties differs from `convcheck properties --markdown`:\n"
      << out.str();
}

}  // namespace
}  // namespace convcheck
