// What the engine tells while it works, as it happens: a case judged, a problem seen for the
// first time, a failure shrunk, a line for the user. Every mode emits them; the commands render
// them (progress, status lines, --verbose), the in-process harness and the tests record them.
#pragma once

#include <functional>
#include <string>
#include <variant>

namespace convcheck {

// A generated case judged (in case order, on its kind's thread).
struct CaseDone {
  std::string kind;
  bool failed = false;     // some property failed on it
  long long requests = 0;  // the kind's webhook calls so far (cases and shrinking)
};

// A case showed a problem its kind had not shown before: its identity and where it was seen
// first. The report's problem list is made once the job is done, from the shrunk examples.
struct ProblemFound {
  std::string kind;
  std::string problem;             // the identity (Cause::problem, else the cause's key)
  std::string property, from, to;  // the failing property and version pair
  std::string title;               // the cause's one-line title
};

// A failure shrunk: the `done`th of the kind's `total` shrinks (total 0: not known ahead).
struct ShrinkDone {
  std::string kind;
  std::string problem;
  std::string property, from, to;
  int done = 0;
  int total = 0;
};

// A line for the user about what the engine does besides judging cases.
struct Note {
  enum class Level {
    Detail,   // only on request (--verbose): each version pair as it starts
    Info,     // what was started, chosen or skipped
    Warning,  // an input the job used despite a problem with it
  };
  Level level = Level::Info;
  std::string text;  // one or more lines, without the last newline
};

using EngineEvent = std::variant<CaseDone, ProblemFound, ShrinkDone, Note>;

// Receives the events, one at a time per kind (a job with several kinds runs them one after
// another). The engine waits for it: it must be quick. May be empty.
using EventSink = std::function<void(const EngineEvent&)>;

// One visitor of lambdas for std::visit over an EngineEvent (or the engine's other variants).
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

// Sends `event` to `sink` when there is one.
inline void tell(const EventSink& sink, EngineEvent event) {
  if (sink) sink(event);
}

}  // namespace convcheck
