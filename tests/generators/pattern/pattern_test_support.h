// Helpers shared by the pattern generator tests: compiling, sampling from fixed seeds, the zoo.
// Used only by tests/generators/pattern/*.cpp.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators/pattern/pattern_gen.h"
#include "kube/go/utf8.h"

namespace convcheck::pattern_test {

// Compiles or fails the current test with the error value.
inline PatternGenerator compileOrFail(const std::string& pattern) {
  auto result = PatternGenerator::compile(pattern);
  if (auto* error = std::get_if<std::string>(&result)) {
    ADD_FAILURE() << "compile failed: " << *error;
    return std::get<PatternGenerator>(PatternGenerator::compile("x"));
  }
  return std::get<PatternGenerator>(std::move(result));
}

// `count` values from fixed seeds 1..count, with RapidCheck sizes cycling through 0..100.
inline std::vector<std::string> sample(const rc::Gen<std::string>& gen, int count,
                                       std::uint64_t seedBase = 1) {
  std::vector<std::string> out;
  out.reserve(count);
  for (int i = 0; i < count; ++i) {
    out.push_back(gen(rc::Random(seedBase + static_cast<std::uint64_t>(i)), i % 101).value());
  }
  return out;
}

// Runes in `text`, or -1 when it is not valid UTF-8.
inline std::size_t runes(const std::string& text) {
  return firstInvalidUtf8(text) == std::string_view::npos ? runeCount(text)
                                                          : static_cast<std::size_t>(-1);
}

inline bool hasNonAscii(const std::string& text) {
  for (unsigned char c : text) {
    if (c >= 0x80) return true;
  }
  return false;
}

// Go RE2 syntax in the shapes CRDs use and the corners of the grammar.
inline const std::vector<std::string>& zooPatterns() {
  static const std::vector<std::string> kZoo = {
      R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)",
      R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)",
      R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)",
      R"(^([0-9]{1,5}(h|m|s|ms)){1,4}$)",
      R"(^((?i)sun|mon|tues|wednes|thurs|fri|satur)day(?:((:(sun|mon|tues|wednes|thurs|fri|satur)day)$)|$))",
      R"((^\*$)|(^(http(s)?):\/\/(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$))",
      R"(^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$)",
      R"(^[A-Za-z0-9!#$%&'*+\-.^_\x60|~]+$)",
      R"(^.{2,}|[^./]$)",
      R"((^0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$)",
      R"(^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)",
      R"(^[\w\s:/.\\-]+$)",
      R"(^(([^:/?#]+):)(//([^/?#]*))([^?#]*)(\?([^#]*))?(#(.*))?)",
      R"((?i)^[a-z]+$)",
      R"((?i:straße)-x)",
      R"((?i)[^k]{3})",
      R"(abc)",
      R"(\bword\b)",
      R"(\Bx\B)",
      R"(\A\d+\z)",
      R"((?m)^abc$)",
      R"([[:alpha:]]+[[:digit:]]*[[:^space:]])",
      R"(^\p{L}+$)",
      R"(^\p{Greek}{2,4}$)",
      R"(^[\p{Lu}\d]+\PL$)",
      R"(^\pN$)",
      R"(^\d{3}-\d{4}$)",
      R"(^\w+@\w+\.com$)",
      R"(a.b)",
      R"((?s)^a.b$)",
      R"(^\x{1F600}+\x41\x{42}$)",
      R"(^\Qa.b*c\E$)",
      R"(^\Qx+)",
      R"(^(?P<first>ab)+(?<second>cd)?$)",
      R"(^(?:ab|cd){2,3}$)",
      R"(^x*?a+?b??$)",
      R"((?U)^a+b$)",
      R"(^[\x{10000}-\x{10FFFF}]$)",
      R"(^[^\n]*$)",
      R"(.*)",
      R"(^()(|a)$)",
      R"(^)",
      R"()",
      R"(^a{0}b{2,}(c|d)*$)",
      R"(^a{,5}$)",
      R"(^[]a]\]$)",
      R"(^[\t ]+\/path\/[a-z]+$)",
      R"(^\x2d\052\a\f\v\t$)",
      R"(^2\d{3}(?::2\d{3}|$))",
      R"(^Hostname|IPAddress|[a-z]+\/[A-Za-z0-9]+$)",
  };
  return kZoo;
}

}  // namespace convcheck::pattern_test
