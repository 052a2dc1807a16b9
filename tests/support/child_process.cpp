#include "tests/support/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tests/support/test_pki.h"

namespace convcheck::test {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(10);

int openLog(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error("ChildProcess: cannot create " + path.string() + ": " +
                             std::strerror(errno));
  return fd;
}

// Starts `argv` with stdout and stderr to files of `logDir`; throws when it cannot.
convcheck::ChildProcess startLogged(const std::vector<std::string>& argv,
                                    const ChildProcessOptions& options,
                                    const std::filesystem::path& logDir) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: empty argv");
  const int outFd = openLog(logDir / "stdout.log");
  const int errFd = openLog(logDir / "stderr.log");
  auto started =
      convcheck::ChildProcess::start({argv, options.extraEnv, options.workingDir, outFd, errFd});
  ::close(outFd);
  ::close(errFd);
  if (auto* error = std::get_if<std::string>(&started)) {
    std::error_code ignored;
    std::filesystem::remove_all(logDir, ignored);
    throw std::runtime_error("ChildProcess: " + *error);
  }
  return std::move(std::get<convcheck::ChildProcess>(started));
}

}  // namespace

ChildProcess::ChildProcess(std::vector<std::string> argv, ChildProcessOptions options)
    : argv_(std::move(argv)),
      logDir_(makeTempDir("convcheck-child")),
      process_(startLogged(argv_, options, logDir_)) {}

ChildProcess::~ChildProcess() {
  process_.stop(std::chrono::seconds(5));
  std::error_code ignored;
  std::filesystem::remove_all(logDir_, ignored);
}

bool ChildProcess::running() { return !process_.ended(); }

bool ChildProcess::endsWithin(std::chrono::milliseconds timeout) {
  return process_.waitFor(timeout).has_value();
}

std::optional<ExitStatus> ChildProcess::wait(std::chrono::milliseconds timeout) {
  if (!process_.waitFor(timeout)) return std::nullopt;
  return process_.wait();
}

void ChildProcess::signal(int signo) {
  if (!process_.ended()) ::kill(process_.pid(), signo);
}

ExitStatus ChildProcess::stop(std::chrono::milliseconds grace) { return process_.stop(grace); }

std::string ChildProcess::readStream(Stream stream) const {
  std::ifstream in(logDir_ / (stream == Stream::Stdout ? "stdout.log" : "stderr.log"),
                   std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string ChildProcess::stdoutText() const { return readStream(Stream::Stdout); }
std::string ChildProcess::stderrText() const { return readStream(Stream::Stderr); }

std::optional<std::vector<std::string>> ChildProcess::waitForLine(const std::regex& pattern,
                                                                  std::chrono::milliseconds timeout,
                                                                  Stream stream) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t scanned = 0;  // bytes of complete lines already checked
  while (true) {
    // Check the exit first, then read: output written before the exit is then never missed.
    const bool ended = !running();
    const std::string text = readStream(stream);
    std::size_t end;
    while ((end = text.find('\n', scanned)) != std::string::npos) {
      const std::string line = text.substr(scanned, end - scanned);
      scanned = end + 1;
      std::smatch match;
      if (std::regex_search(line, match, pattern))
        return std::vector<std::string>(match.begin(), match.end());
    }
    if (ended || std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace convcheck::test
