// One accepted TCP connection of the hostile test webhook, with or without TLS on top: raw byte
// I/O, HTTP/1.1 request reading, and the misbehaviours plain servers cannot do (reset, half-sends).
// Used by tests/hostile (hostile_server, hostile_modes).
#pragma once

#include <openssl/ssl.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace convcheck::hostile {

// A request as read off the wire (Content-Length bodies only: that is what convcheck sends).
struct Request {
  std::string method;
  std::string target;                          // path and query
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string path() const { return target.substr(0, target.find('?')); }
  std::string header(const std::string& lowerName) const;
};

class Connection {
 public:
  // Takes ownership of `fd`; `ctx` null means plain TCP.
  Connection(int fd, SSL_CTX* ctx);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs the TLS handshake (no-op without TLS); false when it fails.
  bool handshake();
  // Reads one request; nullopt when the peer closed, timed out or sent something unreadable.
  std::optional<Request> readRequest(std::chrono::milliseconds idle);
  // The last readRequest() failed because the bytes were not HTTP (e.g. a TLS ClientHello).
  bool sawNonHttp() const { return sawNonHttp_; }
  // Writes everything; false once the peer is gone.
  bool write(std::string_view bytes);
  // Blocks until the peer closes the connection or `limit` passes (discarding what it sends).
  void waitForPeerClose(std::chrono::milliseconds limit);
  // Closes with a TCP RST instead of a FIN (SO_LINGER 0), skipping the TLS close_notify.
  void reset();
  // Sends the TLS close_notify (when TLS) and closes the socket.
  void close();

 private:
  int readSome(char* buffer, int size);
  bool waitReadable(std::chrono::milliseconds limit);

  int fd_ = -1;
  SSL* ssl_ = nullptr;
  std::string pending_;  // bytes read past the end of the last request
  bool sawNonHttp_ = false;
};

}  // namespace convcheck::hostile
