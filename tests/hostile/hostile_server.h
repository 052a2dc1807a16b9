// The hostile test webhook's listener: 127.0.0.1, TLS (or plain HTTP without a certificate), one
// thread per connection, each served by the chosen mode. Used by tests/hostile/main.cpp.
#pragma once

#include <ostream>
#include <string>

#include "tests/hostile/hostile_modes.h"

namespace convcheck::hostile {

struct ServerOptions {
  Mode mode = Mode::Correct;
  std::string certFile;  // empty: plain HTTP
  std::string keyFile;
  int port = 0;  // 0: the kernel picks one
};

// Prints "listening on https://127.0.0.1:PORT" (or http://) to `out` once it accepts, then serves
// until killed. Returns non-zero (after a message on `err`) only when it cannot start.
int runHostileServer(const ServerOptions& options, std::ostream& out, std::ostream& err);

}  // namespace convcheck::hostile
