#include "harness/transport/sigpipe.h"

#include <csignal>

namespace convcheck {

void ignoreSigpipe() {
  // A function-local static runs the change exactly once, thread-safely, without a global.
  static const bool ignored = std::signal(SIGPIPE, SIG_IGN) != SIG_ERR;
  (void)ignored;
}

}  // namespace convcheck
