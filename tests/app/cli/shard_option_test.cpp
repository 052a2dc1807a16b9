// --shard I/N, and an Indexed Job's JOB_COMPLETION_INDEX/JOB_COMPLETIONS when it is not given.
#include "app/cli/shard_option.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

TEST(ShardOption, ReadsIOfNOneBased) {
  ShardChoice s;
  EXPECT_EQ(readShard("2/3", nullptr, nullptr, s), "");
  EXPECT_EQ(s.index, 1);
  EXPECT_EQ(s.count, 3);
  EXPECT_FALSE(s.fromEnvironment);
}

TEST(ShardOption, RefusesWhatIsNotIOfN) {
  for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", "1 /2"}) {
    ShardChoice s;
    EXPECT_EQ(readShard(bad, nullptr, nullptr, s),
              std::string("--shard ") + bad + ": expected I/N with 1 <= I <= N, e.g. 2/3")
        << bad;
  }
}

TEST(ShardOption, AnIndexedJobChoosesTheShardWhenTheFlagIsNotGiven) {
  ShardChoice s;
  EXPECT_EQ(readShard("", "0", "4", s), "");
  EXPECT_EQ(s.index, 0);
  EXPECT_EQ(s.count, 4);
  EXPECT_TRUE(s.fromEnvironment);
  // The flag wins; one variable alone does not shard.
  ShardChoice flag;
  EXPECT_EQ(readShard("1/2", "3", "4", flag), "");
  EXPECT_EQ(flag.count, 2);
  ShardChoice alone;
  EXPECT_EQ(readShard("", "3", nullptr, alone), "");
  EXPECT_EQ(alone.count, 1);
  ShardChoice bad;
  EXPECT_NE(readShard("", "4", "4", bad).find("JOB_COMPLETION_INDEX=4"), std::string::npos);
  EXPECT_NE(readShard("", "0", "x", bad).find("JOB_COMPLETIONS=x"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
