#include "app/cli/console_events.h"

#include <ostream>

#include <fmt/format.h>

namespace convcheck {

EventSink consoleEvents(std::ostream& err, ConsoleEvents style) {
  return [&err, style](const EngineEvent& event) {
    std::visit(Overloaded{[&](const CaseDone& done) {
                            if (style.progress) style.progress->caseDone(done);
                          },
                          [](const ProblemFound&) {},
                          [&](const ShrinkDone& shrink) {
                            if (style.shrinkLines)
                              err << fmt::format("fuzz: shrunk {} ({} {} -> {})\n", shrink.problem,
                                                 shrink.property, shrink.from, shrink.to);
                          },
                          [&](const Note& note) {
                            if (note.level != Note::Level::Detail || style.verbose)
                              err << note.text << "\n";
                          }},
               event);
  };
}

}  // namespace convcheck
