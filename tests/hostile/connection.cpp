#include "tests/hostile/connection.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace convcheck::hostile {
namespace {

constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
constexpr std::size_t kMaxBodyBytes = 256u << 20;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

std::string Request::header(const std::string& lowerName) const {
  auto it = headers.find(lowerName);
  return it == headers.end() ? "" : it->second;
}

Connection::Connection(int fd, SSL_CTX* ctx) : fd_(fd) {
  if (ctx != nullptr) {
    ssl_ = SSL_new(ctx);
    if (ssl_ != nullptr) SSL_set_fd(ssl_, fd_);
  }
}

Connection::~Connection() {
  if (ssl_ != nullptr) SSL_free(ssl_);
  if (fd_ >= 0) ::close(fd_);
}

bool Connection::handshake() {
  if (ssl_ == nullptr) return true;
  return SSL_accept(ssl_) == 1;
}

bool Connection::waitReadable(std::chrono::milliseconds limit) {
  if (ssl_ != nullptr && SSL_pending(ssl_) > 0) return true;
  pollfd p{fd_, POLLIN, 0};
  return ::poll(&p, 1, static_cast<int>(limit.count())) > 0;
}

int Connection::readSome(char* buffer, int size) {
  if (ssl_ != nullptr) return SSL_read(ssl_, buffer, size);
  return static_cast<int>(::recv(fd_, buffer, static_cast<std::size_t>(size), 0));
}

std::optional<Request> Connection::readRequest(std::chrono::milliseconds idle) {
  std::string data = std::move(pending_);
  pending_.clear();
  char buffer[16384];
  auto fill = [&]() {
    if (!waitReadable(idle)) return false;
    int n = readSome(buffer, sizeof buffer);
    if (n <= 0) return false;
    data.append(buffer, static_cast<std::size_t>(n));
    return true;
  };
  std::size_t headerEnd;
  while ((headerEnd = data.find("\r\n\r\n")) == std::string::npos) {
    if (data.size() > kMaxHeaderBytes || !fill()) return std::nullopt;
    // A request line starts with a method token; anything else is not HTTP.
    if (!std::isupper(static_cast<unsigned char>(data[0]))) {
      sawNonHttp_ = true;
      return std::nullopt;
    }
  }
  Request request;
  std::string_view head(data.data(), headerEnd);
  std::size_t lineEnd = head.find("\r\n");
  std::string_view first = head.substr(0, lineEnd);
  std::size_t s1 = first.find(' '), s2 = first.rfind(' ');
  if (s1 == std::string_view::npos || s2 == s1) return std::nullopt;
  request.method = std::string(first.substr(0, s1));
  request.target = std::string(first.substr(s1 + 1, s2 - s1 - 1));
  while (lineEnd != std::string_view::npos && lineEnd < head.size()) {
    std::size_t next = head.find("\r\n", lineEnd + 2);
    std::string_view line = head.substr(
        lineEnd + 2, next == std::string_view::npos ? std::string_view::npos : next - lineEnd - 2);
    if (auto colon = line.find(':'); colon != std::string_view::npos)
      request.headers[lower(std::string(line.substr(0, colon)))] = trim(line.substr(colon + 1));
    lineEnd = next;
  }
  std::size_t length = 0;
  if (auto cl = request.header("content-length"); !cl.empty()) {
    try {
      length = std::stoull(cl);
    } catch (...) {
      return std::nullopt;
    }
  }
  if (length > kMaxBodyBytes) return std::nullopt;
  const std::size_t bodyStart = headerEnd + 4;
  while (data.size() < bodyStart + length)
    if (!fill()) return std::nullopt;
  request.body = data.substr(bodyStart, length);
  pending_ = data.substr(bodyStart + length);
  return request;
}

bool Connection::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const int chunk = static_cast<int>(std::min<std::size_t>(bytes.size(), 1 << 20));
    int n = ssl_ != nullptr
                ? SSL_write(ssl_, bytes.data(), chunk)
                : static_cast<int>(
                      ::send(fd_, bytes.data(), static_cast<std::size_t>(chunk), MSG_NOSIGNAL));
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void Connection::waitForPeerClose(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  char buffer[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::min<long>(left.count(), 1000))) <= 0) continue;
    // Raw bytes, even under TLS: only the end of the stream matters here.
    if (::recv(fd_, buffer, sizeof buffer, 0) <= 0) return;
  }
}

void Connection::reset() {
  linger hard{1, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
  ::close(fd_);
  fd_ = -1;
}

void Connection::close() {
  if (fd_ < 0) return;
  if (ssl_ != nullptr) SSL_shutdown(ssl_);
  ::shutdown(fd_, SHUT_WR);
  ::close(fd_);
  fd_ = -1;
}

}  // namespace convcheck::hostile
