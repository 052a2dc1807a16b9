#include "generators/pattern_strings.h"

#include "generators/pattern/pattern_gen.h"
#include "generators/string_gen.h"

namespace convcheck {

PatternStrings::PatternStrings() = default;
PatternStrings::~PatternStrings() = default;

void PatternStrings::note(const std::string& n) {
  if (noted_.insert(n).second) notes_.push_back(n);
}

rc::Gen<std::string> PatternStrings::strings(const std::string& pattern, std::size_t minLen,
                                             std::optional<std::size_t> maxLen,
                                             const std::string& where) {
  std::shared_ptr<const PatternGenerator> gen;
  if (auto it = compiled_.find(pattern); it != compiled_.end()) {
    gen = it->second;
  } else if (!failed_.count(pattern)) {
    auto compiled = PatternGenerator::compile(pattern);
    if (auto* g = std::get_if<PatternGenerator>(&compiled)) {
      gen = std::make_shared<const PatternGenerator>(std::move(*g));
      compiled_[pattern] = gen;
    } else {
      failed_[pattern] = std::get<std::string>(compiled);
    }
  }
  if (!gen) {
    note("pattern " + pattern + " (at " + where + ") cannot be generated directly (" +
         failed_[pattern] + "); plain strings filtered with RE2 are used instead");
    return plainStrings(minLen, maxLen);
  }
  if (auto problem = gen->boundsError(minLen, maxLen)) {
    note("pattern " + pattern + " (at " + where + ") with length bounds [" +
         std::to_string(minLen) + ", " + (maxLen ? std::to_string(*maxLen) : std::string("∞")) +
         "]: " + *problem + "; plain strings filtered with RE2 are used instead");
    return plainStrings(minLen, maxLen);
  }
  // One string in seven at a boundary length the pattern can reach (maxLength, 63, …).
  std::vector<rc::Gen<std::string>> atBoundaries;
  for (std::size_t len : boundaryLengths(minLen, maxLen)) {
    auto [known, inserted] = reachable_.try_emplace({pattern, len}, false);
    if (inserted) known->second = !gen->boundsError(len, len);
    if (known->second) atBoundaries.push_back(gen->genAt(len, minLen, maxLen));
  }
  if (atBoundaries.empty()) return gen->gen(minLen, maxLen);
  return rc::Gen<std::string>(
      [any = gen->gen(minLen, maxLen), atBoundaries](const rc::Random& random, int size) {
        rc::Random r = random;
        const auto choice = r.split().next() % (7 * atBoundaries.size());
        return choice < atBoundaries.size() ? atBoundaries[choice](r, size) : any(r, size);
      });
}

}  // namespace convcheck
