// Specification over real CRDs: every distinct `pattern:` value in corpora/crds compiles and
// generates at least 200 strings from fixed seeds, each matching under RE2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "generators/pattern/pattern_gen.h"
#include "tests/generators/pattern/pattern_test_support.h"

namespace convcheck {
namespace {

// Unquotes a YAML flow scalar: plain (trailing " #" comment dropped), 'single' ('' is a quote)
// or "double" (backslash escapes). Returns nullopt for block scalars, which this scan skips.
std::optional<std::string> unquoteYamlScalar(std::string value) {
  while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.pop_back();
  if (value.empty()) return std::string();
  if (value[0] == '|' || value[0] == '>') return std::nullopt;
  if (value[0] == '\'') {
    std::string out;
    for (std::size_t i = 1; i + 1 < value.size(); ++i) {
      out += value[i];
      if (value[i] == '\'' && value[i + 1] == '\'') ++i;
    }
    return out;
  }
  if (value[0] == '"') {
    std::string out;
    for (std::size_t i = 1; i + 1 < value.size(); ++i) {
      if (value[i] != '\\') {
        out += value[i];
        continue;
      }
      const char e = value[++i];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case '0':
          out += '\0';
          break;
        case 'x': {
          out += static_cast<char>(std::stoi(value.substr(i + 1, 2), nullptr, 16));
          i += 2;
          break;
        }
        case 'u': {
          appendRune(out, static_cast<char32_t>(std::stoul(value.substr(i + 1, 4), nullptr, 16)));
          i += 4;
          break;
        }
        default:
          out += e;  // \\ \" \/ and the rest stand for themselves
      }
    }
    return out;
  }
  if (const auto comment = value.find(" #"); comment != std::string::npos) {
    value.erase(comment);
    while (!value.empty() && value.back() == ' ') value.pop_back();
  }
  return value;
}

struct ScannedPatterns {
  std::map<std::string, std::string> firstSeenIn;  // pattern -> "file:line"
  std::vector<std::string> skipped;                // block scalars, reported
  std::size_t uses = 0;
};

ScannedPatterns scanCrdPatterns(const std::filesystem::path& root) {
  ScannedPatterns out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".yaml") continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::size_t at = line.find_first_not_of(' ');
      if (at == std::string::npos) continue;
      if (line.compare(at, 2, "- ") == 0) at += 2;
      if (line.compare(at, 8, "pattern:") != 0) continue;
      const auto value =
          unquoteYamlScalar(line.substr(line.find_first_not_of(' ', at + 8) == std::string::npos
                                            ? line.size()
                                            : line.find_first_not_of(' ', at + 8)));
      const std::string where = entry.path().string() + ":" + std::to_string(number);
      if (!value) {
        out.skipped.push_back(where);
        continue;
      }
      if (value->empty()) continue;  // a property named "pattern", not the keyword
      ++out.uses;
      out.firstSeenIn.emplace(*value, where);
    }
  }
  return out;
}

TEST(CrdPatterns, UnquotesTheThreeYamlFlowScalarStyles) {
  EXPECT_EQ(unquoteYamlScalar("^[a-z]+$"), "^[a-z]+$");
  EXPECT_EQ(unquoteYamlScalar("'it''s'"), "it's");
  EXPECT_EQ(unquoteYamlScalar(R"("^\\d+\"$")"), R"(^\d+"$)");
  EXPECT_EQ(unquoteYamlScalar("abc # note"), "abc");
  EXPECT_FALSE(unquoteYamlScalar("|-").has_value());
}

TEST(CrdPatterns, EveryDistinctCrdPatternGeneratesTwoHundredMatchingStrings) {
  const ScannedPatterns scanned = scanCrdPatterns(CONVCHECK_CRDS_DIR);
  EXPECT_TRUE(scanned.skipped.empty())
      << "block-scalar patterns not scanned, first at " << scanned.skipped.front();
  ASSERT_GE(scanned.firstSeenIn.size(), 40u) << "the CRD corpus should hold ~48 distinct patterns";
  ASSERT_TRUE(scanned.firstSeenIn.count(R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)"));

  std::map<std::string, std::string> failures;  // pattern -> reason
  std::size_t generated = 0;
  for (const auto& [source, where] : scanned.firstSeenIn) {
    auto compiled = PatternGenerator::compile(source);
    if (auto* error = std::get_if<std::string>(&compiled)) {
      failures[source] = *error;
      continue;
    }
    const PatternGenerator& gen = std::get<PatternGenerator>(compiled);
    if (auto error = gen.boundsError(0, std::nullopt)) {
      failures[source] = *error;
      continue;
    }
    for (const auto& [minLen, maxLen] :
         {std::pair<std::size_t, std::optional<std::size_t>>{0, std::nullopt}, {1, 253}}) {
      for (const std::string& value : pattern_test::sample(gen.gen(minLen, maxLen), 200)) {
        ++generated;
        if (!gen.matches(value)) failures[source] = "generated non-matching `" + value + "`";
      }
    }
  }
  std::cout << "[ crd patterns ] " << scanned.firstSeenIn.size() << " distinct patterns in "
            << scanned.uses << " uses; " << generated << " strings generated\n";
  for (const auto& [source, reason] : failures) {
    ADD_FAILURE() << "`" << source << "` (first in " << scanned.firstSeenIn.at(source)
                  << "): " << reason;
  }
  EXPECT_TRUE(failures.empty());
}

}  // namespace
}  // namespace convcheck
