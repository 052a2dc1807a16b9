// The seed salts are one table: each distinct, and no source mixes a literal into a seed itself.
#include "harness/plan/seed_salts.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace convcheck {
namespace {

TEST(SeedSalts, EachUseHasASaltOfItsOwn) {
  std::set<std::uint64_t> seen;
  for (SeedSalt salt : kSeedSalts)
    EXPECT_TRUE(seen.insert(static_cast<std::uint64_t>(salt)).second)
        << "salt " << static_cast<std::uint64_t>(salt) << " is used twice";
  EXPECT_NE(salted(1, SeedSalt::CaseRequestUids), salted(1, SeedSalt::SizeBisectionUids));
  EXPECT_NE(duplicateUidSeed(1, 0), duplicateUidSeed(1, 1));
}

TEST(SeedSalts, NoSourceMixesALiteralIntoASeedOutsideTheTable) {
  // `seed ^ 0x5eed`, `c.seed() ^ 0xed17ull`, `seed + 7919 * …`: a salt written where it is used.
  const std::regex literalSalt(R"(seed(\(\))?\s*[\^+]\s*(0x[0-9a-fA-F]+|[0-9]{3,}))");
  std::vector<std::string> found;
  const std::filesystem::path root = CONVCHECK_SOURCE_DIR;
  for (const char* layer : {"kube", "generators", "harness", "properties", "shrink", "reports",
                            "engine", "app", "fuzz"}) {
    if (!std::filesystem::exists(root / layer)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / layer)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
      if (entry.path().filename() == "seed_salts.h") continue;
      std::ifstream in(entry.path());
      int number = 0;
      for (std::string line; std::getline(in, line);)
        if (++number && std::regex_search(line, literalSalt))
          found.push_back(std::filesystem::relative(entry.path(), root).string() + ":" +
                          std::to_string(number) + ": " + line);
    }
  }
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
}

}  // namespace
}  // namespace convcheck
