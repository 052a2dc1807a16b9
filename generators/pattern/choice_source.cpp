#include "generators/pattern/choice_source.h"

#include <algorithm>
#include <utility>

namespace convcheck::pattern {

ChoiceSource::ChoiceSource(rc::Random random) : random_(std::move(random)) {}

ChoiceSource::ChoiceSource(std::vector<std::uint32_t> replay) : replay_(std::move(replay)) {}

std::uint32_t ChoiceSource::draw(std::uint32_t n) {
  if (n <= 1) return 0;
  std::uint32_t value = 0;
  if (random_) {
    value = static_cast<std::uint32_t>(random_->next() % n);
  } else if (next_ < replay_.size()) {
    value = std::min(replay_[next_++], n - 1);
  }
  used_.push_back(value);
  return value;
}

std::uint32_t ChoiceSource::drawPreferring(std::uint32_t n, std::uint32_t preferred) {
  if (n <= 1) return 0;
  std::uint32_t value = std::min(preferred, n - 1);
  if (!random_) value = next_ < replay_.size() ? std::min(replay_[next_++], n - 1) : 0;
  used_.push_back(value);
  return value;
}

}  // namespace convcheck::pattern
