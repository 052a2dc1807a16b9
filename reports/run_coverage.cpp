#include "reports/run_coverage.h"

#include <algorithm>

#include <fmt/format.h>

namespace convcheck {

namespace {

bool hasDefault(const PathCoverage& path) {
  return std::any_of(path.boundaries.begin(), path.boundaries.end(),
                     [](const BoundaryCoverage& b) { return b.kind == "default"; });
}

// Whether `path` lies below `parent` ("spec.a.b" and "spec.a[*]" lie below "spec.a").
bool below(const std::string& path, const std::string& parent) {
  return path.size() > parent.size() && path.compare(0, parent.size(), parent) == 0 &&
         (path[parent.size()] == '.' || path[parent.size()] == '[');
}

std::string boundaryGap(const PathCoverage& path, const BoundaryCoverage& b) {
  if (b.kind == "enum") return fmt::format("{} = {}: enum value never sent", path.path, b.value);
  if (b.kind == "null") return fmt::format("{}: null never sent (nullable)", path.path);
  if (b.kind == "default") return fmt::format("{}: its default {} never sent", path.path, b.value);
  if (b.kind == "non-default")
    return fmt::format("{}: only its default {} sent", path.path, b.value);
  return fmt::format("{}: {} {} never reached", path.path, b.kind, b.value);
}

}  // namespace

CoverageCounts coverageCounts(const VersionCoverage& version) {
  CoverageCounts c;
  for (const auto& p : version.paths) {
    ++c.paths;
    c.presentPaths += p.present > 0 ? 1 : 0;
    if (!p.required && !hasDefault(p)) {
      ++c.optionalPaths;
      c.absentPaths += p.absent > 0 ? 1 : 0;
    }
    for (const auto& b : p.boundaries) {
      ++c.boundaries;
      c.reachedBoundaries += b.hits > 0 ? 1 : 0;
    }
  }
  return c;
}

std::vector<std::string> unexercised(const VersionCoverage& version) {
  std::vector<std::string> out;
  const std::string* neverSent = nullptr;  // the last path never sent: its subtree is skipped
  for (const auto& p : version.paths) {
    if (neverSent && below(p.path, *neverSent)) continue;
    if (p.present == 0) {
      out.push_back(p.path + ": never sent");
      neverSent = &p.path;
      continue;
    }
    // Defaulted fields are never absent where kube-apiserver applies the defaults.
    if (!p.required && p.absent == 0 && !hasDefault(p))
      out.push_back(p.path + ": never absent (optional)");
    for (const auto& b : p.boundaries)
      if (b.hits == 0) out.push_back(boundaryGap(p, b));
  }
  return out;
}

std::string byteSize(std::int64_t n) {
  if (n < 10 * 1024) return fmt::format("{} B", n);
  if (n < 10 * 1024 * 1024) return fmt::format("{:.1f} KiB", n / 1024.0);
  return fmt::format("{:.1f} MiB", n / (1024.0 * 1024.0));
}

}  // namespace convcheck
