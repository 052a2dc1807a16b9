// Strings for a schema `pattern` through PatternGenerator, compiled once per distinct pattern;
// patterns it cannot generate fall back to plain candidates filtered with RE2, and say so.
// Used by schema_gen.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>

namespace convcheck {

class PatternGenerator;

class PatternStrings {
 public:
  PatternStrings();
  ~PatternStrings();
  PatternStrings(const PatternStrings&) = delete;
  PatternStrings& operator=(const PatternStrings&) = delete;

  // Strings of [minLen, maxLen] runes that `pattern` matches (RE2, unanchored). `where` names the
  // schema location for notes. One string in seven has a boundary length (boundaryLengths) the
  // pattern reaches. When PatternGenerator cannot handle the pattern or the bounds, returns plain
  // strings (the caller filters them with RE2) and records a note.
  rc::Gen<std::string> strings(const std::string& pattern, std::size_t minLen,
                               std::optional<std::size_t> maxLen, const std::string& where);

  // Honest notes: which patterns (and where) could not be generated directly.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::map<std::string, std::shared_ptr<const PatternGenerator>> compiled_;
  std::map<std::string, std::string> failed_;                      // pattern → reason
  std::map<std::pair<std::string, std::size_t>, bool> reachable_;  // (pattern, length) → found
  std::vector<std::string> notes_;
  std::set<std::string> noted_;
  void note(const std::string& n);
};

}  // namespace convcheck
