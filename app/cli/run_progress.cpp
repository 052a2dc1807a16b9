#include "app/cli/run_progress.h"

#include <ostream>

#include <fmt/format.h>

#include "kube/go/duration.h"

namespace convcheck {

namespace {

// A terminal line is redrawn at most this often while cases finish.
constexpr std::chrono::milliseconds kRedraw{100};

}  // namespace

RunProgress::RunProgress(std::ostream& out, Mode mode, std::chrono::milliseconds every,
                         std::optional<std::chrono::milliseconds> budget)
    : out_(out), mode_(mode), every_(every), budget_(budget) {
  clock_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, every_, [this] { return stopping_; })) {
      lock.unlock();
      print();
      lock.lock();
    }
  });
}

RunProgress::~RunProgress() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  clock_.join();
  if (mode_ == Mode::Terminal) out_ << "\r\033[K" << std::flush;
}

void RunProgress::caseDone(const CaseDone& done) {
  bool redraw = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++cases_;
    failing_ += done.failed ? 1 : 0;
    requestsByKind_[done.kind] = done.requests;
    const auto now = std::chrono::steady_clock::now();
    if (mode_ == Mode::Terminal && now - lastDrawn_ >= kRedraw) {
      lastDrawn_ = now;
      redraw = true;
    }
  }
  if (redraw) print();
}

std::string RunProgress::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  long long requests = 0;
  for (const auto& [kind, count] : requestsByKind_) requests += count;
  const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(
      std::chrono::steady_clock::now() - start_);  // whole seconds, as --duration takes them
  return fmt::format("{} case(s) done, {} failing, {} request(s), {}{} elapsed", cases_, failing_,
                     requests, formatGoDuration(elapsed),
                     budget_ ? " of " + formatGoDuration(*budget_) : "");
}

void RunProgress::print() {
  const std::string line = status();
  std::lock_guard<std::mutex> lock(mutex_);  // one writer at a time
  if (mode_ == Mode::Terminal)
    out_ << "\r\033[K" << line << std::flush;
  else
    out_ << "status: " << line << "\n" << std::flush;
}

}  // namespace convcheck
