// The choices a string is built from: fresh random draws, or a clamped replay while shrinking.
// Used by regex_gen (which draws) and pattern_gen (which records and replays).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace convcheck::pattern {

class ChoiceSource {
 public:
  explicit ChoiceSource(rc::Random random);
  explicit ChoiceSource(std::vector<std::uint32_t> replay);

  // A choice in [0, n) for n >= 1; 0 is always the simplest option. Single-option draws are
  // neither random nor recorded.
  std::uint32_t draw(std::uint32_t n);

  // Like draw(n), but a fresh draw is always `preferred` (< n); replays and shrinks still vary it.
  std::uint32_t drawPreferring(std::uint32_t n, std::uint32_t preferred);

  // The choices consumed so far (after clamping), which replay to the same string.
  const std::vector<std::uint32_t>& used() const { return used_; }

 private:
  std::optional<rc::Random> random_;
  std::vector<std::uint32_t> replay_;
  std::size_t next_ = 0;
  std::vector<std::uint32_t> used_;
};

}  // namespace convcheck::pattern
