// The catalogue of hostile behaviours of the hostile test webhook (--mode NAME) and how each one
// treats a connection. Used by the hostile-webhook server and, for the names, by hostile_test.
#pragma once

#include <atomic>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tests/hostile/connection.h"

namespace convcheck::hostile {

enum class Mode {
  Correct,             // converts correctly (the example webhook's logic): the control
  RandomBytes,         // after the request: random bytes instead of an HTTP response, then close
  RandomBody,          // 200 application/json with a random binary body
  JsonCutInHalf,       // 200 with the first half of the correct answer (Content-Length matches)
  Empty200,            // 200 with an empty body
  Status204,           // 204 No Content
  Html500,             // 500 with an HTML error page
  Text422,             // 422 with a text/plain message
  EndlessBody,         // 200, no Content-Length, streams up to 8 GiB until the client gives up
  ContentLengthLie,    // declares Content-Length: 1 TiB, sends 1 KiB, closes
  ContentLengthShort,  // declares Content-Length: 100000, sends 100 bytes, closes
  Slowloris,           // status line and headers, then one body byte per second, forever
  NeverAnswer,         // accepts the TCP connection and then does nothing at all (no TLS)
  SilentAfterRequest,  // completes TLS, reads the request, never answers
  TcpReset,            // reads the request, then resets the connection (RST)
  ResetOnAccept,       // resets every connection right after accept, before TLS
  CloseAfterHeaders,   // sends the headers (Content-Length: 5000) and closes
  DeepNesting,         // 200, a JSON body nested a million levels deep
  DeeperThanGo,        // 200, a JSON body nested 20,000 levels deep (Go's limit is 10,000)
  DeepNestingArray,    // 200, a body of a million '[' (not JSON-looking: the YAML fallback path)
  DeepYaml,            // 200, a YAML body of maps indented 1500 levels deep (YAML fallback)
  YamlAliasBomb,       // 200, a YAML body whose aliases expand to 10^9 nodes ("billion laughs")
  HugeNumbers,         // correct answer with 1e400 and a 400-digit integer in every object
  InvalidUtf8,         // correct answer with invalid UTF-8 bytes in strings and keys
  DuplicateKeys,       // correct answer with duplicate keys; the last one is the correct value
  NanInfinity,         // correct answer with NaN, Infinity and -Infinity literals
  Redirect307,         // 307 to /final, which converts correctly
  Redirect308,         // 308 to /final, which converts correctly
  Redirect302,         // 302 to /final, which answers the (POST turned) GET with 405
  RedirectLoop,        // 307 to itself, forever
  GzipBomb,            // 200, Content-Encoding: gzip, 1 GiB of zeros in about 1 MiB
  MillionObjects,      // correct envelope with 2 million convertedObjects
  ManyObjects,         // correct envelope with 40,000 convertedObjects (under the value cap)
  PaddedAnswer,        // correct answer plus a 15 MiB string in an unknown envelope field
  WideObject,          // correct answer whose objects carry an unknown field of 45,000 numbers
  DeepValid,           // correct answer whose objects carry a field nested 990 levels deep
  AnswerOnce,          // converts the first request, then drops every connection
};

struct ModeInfo {
  Mode mode;
  std::string_view name;
  std::string_view behaviour;
};

std::span<const ModeInfo> modeCatalogue();
std::optional<Mode> modeFromName(std::string_view name);
std::string_view modeName(Mode mode);

// Shared by the connections of one server.
struct ServerState {
  bool tls = true;
  std::atomic<int> answered{0};  // correct answers given so far
  std::string gzipBomb;          // the compressed bomb (GzipBomb only), made once at start
};

// Builds what a mode needs before the first connection (the gzip bomb).
void prepareMode(Mode mode, ServerState& state);

// Serves one accepted connection according to `mode`; returns when the connection is done.
void serveConnection(Mode mode, Connection& connection, ServerState& state);

}  // namespace convcheck::hostile
