// One shell quoting for every command line convcheck prints (reproduction, curl, replay).
#include "reports/shell_words.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

TEST(ShellWords, ACommandLineQuotesOnlyTheWordsThatNeedIt) {
  EXPECT_EQ(shellCommand({"convcheck", "run", "--crd", "my crds.yaml", "--seed=7", "--", "sh", "-c",
                          "echo 'up' && exec ./hook"}),
            "convcheck run --crd 'my crds.yaml' --seed=7 -- sh -c 'echo '\\''up'\\'' && exec "
            "./hook'");
  EXPECT_EQ(shellCommand({"convcheck", "--kind", "~", "#x", ""}), "convcheck --kind '~' '#x' ''");
  EXPECT_EQ(shellCommand({}), "");
}

}  // namespace
}  // namespace convcheck
