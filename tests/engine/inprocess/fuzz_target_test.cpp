// The in-process fuzz targets run as libFuzzer runs them: the example converter's target stays
// clean for N inputs without a fault, finds a lossy round trip, and a deep fault that only mutants
// reach, within N inputs with it, and the crash input it saves fails again when run; the template
// target runs clean on a CRD whose versions share one schema.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/engine/inprocess/scratch_dir.h"
#include "tests/support/child_process.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using test::ChildProcess;
using test::ChildProcessOptions;

constexpr auto kTargetTimeout = std::chrono::minutes(4);

std::vector<fs::path> crashesIn(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind("crash-", 0) == 0) out.push_back(entry.path());
  return out;
}

struct TargetRun {
  test::ExitStatus status;
  std::string log;  // libFuzzer and the fuzzer write to stderr
};

TargetRun runTarget(const std::string& binary, std::vector<std::string> args, const fs::path& dir,
                    std::vector<std::string> env) {
  args.insert(args.begin(), binary);
  env.push_back("CONVCHECK_REPORT_DIR=" + (dir / "report").string());
  ChildProcess target(args, ChildProcessOptions{env, dir.string()});
  auto status = target.wait(kTargetTimeout);
  TargetRun run{status ? *status : target.stop(), target.stderrText()};
  return run;
}

TEST(InProcessFuzzTarget, TheExampleConverterStaysCleanForThreeHundredInputs) {
  const testing::ScratchDir scratch("target-clean");
  const fs::path& dir = scratch.path;
  TargetRun run = runTarget(CONVCHECK_EXAMPLE_FUZZ_BIN, {"-runs=300", "-seed=1"}, dir, {});
  EXPECT_TRUE(run.status.success()) << run.status.describe() << "\n" << run.log;
  EXPECT_NE(run.log.find("Done 300 runs"), std::string::npos) << run.log;
  EXPECT_TRUE(crashesIn(dir).empty());
}

TEST(InProcessFuzzTarget, ALossyRoundTripIsFoundAndItsCrashInputReplays) {
  const testing::ScratchDir scratch("target-lossy");
  const fs::path& dir = scratch.path;
  const std::vector<std::string> env = {"CONVCHECK_EXAMPLE_FAULTS=lossy-round-trip"};
  TargetRun run =
      runTarget(CONVCHECK_EXAMPLE_FUZZ_BIN,
                {"-runs=2000", "-seed=1", "-artifact_prefix=" + dir.string() + "/"}, dir, env);
  EXPECT_FALSE(run.status.success()) << run.log;
  EXPECT_NE(run.log.find("convcheck: round-trip"), std::string::npos) << run.log;
  EXPECT_NE(run.log.find("spec.replicas"), std::string::npos) << run.log;
  const auto crashes = crashesIn(dir);
  ASSERT_EQ(crashes.size(), 1u) << run.log;

  TargetRun replay = runTarget(CONVCHECK_EXAMPLE_FUZZ_BIN, {crashes.front().string()}, dir, env);
  EXPECT_FALSE(replay.status.success()) << replay.log;
  EXPECT_NE(replay.log.find("convcheck: round-trip"), std::string::npos) << replay.log;

  // Without the fault the same input passes: the failure was the converter's.
  TargetRun fixed = runTarget(CONVCHECK_EXAMPLE_FUZZ_BIN, {crashes.front().string()}, dir, {});
  EXPECT_TRUE(fixed.status.success()) << fixed.log;
}

TEST(InProcessFuzzTarget, TheMutatorGrowsListsUntilADeepFaultShows) {
  // stash-overflow loses tags past the eighth; generated Widgets carry at most five, so only
  // mutants reach it (about 700 inputs with this seed).
  const testing::ScratchDir scratch("target-stash");
  const fs::path& dir = scratch.path;
  TargetRun run = runTarget(CONVCHECK_EXAMPLE_FUZZ_BIN,
                            {"-runs=4000", "-seed=1", "-artifact_prefix=" + dir.string() + "/"},
                            dir, {"CONVCHECK_EXAMPLE_FAULTS=stash-overflow"});
  EXPECT_FALSE(run.status.success()) << run.log;
  // The lost tags break a plain round trip and an edited one alike: which mutant reaches it
  // first depends on libFuzzer's schedule, not only on its seed.
  EXPECT_TRUE(run.log.find("convcheck: round-trip") != std::string::npos ||
              run.log.find("convcheck: edit-round-trip") != std::string::npos)
      << run.log;
  EXPECT_NE(run.log.find("spec.tags[8]"), std::string::npos) << run.log;
  EXPECT_EQ(crashesIn(dir).size(), 1u);
}

TEST(InProcessFuzzTarget, AnUnknownFaultNameExitsTwoNamingIt) {
  const testing::ScratchDir scratch("target-unknown");
  const fs::path& dir = scratch.path;
  TargetRun run = runTarget(CONVCHECK_EXAMPLE_FUZZ_BIN, {"-runs=1"}, dir,
                            {"CONVCHECK_EXAMPLE_FAULTS=no-such-fault"});
  EXPECT_TRUE(run.status.exited && run.status.code == 2) << run.status.describe();
  EXPECT_NE(run.log.find("no-such-fault"), std::string::npos) << run.log;
}

// A CRD whose two versions share one schema: the template's placeholder (apiVersion rewritten)
// is its correct converter.
std::string sharedSchemaCrd() {
  std::string crd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.convcheck.dev}
spec:
  group: example.convcheck.dev
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  scope: Namespaced
  versions:
)";
  for (const std::string version : {"v1", "v2"})
    crd += "  - name: " + version +
           "\n    served: true\n    storage: " + (version == "v1" ? "true" : "false") + R"(
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              colour: {type: string, enum: [red, green]}
              count: {type: integer, minimum: 0}
              tags: {type: array, items: {type: string}}
)";
  return crd;
}

TEST(InProcessFuzzTarget, TheTemplateRunsCleanOnACrdWhoseVersionsShareASchema) {
  const testing::ScratchDir scratch("target-template");
  const fs::path& dir = scratch.path;
  std::ofstream(dir / "gadgets.yaml") << sharedSchemaCrd();
  TargetRun run = runTarget(CONVCHECK_TEMPLATE_FUZZ_BIN, {"-runs=200", "-seed=1"}, dir,
                            {"CONVCHECK_CRD=" + (dir / "gadgets.yaml").string()});
  EXPECT_TRUE(run.status.success()) << run.status.describe() << "\n" << run.log;
  EXPECT_NE(run.log.find("Done 200 runs"), std::string::npos) << run.log;
}

TEST(InProcessFuzzTarget, TheTemplateWithoutACrdExitsTwoSayingWhatToSet) {
  const testing::ScratchDir scratch("target-nocrd");
  const fs::path& dir = scratch.path;
  TargetRun run = runTarget(CONVCHECK_TEMPLATE_FUZZ_BIN, {"-runs=1"}, dir, {});
  EXPECT_TRUE(run.status.exited && run.status.code == 2) << run.status.describe();
  EXPECT_NE(run.log.find("CONVCHECK_CRD"), std::string::npos) << run.log;
}

}  // namespace
}  // namespace convcheck
