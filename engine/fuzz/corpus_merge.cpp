#include "engine/fuzz/corpus_merge.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <tuple>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

namespace convcheck {

namespace fs = std::filesystem;

namespace {

struct Candidate {
  std::uintmax_t size = 0;
  std::string name;
  fs::path path;
  bool joined = false;  // from another shard: copied in when kept
  bool operator<(const Candidate& other) const {
    return std::tie(size, name, path) < std::tie(other.size, other.name, other.path);
  }
};

// The files of `dir` (`joined`: of another shard) whose names are not in `names` yet.
std::string listFiles(const fs::path& dir, bool joined, std::set<std::string>& names,
                      std::vector<Candidate>& files) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && names.insert(entry.path().filename().string()).second)
      files.push_back({entry.file_size(), entry.path().filename().string(), entry.path(), joined});
  return ec ? fmt::format("cannot read {}: {}", dir.string(), ec.message()) : "";
}

}  // namespace

MergeOutcome mergeCorpus(FuzzSession& session, const std::string& dir,
                         const std::vector<std::string>& from) {
  MergeOutcome outcome;
  std::set<std::string> names;
  std::vector<Candidate> files;  // by size, then name
  outcome.error = listFiles(dir, false, names, files);
  for (const auto& shard : from)
    if (outcome.error.empty() && fs::exists(shard))
      outcome.error = listFiles(shard, true, names, files);
  if (!outcome.error.empty()) return outcome;
  std::sort(files.begin(), files.end());
  outcome.inputs = files.size();
  std::unordered_set<std::uint64_t> seen;
  std::error_code ec;
  for (const Candidate& file : files) {
    std::ifstream in(file.path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    session.testOne(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    const bool kept = session.features().addNewTo(seen) > 0;
    outcome.kept += kept;
    if (kept && file.joined)
      fs::copy_file(file.path, fs::path(dir) / file.name, ec);
    else if (!kept && !file.joined)
      fs::remove(file.path, ec);
    if (ec) {
      outcome.error = fmt::format("cannot {} {}: {}", kept ? "copy" : "remove", file.path.string(),
                                  ec.message());
      return outcome;
    }
  }
  outcome.features = seen.size();
  return outcome;
}

std::string joinRegressions(const std::string& corpusDir, const std::vector<std::string>& shards) {
  for (const auto& shard : shards) {
    const fs::path regressions = fs::path(shard) / "regressions";
    std::error_code ec;
    if (!fs::exists(regressions, ec)) continue;
    fs::create_directories(fs::path(corpusDir) / "regressions", ec);
    fs::copy(regressions, fs::path(corpusDir) / "regressions",
             fs::copy_options::recursive | fs::copy_options::skip_existing, ec);
    if (ec) return fmt::format("cannot copy {}: {}", regressions.string(), ec.message());
  }
  return "";
}

}  // namespace convcheck
