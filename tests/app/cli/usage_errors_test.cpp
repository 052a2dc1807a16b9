// What a mistyped command line hears: an unknown subcommand lists the subcommands, a missing
// required option is named by every name it has, and a --kind that matches no CRD lists the kinds
// the input holds. In process, as the command line reaches runCli.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"

namespace convcheck {
namespace {

struct UsageResult {
  int code;
  std::string out, err;
};

UsageResult usage(const std::vector<std::string>& args) {
  std::istringstream in;
  std::ostringstream out, err;
  int code = runCli(args, in, out, err);
  return {code, out.str(), err.str()};
}

const std::string kUsageCrontabs =
    std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/crontabs.stable.example.com.yaml";

TEST(UsageErrors, AnUnknownSubcommandIsNamedAndTheSubcommandsListed) {
  UsageResult r = usage({"bogus", "--crd", "x.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown subcommand 'bogus'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("run, replay, minimize, fuzz, generate"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("A subcommand is required"), std::string::npos) << r.err;
}

TEST(UsageErrors, NoSubcommandStillPointsToHelp) {
  UsageResult r = usage({"--no-such-flag"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("convcheck help"), std::string::npos) << r.err;
}

TEST(UsageErrors, AMissingCrdIsNamedWithItsShortName) {
  for (const char* command : {"run", "fuzz"}) {
    UsageResult r = usage({command, "--url", "https://127.0.0.1:1/convert"});
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_NE(r.err.find("--crd (-f) is required"), std::string::npos) << command << ": " << r.err;
    EXPECT_NE(r.err.find(std::string("convcheck help ") + command), std::string::npos) << r.err;
  }
}

TEST(UsageErrors, AKindThatMatchesNoCrdListsTheKindsThereAre) {
  for (const char* command : {"run", "fuzz"}) {
    UsageResult r = usage({command, "--crd", kUsageCrontabs, "--kind", "Gadget", "--url",
                           "https://127.0.0.1:1/convert", "--json", "-"});
    EXPECT_EQ(r.code, 2) << command;
    const std::string said = r.out + r.err;
    EXPECT_NE(said.find("no CRD matches --kind Gadget; the kinds there are: CronTab "
                        "(crontabs.stable.example.com)"),
              std::string::npos)
        << command << ": " << said;
  }
}

}  // namespace
}  // namespace convcheck
