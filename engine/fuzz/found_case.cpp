#include "engine/fuzz/found_case.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace convcheck {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

void writeJsonAtomically(const fs::path& path, const json& doc) {
  const fs::path tmp = path.string() + ".tmp";
  std::ofstream(tmp) << doc.dump() << "\n";
  std::error_code ec;
  fs::rename(tmp, path, ec);
}

}  // namespace

void writeFoundCase(const std::string& dir, const FoundCase& found) {
  const json doc = {{"case", json::parse(found.caseBytes)},
                    {"seed", found.seed},
                    {"seconds", found.seconds},
                    {"exec", found.exec},
                    {"job", found.job},
                    {"problems", found.problems}};
  writeJsonAtomically(fs::path(dir) / fmt::format("job-{}-case-{}.json", found.job, found.exec),
                      doc);
}

std::vector<FoundCase> readFoundCases(const std::string& dir, std::vector<std::string>& notes) {
  std::vector<FoundCase> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("job-", 0) != 0 || entry.path().extension() != ".json" ||
        name.find("-case-") == std::string::npos)
      continue;
    try {
      std::ifstream in(entry.path());
      const json doc = json::parse(in);
      FoundCase f;
      f.caseBytes = doc.at("case").dump();
      f.seed = doc.at("seed").get<std::uint64_t>();
      f.seconds = doc.at("seconds").get<double>();
      f.exec = doc.at("exec").get<std::int64_t>();
      f.job = doc.at("job").get<int>();
      f.problems = doc.at("problems").get<std::vector<std::string>>();
      found.push_back(std::move(f));
    } catch (const std::exception& e) {
      notes.push_back(fmt::format("fuzz: {}: {}", entry.path().string(), e.what()));
    }
  }
  std::sort(found.begin(), found.end(), [](const FoundCase& a, const FoundCase& b) {
    return std::tie(a.seconds, a.job, a.exec) < std::tie(b.seconds, b.job, b.exec);
  });
  return found;
}

bool anyFoundCase(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json" &&
        entry.path().filename().string().find("-case-") != std::string::npos)
      return true;
  return false;
}

void writeFuzzStats(const std::string& dir, int job, const FuzzStats& stats) {
  writeJsonAtomically(fs::path(dir) / fmt::format("stats-{}.json", job),
                      {{"execs", stats.execs},
                       {"seconds", stats.seconds},
                       {"features", stats.features},
                       {"newBehaviour", stats.newBehaviour}});
}

FuzzStats readFuzzStats(const std::string& dir) {
  FuzzStats total;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().filename().string().rfind("stats-", 0) != 0 ||
        entry.path().extension() != ".json")
      continue;
    try {
      std::ifstream in(entry.path());
      const json doc = json::parse(in);
      total.execs += doc.at("execs").get<std::int64_t>();
      total.seconds = std::max(total.seconds, doc.at("seconds").get<double>());
      total.features = std::max(total.features, doc.at("features").get<std::size_t>());
      total.newBehaviour += doc.at("newBehaviour").get<std::size_t>();
    } catch (const std::exception&) {
    }
  }
  bool listed = false;  // some process wrote its features: count their union
  std::unordered_set<std::uint64_t> features;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("features-", 0) != 0 || entry.path().extension() != ".bin") continue;
    listed = true;
    std::ifstream in(entry.path(), std::ios::binary);
    for (std::uint64_t feature; in.read(reinterpret_cast<char*>(&feature), sizeof feature);)
      features.insert(feature);
  }
  if (listed) total.features = features.size();
  return total;
}

void writeFuzzFeatures(const std::string& dir, int job,
                       const std::unordered_set<std::uint64_t>& features) {
  const fs::path path = fs::path(dir) / fmt::format("features-{}.bin", job);
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    for (const std::uint64_t feature : features)
      out.write(reinterpret_cast<const char*>(&feature), sizeof feature);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
}

}  // namespace convcheck
