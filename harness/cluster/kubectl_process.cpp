#include "harness/cluster/kubectl_process.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

namespace convcheck {

std::variant<ChildProcess, std::string> spawnKubectl(const ClusterAccess& access,
                                                     const std::vector<std::string>& args,
                                                     int outFd, int errFd) {
  std::vector<std::string> argv = {access.kubectl};
  for (auto& a : access.globalArgs()) argv.push_back(a);
  for (auto& a : args) argv.push_back(a);
  auto started = ChildProcess::start({argv, {}, "", outFd, errFd});
  if (auto* error = std::get_if<std::string>(&started))
    return fmt::format(
        "{} (convcheck reaches clusters through kubectl: install it or put it on PATH)", *error);
  return std::move(std::get<ChildProcess>(started));
}

std::optional<std::string> portInLine(const std::string& text, const std::string& before,
                                      const std::string& after) {
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string_view line(text.data() + start, end - start);
    for (std::size_t at = line.find(before); at != std::string_view::npos;
         at = line.find(before, at + 1)) {
      std::size_t digits = at + before.size();
      std::size_t past = digits;
      while (past < line.size() && std::isdigit(static_cast<unsigned char>(line[past]))) ++past;
      if (past > digits && line.substr(past, after.size()) == after)
        return std::string(line.substr(digits, past - digits));
    }
  }
  return std::nullopt;
}

std::string trimmedKubectlText(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}

namespace {

// A fresh temporary file for kubectl's output: its descriptor (close-on-exec) and path.
std::variant<int, std::string> backgroundKubectlLog(std::filesystem::path& path) {
  char name[] = "/tmp/convcheck-kubectl-XXXXXX";
  int fd = mkostemp(name, O_CLOEXEC);
  if (fd < 0) return std::string("temporary file: ") + std::strerror(errno);
  path = name;
  return fd;
}

}  // namespace

std::variant<std::unique_ptr<BackgroundKubectl>, std::string> BackgroundKubectl::start(
    const ClusterAccess& access, const std::vector<std::string>& args) {
  std::filesystem::path outPath, errPath;
  auto out = backgroundKubectlLog(outPath);
  if (auto* error = std::get_if<std::string>(&out)) return *error;
  auto err = backgroundKubectlLog(errPath);
  if (auto* error = std::get_if<std::string>(&err)) {
    close(std::get<int>(out));
    std::filesystem::remove(outPath);
    return *error;
  }
  auto spawned = spawnKubectl(access, args, std::get<int>(out), std::get<int>(err));
  close(std::get<int>(out));
  close(std::get<int>(err));
  if (auto* error = std::get_if<std::string>(&spawned)) {
    std::filesystem::remove(outPath);
    std::filesystem::remove(errPath);
    return *error;
  }
  std::unique_ptr<BackgroundKubectl> process(
      new BackgroundKubectl(std::move(std::get<ChildProcess>(spawned))));
  process->out_ = outPath;
  process->err_ = errPath;
  return process;
}

std::string BackgroundKubectl::readFile(const std::filesystem::path& file) const {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::string> BackgroundKubectl::awaitPort(const std::string& before,
                                                        const std::string& after,
                                                        std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    // The exit first, then the output: a line written before kubectl ended is never missed.
    const bool ended = exited();
    if (auto port = portInLine(readFile(out_), before, after)) return port;
    if (ended || std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string BackgroundKubectl::message() const {
  std::string text = trimmedKubectlText(readFile(err_));
  return text.empty() ? trimmedKubectlText(readFile(out_)) : text;
}

BackgroundKubectl::~BackgroundKubectl() {
  process_->stop(std::chrono::seconds(5));
  std::error_code ec;
  std::filesystem::remove(out_, ec);
  std::filesystem::remove(err_, ec);
}

}  // namespace convcheck
