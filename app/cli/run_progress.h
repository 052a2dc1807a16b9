// How far a `convcheck run` is, on stderr: on a terminal one line rewritten in place, otherwise a
// status line every 10 s (CI systems stop jobs that print nothing). Used by run_command.cpp.
#pragma once

#include <chrono>
#include <condition_variable>
#include <iosfwd>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engine/api/events.h"

namespace convcheck {

class RunProgress {
 public:
  enum class Mode { Terminal, StatusLines };
  // `every`: how often a status line is printed (StatusLines) or the line refreshed (Terminal);
  // `budget`: --duration, shown beside the time elapsed.
  RunProgress(std::ostream& out, Mode mode, std::chrono::milliseconds every,
              std::optional<std::chrono::milliseconds> budget = {});
  // Stops the clock; a terminal's progress line is cleared.
  ~RunProgress();
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  // A judged case (the engine's CaseDone event).
  void caseDone(const CaseDone& done);

  // "12 cases done, 1 failing, 57 requests, 4s elapsed" ("4s of 2m0s elapsed" with a budget)
  std::string status() const;

 private:
  void print();  // on the terminal: the line in place; otherwise a new status line

  std::ostream& out_;
  const Mode mode_;
  const std::chrono::milliseconds every_;
  const std::optional<std::chrono::milliseconds> budget_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
  std::map<std::string, long long> requestsByKind_;    // guarded by mutex_
  long long cases_ = 0, failing_ = 0;                  // guarded by mutex_
  std::chrono::steady_clock::time_point lastDrawn_{};  // guarded by mutex_ (Terminal)
  bool stopping_ = false;                              // guarded by mutex_
  std::condition_variable wake_;
  std::thread clock_;
};

}  // namespace convcheck
