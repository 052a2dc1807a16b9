#include "engine/fuzz/corpus_merge.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <tuple>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

namespace convcheck {

namespace fs = std::filesystem;

MergeOutcome mergeCorpus(FuzzSession& session, const std::string& dir) {
  MergeOutcome outcome;
  std::error_code ec;
  std::vector<std::pair<std::uintmax_t, fs::path>> files;  // by size, then name
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file()) files.emplace_back(entry.file_size(), entry.path());
  if (ec) {
    outcome.error = fmt::format("cannot read {}: {}", dir, ec.message());
    return outcome;
  }
  std::sort(files.begin(), files.end());
  outcome.inputs = files.size();
  std::unordered_set<std::uint64_t> seen;
  for (const auto& [size, path] : files) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    session.testOne(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    if (session.features().addNewTo(seen) > 0) {
      ++outcome.kept;
      continue;
    }
    fs::remove(path, ec);
    if (ec) {
      outcome.error = fmt::format("cannot remove {}: {}", path.string(), ec.message());
      return outcome;
    }
  }
  outcome.features = seen.size();
  return outcome;
}

}  // namespace convcheck
