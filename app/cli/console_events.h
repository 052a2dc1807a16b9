// What the engine tells, on the console: each judged case to the progress line (RunProgress), the
// notes on stderr (--verbose ones only with it), and, for fuzz, a line per problem shrunk. Used by
// the commands that run the engine.
#pragma once

#include <iosfwd>

#include "app/cli/run_progress.h"
#include "engine/api/events.h"

namespace convcheck {

struct ConsoleEvents {
  bool verbose = false;             // print Detail notes too
  RunProgress* progress = nullptr;  // hears every judged case (may be null)
  bool shrinkLines = false;         // "fuzz: shrunk P (property from -> to)" per shrink
};

// The sink that prints what `style` asks on `err`.
EventSink consoleEvents(std::ostream& err, ConsoleEvents style);

}  // namespace convcheck
