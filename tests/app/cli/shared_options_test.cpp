// An option several commands take is declared once and reads the same in each command's --help;
// the target flags are read the same way by run, minimize and replay.
#include "app/cli/shared_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <unistd.h>

#include "app/cli/cli.h"

namespace convcheck {
namespace {

// Options that share a name across commands but mean something else in each: run's --kind
// filters several kinds, generate's and minimize's picks one CRD; run's --seed is the run's
// (random by default), generate's draws the objects, minimize's the request uids; generate's -o
// prints one JSON object per line, minimize's indented objects; run's --report-dir receives
// reports and bundles, minimize's one bundle, fuzz's the bundles of its problems, merge's the
// merged reports (the bundles stay in the shards'); fuzz's --seed
// is libFuzzer's; run's --corpus replays samples and regressions, fuzz's keeps libFuzzer's inputs;
// run's --config also holds run options, fuzz's only acknowledged differences; run's --batch-size
// is a LIST chunk, fuzz's the largest batch of a case; run's --jobs is requests in flight, fuzz's
// fuzzing processes; upgrade's --cluster-objects are the stored objects played through the
// upgrade (read at the storage version only), run's and fuzz's test inputs per served version.
const std::set<std::string> kSameNameOtherMeaning = {
    "--kind",   "--seed",       "--output", "--report-dir",     "--corpus",
    "--config", "--batch-size", "--jobs",   "--cluster-objects"};

// Option name (its last, long form) -> description, as `convcheck COMMAND --help` prints them.
std::map<std::string, std::string> helpOptions(const std::string& command) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(runCli({command, "--help"}, in, out, err), 0) << err.str();
  std::map<std::string, std::string> options;
  std::istringstream lines(out.str());
  std::string line, pending;
  std::regex optionLine(R"(^  (-[^ ]+)[^ ]*( [^ ]+)*?(  +(.*))?$)");
  while (std::getline(lines, line)) {
    std::smatch m;
    if (line.rfind("  -", 0) == 0 && std::regex_match(line, m, optionLine)) {
      std::string names = m[1];
      std::string name =
          names.substr(names.rfind(',') == std::string::npos ? 0 : names.rfind(',') + 1);
      if (m[4].matched) {
        options[name] = m[4];
        pending.clear();
      } else {
        pending = name;
      }
    } else if (!pending.empty()) {
      options[pending] = line.substr(line.find_first_not_of(' '));
      pending.clear();
    }
  }
  return options;
}

// The help without the tail saying where an unset option's value comes from.
std::string withoutDefault(const std::string& help) {
  auto tail = help.find("; default");
  return tail == std::string::npos ? help : help.substr(0, tail);
}

TEST(SharedOptions, HelpReadsTheSameInEveryCommandThatTakesTheOption) {
  std::map<std::string, std::map<std::string, std::string>> byOption;  // option -> command -> help
  for (const char* command : {"run", "generate", "minimize", "replay", "fuzz"})
    for (const auto& [name, help] : helpOptions(command)) byOption[name][command] = help;
  ASSERT_TRUE(byOption.count("--url"));
  EXPECT_EQ(byOption["--url"].size(), 4u);  // run, minimize, replay, fuzz
  EXPECT_EQ(byOption["--crd"].size(), 4u);  // run, generate, minimize, fuzz
  int shared = 0;
  for (const auto& [name, commands] : byOption) {
    if (commands.size() < 2 || name == "--help" || kSameNameOtherMeaning.count(name)) continue;
    ++shared;
    const auto& [firstCommand, firstHelp] = *commands.begin();
    for (const auto& [command, help] : commands)
      EXPECT_EQ(withoutDefault(help), withoutDefault(firstHelp))
          << name << ": " << command << " and " << firstCommand << " differ";
  }
  EXPECT_GE(shared, 11);  // --crd, the seven target options, --review-version, --date-times, ...
  for (const auto& name : kSameNameOtherMeaning)
    EXPECT_GE(byOption[name].size(), 2u) << name << " is no longer shared; drop it from the list";
}

TEST(SharedOptions, EachOptionNameIsDeclaredOnceInTheCliSources) {
  std::map<std::string, int> declarations;
  std::regex declaration(R"re(add_(option|flag)\(\s*"([^"]+)")re");
  for (const auto& entry : std::filesystem::directory_iterator(CONVCHECK_CLI_DIR)) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator it(source.begin(), source.end(), declaration), end; it != end; ++it) {
      std::stringstream names((*it)[2]);
      for (std::string name; std::getline(names, name, ',');) ++declarations[name];
    }
  }
  ASSERT_GE(declarations.size(), 30u);
  EXPECT_EQ(declarations["--url"], 1);
  for (const auto& [name, count] : declarations) {
    if (kSameNameOtherMeaning.count(name) || name == "-o" || name == "-j") continue;
    EXPECT_EQ(count, 1) << name << " is declared " << count << " times in app/cli";
  }
}

// An empty file in a fresh temporary directory, removed with it.
class TempFiles {
 public:
  TempFiles()
      : dir_(std::filesystem::temp_directory_path() /
             ("convcheck-shared-options-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~TempFiles() { std::filesystem::remove_all(dir_); }
  std::string make(const std::string& name) {
    std::ofstream(dir_ / name) << "";
    return (dir_ / name).string();
  }
  std::string missing(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

TEST(SharedOptions, TargetFlagsOverrideOnlyWhatIsGiven) {
  TempFiles files;
  TransportOptions transport;
  transport.tls.caFile = "bundle-ca.pem";
  transport.tls.certFile = "bundle.crt";
  transport.tls.keyFile = "bundle.key";
  transport.timeout = std::chrono::milliseconds(5000);
  TargetFlags flags;
  flags.tlsServerName = "hook.ns.svc";
  EXPECT_EQ(applyTargetFlags(flags, transport), "");
  EXPECT_EQ(transport.tls.caFile, "bundle-ca.pem");
  EXPECT_EQ(transport.tls.certFile, "bundle.crt");
  EXPECT_EQ(transport.tls.serverName, "hook.ns.svc");
  EXPECT_FALSE(transport.tls.insecureSkipVerify);
  EXPECT_EQ(transport.timeout, std::chrono::milliseconds(5000));
  flags.caFile = files.make("ca.pem");
  flags.timeout = "500ms";
  flags.insecureSkipTlsVerify = true;
  EXPECT_EQ(applyTargetFlags(flags, transport), "");
  EXPECT_EQ(transport.tls.caFile, flags.caFile);
  EXPECT_TRUE(transport.tls.insecureSkipVerify);
  EXPECT_EQ(transport.timeout, std::chrono::milliseconds(500));
}

TEST(SharedOptions, ATimeoutMustBeAPositiveDuration) {
  for (const char* bad : {"30", "0s", "-1s", "soon"}) {
    TransportOptions transport;
    TargetFlags flags;
    flags.timeout = bad;
    EXPECT_EQ(applyTargetFlags(flags, transport),
              std::string("--timeout ") + bad + ": expected a duration such as 30s or 500ms");
  }
}

TEST(SharedOptions, CertAndKeyGoTogether) {
  TempFiles files;
  TransportOptions transport;
  TargetFlags flags;
  flags.cert = files.make("client.crt");
  EXPECT_EQ(applyTargetFlags(flags, transport), "--cert and --key go together");
  TransportOptions fromBundle;
  fromBundle.tls.keyFile = "bundle.key";
  EXPECT_EQ(applyTargetFlags(flags, fromBundle), "") << "the bundle's key completes --cert";
}

TEST(SharedOptions, TheUrlMustBeAnAbsoluteHttpUrl) {
  TransportOptions transport;
  TargetFlags flags;
  for (const char* bad : {"foo", "ftp://127.0.0.1/convert", "https://"}) {
    flags.url = bad;
    EXPECT_EQ(applyTargetFlags(flags, transport).rfind("--url: invalid URL", 0), 0u) << bad;
  }
  flags.url = "https://127.0.0.1:8443/convert";
  EXPECT_EQ(applyTargetFlags(flags, transport), "");
}

TEST(SharedOptions, TlsFilesMustBeReadable) {
  TempFiles files;
  for (auto member : {&TargetFlags::caFile, &TargetFlags::cert, &TargetFlags::key}) {
    TransportOptions transport;
    TargetFlags flags;
    flags.*member = files.missing("nope.pem");
    std::string error = applyTargetFlags(flags, transport);
    EXPECT_NE(error.find(files.missing("nope.pem") + ": cannot read: No such file"),
              std::string::npos)
        << error;
    EXPECT_EQ(error.rfind("--", 0), 0u) << error;
  }
}

TEST(SharedOptions, ReviewVersionIsV1OrV1beta1OrUnset) {
  std::optional<ReviewVersion> version;
  EXPECT_EQ(readReviewVersion("", version), "");
  EXPECT_FALSE(version);
  EXPECT_EQ(readReviewVersion("v1beta1", version), "");
  EXPECT_EQ(version, ReviewVersion::V1beta1);
  EXPECT_EQ(readReviewVersion("v1", version), "");
  EXPECT_EQ(version, ReviewVersion::V1);
  EXPECT_EQ(readReviewVersion("v2", version), "--review-version v2: expected v1 or v1beta1");
}

TEST(SharedOptions, AWayThroughTheClusterTakesNoOtherWayToReachTheWebhook) {
  EXPECT_EQ(oneWayToReach(false, false, false, true), "");
  EXPECT_EQ(oneWayToReach(false, false, true, false), "");
  EXPECT_EQ(oneWayToReach(true, true, false, false), "");  // a --url naming {port} of -- COMMAND
  EXPECT_EQ(oneWayToReach(true, false, false, true),
            "--url and --port-forward: choose one way to reach the webhook");
  EXPECT_EQ(oneWayToReach(false, true, true, false),
            "-- COMMAND and --service-proxy: choose one way to reach the webhook");
  EXPECT_EQ(oneWayToReach(false, false, true, true),
            "--service-proxy and --port-forward: choose one way to reach the webhook");
}

TEST(SharedOptions, BadTargetFlagsAreUsageErrorsInEveryCommand) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"run", "--crd", "x.yaml", "--timeout", "soon"},
        std::vector<std::string>{"minimize", "--crd", "x.yaml", "--to", "v1", "--timeout", "soon",
                                 "o.yaml"},
        std::vector<std::string>{"replay", "--timeout", "soon", "no-such-bundle"},
        std::vector<std::string>{"run", "--crd", "x.yaml", "--url", "foo"},
        std::vector<std::string>{"run", "--crd", "x.yaml", "--ca-file", "no-such-ca.pem"},
        std::vector<std::string>{"minimize", "--crd", "x.yaml", "--to", "v1", "--key",
                                 "no-such.key", "o.yaml"},
        std::vector<std::string>{"replay", "--cert", "no-such.crt", "no-such-bundle"},
        std::vector<std::string>{"run", "--crd", "x.yaml", "--seed", "-1"},
        std::vector<std::string>{"run", "--crd", "x.yaml", "--seed", "18446744073709551616"},
        std::vector<std::string>{"generate", "--crd", "x.yaml", "--version", "v1", "--seed", "-5"},
        std::vector<std::string>{"minimize", "--crd", "x.yaml", "--to", "v1", "--seed", "1e3",
                                 "o.yaml"}}) {
    std::istringstream in;
    std::ostringstream out, err;
    EXPECT_EQ(runCli(args, in, out, err), 2) << args[0] << " " << args.back();
    EXPECT_EQ(out.str(), "") << args[0];
    EXPECT_NE(err.str(), "") << args[0];
  }
}

}  // namespace
}  // namespace convcheck
