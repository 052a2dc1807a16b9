// Syntax tree of one Go RE2 regular expression (a Kubernetes schema `pattern`).
// Built by regex_parser; walked by regex_gen (length analysis, string building) and pattern_gen.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace convcheck::pattern {

// Lengths are counted in code points; kUnbounded stands for "no upper limit" and saturates sums.
inline constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max() / 4;

enum class AssertKind {
  kBeginText,        // ^ (without m), \A
  kEndText,          // $ (without m), \z
  kBeginLine,        // ^ under (?m)
  kEndLine,          // $ under (?m)
  kWordBoundary,     // \b
  kNotWordBoundary,  // \B
};

// One character class exactly as written, with the flags in effect where it was written. Which
// code points it holds is decided by RE2 itself (see class_sampler), so Unicode tables and case
// folding follow RE2.
struct CharClassSpec {
  std::string source;           // RE2 text of the class alone: "[a-z]", "\\pL", ".", "\\x{6b}"
  bool foldCase = false;        // (?i) was in effect
  bool dotNewline = false;      // (?s) was in effect
  std::vector<char32_t> hints;  // code points named in the class (range ends), tried as members
};

struct Node {
  enum class Kind { kEmpty, kLiteral, kClass, kAssert, kConcat, kAlternate, kRepeat, kGroup };

  Kind kind = Kind::kEmpty;
  char32_t rune = 0;                              // kLiteral (case-sensitive)
  std::size_t classId = 0;                        // kClass: index into Regex::classes
  AssertKind assertion = AssertKind::kBeginText;  // kAssert
  int min = 0;                                    // kRepeat
  int max = 0;                                    // kRepeat; -1 means unbounded
  bool greedy = true;                             // kRepeat (irrelevant for matching)
  bool braces = false;                            // kRepeat written as {n,m}
  bool padding = false;        // kRepeat added by regex_gen around unanchored ends
  int capture = 0;             // kGroup: 0 non-capturing, else 1-based index
  std::string name;            // kGroup: (?P<name>...)
  std::vector<Node> children;  // kConcat, kAlternate: all; kRepeat, kGroup: exactly one

  // Filled by regex_gen's length analysis: possible lengths lie in [minLen, maxLen];
  // minLen == kUnbounded marks a node that can match nothing (e.g. an empty class).
  std::size_t minLen = 0;
  std::size_t maxLen = 0;
};

struct Regex {
  Node root;
  std::vector<CharClassSpec> classes;
  std::string re2Source;  // the pattern as handed to RE2 (Go-only spellings rewritten)
  int captureCount = 0;
};

}  // namespace convcheck::pattern
