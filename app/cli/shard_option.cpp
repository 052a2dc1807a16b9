#include "app/cli/shard_option.h"

#include <charconv>

#include <fmt/format.h>

namespace convcheck {
namespace {

// A whole number from `min` up to 1000000, all of `text`.
bool wholeNumber(const std::string& text, int min, int& out) {
  const char* end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, out);
  return error == std::errc() && at == end && !text.empty() && out >= min && out <= 1000000;
}

}  // namespace

std::string readShard(const std::string& flag, const char* completionIndex, const char* completions,
                      ShardChoice& out) {
  if (!flag.empty()) {
    const auto slash = flag.find('/');
    int i = 0, n = 0;
    if (slash == std::string::npos || !wholeNumber(flag.substr(0, slash), 1, i) ||
        !wholeNumber(flag.substr(slash + 1), 1, n) || i > n)
      return fmt::format("--shard {}: expected I/N with 1 <= I <= N, e.g. 2/3", flag);
    out = {i - 1, n, false};
    return "";
  }
  if (completionIndex == nullptr || completions == nullptr) return "";
  int i = 0, n = 0;
  if (!wholeNumber(completions, 1, n))
    return fmt::format("JOB_COMPLETIONS={}: expected the Indexed Job's completions (1 or more)",
                       completions);
  if (!wholeNumber(completionIndex, 0, i) || i >= n)
    return fmt::format(
        "JOB_COMPLETION_INDEX={}: expected a pod index from 0 to JOB_COMPLETIONS - 1 ({})",
        completionIndex, n - 1);
  out = {i, n, true};
  return "";
}

}  // namespace convcheck
