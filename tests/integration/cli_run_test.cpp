// End to end, the command line of `convcheck run`: reports on stdout with -, errors on stderr,
// bad flag values exit 2, --max-failures, --color, the status line of a long run, and run options
// from .convcheck.yaml that flags override. The real binary against the example webhook over TLS.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

struct PlainRun {
  ExitStatus status;
  std::string out, err;
};

// Runs convcheck without the report files runConvcheck adds.
PlainRun runPlain(const std::vector<std::string>& args,
                  std::vector<std::string> env = {"NO_COLOR=1"}, const std::string& workingDir = "",
                  std::chrono::milliseconds limit = std::chrono::seconds(240)) {
  std::vector<std::string> argv = {convcheckBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess process(argv, {env, workingDir});
  auto status = process.wait(limit);
  PlainRun r{status ? *status : process.stop(), process.stdoutText(), process.stderrText()};
  return r;
}

std::vector<std::string> runArgs(const ExampleWebhook& hook, std::vector<std::string> extra,
                                 const std::string& tests = "6") {
  std::vector<std::string> args = {"run", "--crd", ExampleWebhook::cronTabCrdPath()};
  args.insert(args.end(), {"--url", hook.url(), "--ca-file", hook.pki().caFile()});
  args.insert(args.end(), {"--seed", "1", "--tests", tests});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("convcheck-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(RunCommandLine, AReportGivenAsDashGoesToStdoutAndTheConsoleReportToStderr) {
  ExampleWebhook hook;
  PlainRun r = runPlain(runArgs(hook, {"--json", "-"}));
  ASSERT_EQ(r.status.code, 0) << r.err;
  auto results = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(results.is_discarded()) << r.out;
  EXPECT_EQ(results["kinds"][0]["kind"], "CronTab");
  EXPECT_NE(r.err.find("round-trip"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists("-"));

  PlainRun two = runPlain(runArgs(hook, {"--json", "-", "--junit", "-"}));
  EXPECT_EQ(two.status.code, 2);
  EXPECT_NE(two.err.find("only one report"), std::string::npos) << two.err;
}

TEST(RunCommandLine, AnUnreachableWebhookIsReportedOnStderrOnly) {
  std::string url;
  {
    ExampleWebhook hook;  // a free port, then nobody listens
    url = hook.url();
  }
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", url,
                         "--insecure-skip-tls-verify"});
  EXPECT_EQ(r.status.code, 3);
  EXPECT_NE(r.err.find("could not reach the webhook"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("could not reach"), std::string::npos) << r.out;
}

TEST(RunCommandLine, BadFlagValuesAndMissingFilesExitTwoOnStderr) {
  for (std::vector<std::string> extra :
       {std::vector<std::string>{"--url", "foo"},
        std::vector<std::string>{"--ca-file", "/nonexistent/ca.pem"},
        std::vector<std::string>{"--cert", "/nonexistent/client.crt", "--key", "/nonexistent/k"},
        std::vector<std::string>{"--seed", "-1"}, std::vector<std::string>{"--color", "maybe"},
        std::vector<std::string>{"--max-failures", "-3"},
        std::vector<std::string>{"--crd", "/nonexistent/crd.yaml"}}) {
    std::vector<std::string> args = {"run", "--url", "https://127.0.0.1:1/convert"};
    if (extra[0] != "--crd") args.insert(args.end(), {"--crd", ExampleWebhook::cronTabCrdPath()});
    args.insert(args.end(), extra.begin(), extra.end());
    PlainRun r = runPlain(args);
    EXPECT_EQ(r.status.code, 2) << extra[0] << ": " << r.out << r.err;
    EXPECT_EQ(r.out, "") << extra[0];
    EXPECT_NE(r.err.find(extra[0] == "--crd" ? "crd.yaml" : extra[0]), std::string::npos) << r.err;
  }
}

TEST(RunCommandLine, MaxFailuresStopsAfterThatManyFailingCasesTheSameWayWithAnyJobs) {
  ExampleWebhookOptions options;
  options.faults = {"uid-not-echoed"};  // every case fails uid-echo
  ExampleWebhook hook(options);
  auto tallies = [](const nlohmann::json& results) {
    std::vector<std::tuple<std::string, std::string, std::string, int, int>> out;
    for (const auto& kind : results["kinds"])
      for (const auto& r : kind["results"])
        out.emplace_back(r["property"], r["from"], r["to"], r["passed"], r["failed"]);
    return out;
  };
  auto one = runConvcheck(
      runArgs(hook, {"--max-failures", "3", "--jobs", "1", "--shrink-budget", "0"}, "40"));
  EXPECT_EQ(one.status.code, 1) << one.out << one.err;
  // Three cases, each failing uid-echo on its forward call and on some of its calls back.
  int uidFailures = 0;
  for (const auto& r : one.json["kinds"][0]["results"])
    if (r["property"] == "uid-echo") uidFailures += r["failed"].get<int>();
  EXPECT_GE(uidFailures, 3);
  EXPECT_LE(uidFailures, 9);  // 40 cases per pair without the limit
  EXPECT_NE(one.json["kinds"][0]["notes"].dump().find("stopped after 3 failing case(s)"),
            std::string::npos)
      << one.json["kinds"][0]["notes"];
  auto four = runConvcheck(
      runArgs(hook, {"--max-failures", "3", "--jobs", "4", "--shrink-budget", "0"}, "40"));
  EXPECT_EQ(tallies(one.json), tallies(four.json));
}

TEST(RunCommandLine, ColorAlwaysColoursAPipedReportDespiteNoColor) {
  ExampleWebhook hook;
  PlainRun always = runPlain(runArgs(hook, {"--color", "always"}), {"NO_COLOR=1"});
  EXPECT_EQ(always.status.code, 0) << always.err;
  EXPECT_NE(always.out.find("\033["), std::string::npos) << always.out;
  PlainRun piped = runPlain(runArgs(hook, {}), {"NO_COLOR=", "TERM=xterm"});
  EXPECT_EQ(piped.out.find("\033["), std::string::npos) << piped.out;
  EXPECT_EQ(piped.err.find("\033["), std::string::npos) << piped.err;
}

TEST(RunCommandLine, ALongRunPrintsAStatusLineEveryTenSecondsWhenNotOnATerminal) {
  ExampleWebhook hook;
  PlainRun r =
      runPlain({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(), "--ca-file",
                hook.pki().caFile(), "--seed", "1", "--duration", "11s", "--shrink-budget", "0"});
  EXPECT_EQ(r.status.code, 0) << r.err;
  auto at = r.err.find("status: ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
  EXPECT_NE(line.find(" case(s) done, 0 failing, "), std::string::npos) << line;
  EXPECT_NE(line.find(" request(s), 10s of 11s elapsed"), std::string::npos) << line;
  EXPECT_EQ(line.find("status: 0 case(s)"), std::string::npos) << line;
}

TEST(RunCommandLine, TheConfigFileSetsRunOptionsAndFlagsOverrideThem) {
  ExampleWebhook hook;
  TempDir dir("config-run");
  std::ofstream(dir.path() / ".convcheck.yaml")
      << "run:\n  url: " << hook.url() << "\n  ca-file: " << hook.pki().caFile()
      << "\n  seed: 7\n  tests: 3\n  json: results.json\n";
  PlainRun fromFile = runPlain({"run", "--crd", ExampleWebhook::cronTabCrdPath()}, {"NO_COLOR=1"},
                               dir.path().string());
  ASSERT_EQ(fromFile.status.code, 0) << fromFile.out << fromFile.err;
  std::ifstream written(dir.path() / "results.json");
  auto results = nlohmann::json::parse(written, nullptr, false);
  ASSERT_FALSE(results.is_discarded());
  EXPECT_EQ(results["seed"], "7");  // results.json writes the 64-bit seed as text
  // The reproduction names what the file gave, and the file found, not named (acknowledgements).
  const std::string command = results["command"];
  EXPECT_NE(command.find("--config .convcheck.yaml"), std::string::npos) << command;
  EXPECT_NE(command.find("--url=" + hook.url()), std::string::npos) << command;
  EXPECT_NE(command.find("--seed=7"), std::string::npos) << command;
  EXPECT_NE(command.find("--tests=3"), std::string::npos) << command;
  EXPECT_EQ(command.find("--seed 7"), std::string::npos) << command;  // not twice
  auto flags = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                             "--ca-file", hook.pki().caFile(), "--seed", "7", "--tests", "3"});
  ASSERT_EQ(flags.status.code, 0) << flags.err;
  EXPECT_EQ(results["kinds"][0]["results"], flags.json["kinds"][0]["results"]);

  PlainRun overridden =
      runPlain({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--seed", "9", "--json", "-"},
               {"NO_COLOR=1"}, dir.path().string());
  ASSERT_EQ(overridden.status.code, 0) << overridden.err;
  EXPECT_EQ(nlohmann::json::parse(overridden.out)["seed"], "9");

  std::ofstream(dir.path() / ".convcheck.yaml") << "run:\n  tets: 3\n";
  PlainRun typo = runPlain({"run", "--crd", ExampleWebhook::cronTabCrdPath()}, {"NO_COLOR=1"},
                           dir.path().string());
  EXPECT_EQ(typo.status.code, 2);
  EXPECT_NE(typo.err.find(".convcheck.yaml: run.tets: not an option of convcheck run"),
            std::string::npos)
      << typo.err;
  std::ofstream(dir.path() / ".convcheck.yaml") << "run:\n  tests: -4\n";
  PlainRun bad = runPlain({"run", "--crd", ExampleWebhook::cronTabCrdPath()}, {"NO_COLOR=1"},
                          dir.path().string());
  EXPECT_EQ(bad.status.code, 2);
  EXPECT_NE(bad.err.find(".convcheck.yaml: run.tests:"), std::string::npos) << bad.err;
}

TEST(FuzzCommandLine, AMaxResponseSizeThatIsNotASizeIsExit2) {
  PlainRun r = runPlain({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath(), "--url",
                         "https://127.0.0.1:1/convert", "--max-response-size", "lots"},
                        {"NO_COLOR=1"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("--max-response-size lots: expected e.g. 64MiB"), std::string::npos)
      << r.err;
}

TEST(FuzzCommandLine, TheConfigFilesFuzzMapSetsFuzzOptionsAndFlagsOverrideThem) {
  ExampleWebhook hook;
  TempDir dir("config-fuzz");
  std::ofstream(dir.path() / ".convcheck.yaml")
      << "run:\n  tests: 3\nfuzz:\n  url: " << hook.url() << "\n  ca-file: " << hook.pki().caFile()
      << "\n  seed: 7\n  runs: 20\n  json: results.json\n";
  PlainRun fromFile = runPlain({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath()}, {"NO_COLOR=1"},
                               dir.path().string());
  ASSERT_EQ(fromFile.status.code, 0) << fromFile.out << fromFile.err;
  EXPECT_NE(fromFile.err.find("fuzz[0]: 20 cases"), std::string::npos) << fromFile.err;
  std::ifstream written(dir.path() / "results.json");
  auto results = nlohmann::json::parse(written, nullptr, false);
  ASSERT_FALSE(results.is_discarded());
  EXPECT_EQ(results["seed"], "7");
  const std::string command = results["command"];
  EXPECT_NE(command.find("--runs=20"), std::string::npos) << command;
  EXPECT_NE(command.find("--seed=7"), std::string::npos) << command;

  PlainRun overridden =
      runPlain({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath(), "--runs", "10", "--json", "-"},
               {"NO_COLOR=1"}, dir.path().string());
  ASSERT_EQ(overridden.status.code, 0) << overridden.err;
  EXPECT_NE(overridden.err.find("fuzz[0]: 10 cases"), std::string::npos) << overridden.err;

  // run's map is not fuzz's: an option of run only is refused under fuzz:, naming it.
  std::ofstream(dir.path() / ".convcheck.yaml") << "fuzz:\n  tests: 3\n";
  PlainRun typo = runPlain({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath()}, {"NO_COLOR=1"},
                           dir.path().string());
  EXPECT_EQ(typo.status.code, 2);
  EXPECT_NE(typo.err.find(".convcheck.yaml: fuzz.tests: not an option of convcheck fuzz"),
            std::string::npos)
      << typo.err;
}

}  // namespace
}  // namespace convcheck::test
