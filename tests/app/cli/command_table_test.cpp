// The subcommands come from one table: help and version are subcommands, usage lines name the
// program, and the shell completion is made from the table's options (checked in a real bash).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "app/cli/command_table.h"

namespace convcheck {
namespace {

struct CliResult {
  int code;
  std::string out, err;
};

CliResult cli(const std::vector<std::string>& args) {
  std::istringstream in;
  std::ostringstream out, err;
  int code = runCli(args, in, out, err);
  return {code, out.str(), err.str()};
}

TEST(CommandTable, EverySubcommandOfTheTableIsListedByHelp) {
  CliResult help = cli({"help"});
  ASSERT_EQ(help.code, 0) << help.err;
  ASSERT_GE(commandTable().size(), 8u);
  for (const Command& command : commandTable())
    EXPECT_NE(help.out.find("  " + command.name), std::string::npos) << command.name;
  EXPECT_NE(help.out.find("Usage: convcheck [OPTIONS] SUBCOMMAND"), std::string::npos) << help.out;
}

TEST(CommandTable, HelpOfASubcommandIsItsDashDashHelp) {
  CliResult help = cli({"help", "run"});
  ASSERT_EQ(help.code, 0) << help.err;
  EXPECT_EQ(help.out, cli({"run", "--help"}).out);
  EXPECT_NE(help.out.find("Usage: convcheck run [OPTIONS]"), std::string::npos) << help.out;
  EXPECT_NE(cli({"replay", "--help"}).out.find("Usage: convcheck replay [OPTIONS] BUNDLE"),
            std::string::npos);
}

TEST(CommandTable, HelpOfAnUnknownSubcommandIsAUsageError) {
  CliResult help = cli({"help", "rnu"});
  EXPECT_EQ(help.code, 2);
  EXPECT_NE(help.err.find("rnu"), std::string::npos) << help.err;
}

TEST(CommandTable, NoSubcommandIsAUsageErrorThatPointsToHelp) {
  CliResult none = cli({});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("convcheck help"), std::string::npos) << none.err;
}

TEST(CommandTable, VersionIsASubcommandAndAFlag) {
  CliResult version = cli({"version"});
  ASSERT_EQ(version.code, 0) << version.err;
  EXPECT_EQ(version.out.rfind("convcheck ", 0), 0u) << version.out;
  EXPECT_GT(version.out.size(), std::string("convcheck \n").size());
  EXPECT_EQ(version.out, cli({"--version"}).out);
}

TEST(CommandTable, DashFIsTheCrdOption) {
  CliResult missing = cli({"generate", "-f", "no-such-crd.yaml", "--version", "v1"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("no-such-crd.yaml"), std::string::npos) << missing.err;
}

// Runs `script` with `shell` (its arguments before the script's path) in a temporary directory
// holding the completion script of `shellName` as "completion"; returns what it prints.
std::string runShell(const std::string& shell, const std::string& shellName,
                     const std::string& script) {
  CliResult completion = cli({"completion", shellName});
  EXPECT_EQ(completion.code, 0) << completion.err;
  auto dir = std::filesystem::temp_directory_path() /
             ("convcheck-completion-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "completion") << completion.out;
  std::ofstream(dir / "test.sh") << "cd " << dir.string() << "\n" << script;
  std::string command = shell + " " + (dir / "test.sh").string() + " 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    pclose(pipe);
  }
  std::filesystem::remove_all(dir);
  return out;
}

// Sources the bash completion in a bash subprocess and returns COMPREPLY for the words (the last
// is the one being completed).
std::string bashComplete(const std::vector<std::string>& words) {
  std::string script = "source ./completion\nCOMP_WORDS=(convcheck";
  for (const auto& w : words) script += " '" + w + "'";
  script += ")\nCOMP_CWORD=" + std::to_string(words.size()) +
            "\n_convcheck\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
  return runShell("bash --norc --noprofile", "bash", script);
}

TEST(Completion, BashCompletesSubcommandsOptionsAndTheirValues) {
  EXPECT_EQ(bashComplete({"ru"}), "run\n");
  EXPECT_EQ(bashComplete({"he"}), "help\n");
  EXPECT_EQ(bashComplete({"run", "--ca"}), "--ca-file\n");
  EXPECT_EQ(bashComplete({"run", "--date-times", ""}), "canonical\nany\n");
  EXPECT_EQ(bashComplete({"generate", "-o", "y"}), "yaml\n");
  EXPECT_EQ(bashComplete({"completion", ""}), "bash\nzsh\n");
  EXPECT_EQ(bashComplete({"help", "min"}), "minimize\n");
  EXPECT_EQ(bashComplete({"replay", "--tls-"}), "--tls-server-name\n");
}

TEST(Completion, ZshLoadsTheScriptAndRegistersItForConvcheck) {
  if (!std::filesystem::exists("/usr/bin/zsh")) GTEST_SKIP() << "no zsh (ci/install-deps.sh)";
  EXPECT_EQ(runShell("zsh -f", "zsh",
                     "autoload -U compinit\ncompinit -u -D\nsource ./completion\n"
                     "whence -w _convcheck\necho ${_comps[convcheck]}\n"),
            "_convcheck: function\n_convcheck\n");
}

TEST(Completion, ScriptsNameEveryOptionOfEverySubcommand) {
  CliResult bash = cli({"completion", "bash"}), zsh = cli({"completion", "zsh"});
  ASSERT_EQ(bash.code, 0);
  ASSERT_EQ(zsh.code, 0);
  for (const char* option : {"--crd", "--shrink-budget", "--report-dir", "--markdown", "--to",
                             "--insecure-skip-tls-verify", "--seed"}) {
    EXPECT_NE(bash.out.find(option), std::string::npos) << option;
    EXPECT_NE(zsh.out.find(std::string("'") + option + "["), std::string::npos) << option;
  }
  EXPECT_NE(zsh.out.find("'--http2[Allow HTTP/2 (kube-apiserver uses HTTP/1.1)]' \\\n"),
            std::string::npos)
      << "a flag takes no value";
  EXPECT_NE(zsh.out.find("'--date-times[Date-time values to generate\\: canonical"),
            std::string::npos)
      << "colons in descriptions are escaped";
  EXPECT_EQ(cli({"completion", "fish"}).code, 2);
}

// What a mistyped command line hears: an unknown subcommand lists the subcommands, a missing
// required option is named by every name it has, and a --kind that matches no CRD lists the kinds
// the input holds.
const std::string kUsageCrontabs =
    std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/crontabs.stable.example.com.yaml";

TEST(UsageErrors, AnUnknownSubcommandIsNamedAndTheSubcommandsListed) {
  CliResult r = cli({"bogus", "--crd", "x.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown subcommand 'bogus'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("run, merge, replay, minimize, fuzz, upgrade, diff, generate"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("A subcommand is required"), std::string::npos) << r.err;
}

TEST(UsageErrors, NoSubcommandStillPointsToHelp) {
  CliResult r = cli({"--no-such-flag"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("convcheck help"), std::string::npos) << r.err;
}

TEST(UsageErrors, AMissingCrdIsNamedWithItsShortName) {
  for (const char* command : {"run", "fuzz"}) {
    CliResult r = cli({command, "--url", "https://127.0.0.1:1/convert"});
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_NE(r.err.find("--crd (-f) is required"), std::string::npos) << command << ": " << r.err;
    EXPECT_NE(r.err.find(std::string("convcheck help ") + command), std::string::npos) << r.err;
  }
}

TEST(UsageErrors, AKindThatMatchesNoCrdListsTheKindsThereAre) {
  for (const char* command : {"run", "fuzz"}) {
    CliResult r = cli({command, "--crd", kUsageCrontabs, "--kind", "Gadget", "--url",
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
