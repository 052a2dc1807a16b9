#include "engine/engine.h"

#include <sstream>

#include "engine/fuzz/fuzz_job.h"
#include "engine/run/run_job.h"

namespace convcheck {

Verdict execute(EngineOptions options, const EventSink& events) {
  options.config.events = events;
  std::istringstream none;
  std::istream& in = options.input ? *options.input : none;
  Verdict verdict = std::visit(
      Overloaded{
          [&](const RunMode&) { return runJob(options.config, std::move(options.access), in); },
          [&](const FuzzMode& fuzz) {
            FuzzConfig config;
            static_cast<FuzzSettings&>(config) = fuzz;
            config.run = options.config;
            return fuzzJob(std::move(config), std::move(options.access), in);
          },
          [&](const ReplayMode& replay) {
            return replayJob(replay, options.config, std::move(options.access));
          },
          [&](const MinimizeMode& minimize) {
            return minimizeJob(minimize, options.config, std::move(options.access), in);
          }},
      options.mode);
  verdict.report.version = options.version;
  return verdict;
}

}  // namespace convcheck
