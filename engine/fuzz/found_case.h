// A fuzz case that showed a problem where its process had not seen it before (a new problem, or
// on another property or version pair), as the fuzzing processes hand it to the one that
// reports: the case, the seed its request uids came from, when it was found, and the problems
// (Cause::problem) it showed. Files in a directory both sides know.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace convcheck {

struct FoundCase {
  std::string caseBytes;  // the canonical encoding of the case (fuzz_case.h)
  std::uint64_t seed = 0;
  double seconds = 0;     // since its process started fuzzing
  std::int64_t exec = 0;  // the case's number in its process
  int job = 0;            // the fuzzing process (0 .. --jobs-1)
  std::vector<std::string> problems;
};

// Writes `found` as DIR/job-J-case-N.json (atomically: a reader sees whole files only).
void writeFoundCase(const std::string& dir, const FoundCase& found);

// Every found case in `dir`, earliest first (by time found, then job); unreadable files are
// skipped with a note in `notes`.
std::vector<FoundCase> readFoundCases(const std::string& dir, std::vector<std::string>& notes);

// Whether some process has written a found case into `dir` yet.
bool anyFoundCase(const std::string& dir);

// What one fuzzing process did, written when it ends and read by the reporting one.
struct FuzzStats {
  std::int64_t execs = 0;
  double seconds = 0;
  std::size_t features = 0;      // distinct behaviour features seen (all processes: their union)
  std::size_t newBehaviour = 0;  // inputs that showed a feature first
};

void writeFuzzStats(const std::string& dir, int job, const FuzzStats& stats);
// The distinct behaviour features process `job` saw (their hashes), written beside its stats.
void writeFuzzFeatures(const std::string& dir, int job,
                       const std::unordered_set<std::uint64_t>& features);
// The stats of every process that wrote them, summed (seconds: the longest; features: the union
// of those the processes wrote, else the most one process saw).
FuzzStats readFuzzStats(const std::string& dir);

}  // namespace convcheck
