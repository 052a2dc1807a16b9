#include "generators/pattern/choice_shrinks.h"

#include <array>
#include <utility>

namespace convcheck::pattern {
namespace {

constexpr std::array<std::size_t, 4> kBlockSizes = {8, 4, 2, 1};

// A lazy Seq: each call yields the next variant that differs from the base.
class ChoiceVariants {
 public:
  explicit ChoiceVariants(std::vector<std::uint32_t> base) : base_(std::move(base)) {}

  rc::Maybe<std::vector<std::uint32_t>> operator()() {
    const std::size_t n = base_.size();
    while (true) {
      switch (phase_) {
        case Phase::kTruncate:  // keep n - n/2^k choices for k = 0, 1, ... (0 drops all)
          if ((n >> index_) > 0) {
            const std::size_t keep = n - (n >> index_);
            ++index_;
            return std::vector<std::uint32_t>(base_.begin(), base_.begin() + keep);
          }
          next(Phase::kDeleteBlock);
          break;
        case Phase::kDeleteBlock:
          if (block_ < kBlockSizes.size()) {
            const std::size_t size = kBlockSizes[block_];
            if (size < n && index_ + size <= n) {
              std::vector<std::uint32_t> out(base_.begin(), base_.begin() + index_);
              out.insert(out.end(), base_.begin() + index_ + size, base_.end());
              ++index_;
              return out;
            }
            ++block_;
            index_ = 0;
            break;
          }
          next(Phase::kZero);
          break;
        case Phase::kZero:
          if (index_ < n) {
            const std::size_t i = index_++;
            if (base_[i] != 0) return with(i, 0);
            break;
          }
          next(Phase::kHalve);
          break;
        case Phase::kHalve:
          if (index_ < n) {
            const std::size_t i = index_++;
            if (base_[i] > 1) return with(i, base_[i] / 2);
            break;
          }
          next(Phase::kDecrement);
          break;
        case Phase::kDecrement:
          if (index_ < n) {
            const std::size_t i = index_++;
            if (base_[i] > 2) return with(i, base_[i] - 1);
            break;
          }
          next(Phase::kDone);
          break;
        case Phase::kDone:
          return rc::Nothing;
      }
    }
  }

 private:
  enum class Phase { kTruncate, kDeleteBlock, kZero, kHalve, kDecrement, kDone };

  void next(Phase phase) {
    phase_ = phase;
    index_ = 0;
  }

  std::vector<std::uint32_t> with(std::size_t i, std::uint32_t value) const {
    std::vector<std::uint32_t> out = base_;
    out[i] = value;
    return out;
  }

  std::vector<std::uint32_t> base_;
  Phase phase_ = Phase::kTruncate;
  std::size_t index_ = 0;
  std::size_t block_ = 0;
};

}  // namespace

rc::Seq<std::vector<std::uint32_t>> choiceVariants(std::vector<std::uint32_t> base) {
  return rc::Seq<std::vector<std::uint32_t>>(ChoiceVariants(std::move(base)));
}

}  // namespace convcheck::pattern
