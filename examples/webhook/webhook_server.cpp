#include "examples/webhook/webhook_server.h"

#include <atomic>
#include <csignal>
#include <ctime>
#include <ostream>
#include <thread>

#include <httplib.h>
#include <pthread.h>

#include "examples/webhook/review_handler.h"

namespace convcheck::example {
namespace {

// Blocks SIGTERM and SIGINT in the calling thread (and the threads it starts), so that only
// the waiter thread below receives them, with sigtimedwait.
sigset_t blockStopSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

// Waits for SIGTERM/SIGINT until `finished`; on a signal stops the server, retrying until the
// listen loop has returned (stop() is a no-op before the loop starts).
void stopOnSignal(const sigset_t& signals, httplib::Server& server,
                  const std::atomic<bool>& finished) {
  const timespec tick{0, 50'000'000};
  bool stopping = false;
  while (!finished.load()) {
    if (!stopping) stopping = sigtimedwait(&signals, nullptr, &tick) > 0;
    if (stopping) {
      server.stop();
      nanosleep(&tick, nullptr);
    }
  }
}

}  // namespace

// A connection holds a thread while it is kept alive: more threads than clients' connections
// (convcheck's --jobs 32 opens 33 and more), as Go's net/http serves each on a goroutine.
constexpr std::size_t kServerThreads = 128;
constexpr std::size_t kKeepAliveRequests = 1000000;

int runWebhookServer(const WebhookServerOptions& options, std::ostream& out, std::ostream& err) {
  const sigset_t signals = blockStopSignals();
  std::signal(SIGPIPE, SIG_IGN);

  httplib::SSLServer server(options.certFile.c_str(), options.keyFile.c_str(),
                            options.clientCaFile.empty() ? nullptr : options.clientCaFile.c_str());
  if (!server.is_valid()) {
    err << "example-webhook: cannot load TLS certificate " << options.certFile << " / key "
        << options.keyFile
        << (options.clientCaFile.empty() ? "" : " / client CA " + options.clientCaFile) << "\n";
    return 1;
  }

  // Headers and body leave in separate writes; without TCP_NODELAY, Nagle's algorithm and the
  // client's delayed ACK add ~40 ms to every answer.
  server.set_tcp_nodelay(true);
  // Webhook servers in Go, Node and Python keep a connection for as many requests as the client
  // sends (kube-apiserver reuses its connections); cpp-httplib closes it after 5 by default.
  server.set_keep_alive_max_count(kKeepAliveRequests);
  if (options.maxBodyBytes > 0) server.set_payload_max_length(options.maxBodyBytes);
  // Enough threads that slow answers (--delay-ms) overlap as they do in a real webhook server.
  server.new_task_queue = [] { return new httplib::ThreadPool(kServerThreads); };
  const FaultSet faults = options.faults;
  const auto extraDelay = options.delay;
  const KindMode kinds = options.kinds;
  server.Post(options.path, [faults, extraDelay, kinds](const httplib::Request& request,
                                                        httplib::Response& response) {
    HttpReply reply = handleConversionReview(request.get_header_value("Content-Type"), request.body,
                                             faults, kinds);
    reply.delay += extraDelay;
    if (reply.delay.count() > 0) std::this_thread::sleep_for(reply.delay);
    response.status = reply.status;
    response.set_content(reply.body, reply.contentType.c_str());
  });
  server.Get("/readyz", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("ok\n", "text/plain");
  });

  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host.c_str());
  } else if (!server.bind_to_port(options.host.c_str(), port)) {
    port = -1;
  }
  if (port <= 0) {
    err << "example-webhook: cannot listen on " << options.host << ":" << options.port << "\n";
    return 1;
  }
  out << "listening on https://" << options.host << ":" << port << std::endl;

  std::atomic<bool> finished{false};
  std::thread waiter([&] { stopOnSignal(signals, server, finished); });
  server.listen_after_bind();
  finished.store(true);
  waiter.join();
  return 0;
}

}  // namespace convcheck::example
