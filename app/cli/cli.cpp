#include "app/cli/cli.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/minimize_command.h"
#include "app/cli/replay_command.h"
#include "app/cli/shared_options.h"
#include "app/cli/version.h"
#include "app/run/runner.h"
#include "generators/generate_command.h"
#include "harness/corpus/corpus_store.h"
#include "kube/crd/crd_loader.h"
#include "kube/go/duration.h"
#include "properties/checks/property_registry.h"
#include "reports/bundle_writer.h"
#include "reports/console_report.h"
#include "reports/report_formats.h"

namespace convcheck {
namespace {

constexpr const char* kVersion = kConvcheckVersion;

struct RunFlags {
  RunConfig config;
  TargetFlags target;
  std::string duration;
  std::string reviewVersion;
  std::string properties;
  std::string maxResponseSize = "16MiB";
  std::string dateTimes = "canonical";
  bool seedGiven = false;
};

constexpr const char* kDefaultConfigFile = ".convcheck.yaml";

std::optional<std::size_t> parseSize(const std::string& text) {
  std::size_t pos = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &pos);
  } catch (...) {
    return std::nullopt;
  }
  std::string unit = text.substr(pos);
  std::size_t mult = unit == "" || unit == "B" ? 1
                     : unit == "KiB"           ? 1ull << 10
                     : unit == "MiB"           ? 1ull << 20
                     : unit == "GiB"           ? 1ull << 30
                                               : 0;
  if (mult == 0) return std::nullopt;
  return value * mult;
}

// Every `run` option, in the order --help shows them.
void declareRunOptions(CLI::App& run, RunFlags& f) {
  RunConfig& c = f.config;
  declareCrdOption(run, c.crdInput);
  run.add_option("--kind", c.kinds,
                 "Test only these kinds (Kind or CRD name); default: every CRD with strategy "
                 "Webhook");
  declareTargetOptions(run, f.target, TargetDefaults::Crd);
  run.add_flag("--http2", c.transport.http2, "Allow HTTP/2 (kube-apiserver uses HTTP/1.1)");
  declareReviewVersionOption(run, f.reviewVersion);
  declareDateTimesOption(run, f.dateTimes);
  run.add_option("--config", c.configPath,
                 "Acknowledged differences (YAML, see README); default: .convcheck.yaml in the "
                 "current directory when there is one");
  run.add_flag("--raw-objects", c.rawObjects,
               "Send objects without their schema defaults (kube-apiserver always applies them "
               "before converting)");
  run.add_option("--seed", c.seed,
                 "Random seed; the same seed, CRD and webhook give the same "
                 "requests and verdict (default: random, printed)")
      ->each([&f](const std::string&) { f.seedGiven = true; });
  run.add_option("--tests", c.testsPerPair,
                 "Test cases per ordered version pair (with --duration: an upper bound)")
      ->default_val(100)
      ->check(CLI::Range(1, 1000000))
      ->each([&c](const std::string&) { c.testsGiven = true; });
  run.add_option("--duration", f.duration,
                 "Time budget for the whole run, e.g. 10m, spread evenly over kinds and version "
                 "pairs; without --tests, cases continue until it is spent");
  run.add_option("--jobs,-j", c.jobs,
                 "Requests in flight to the webhook at once, as kube-apiserver calls webhooks "
                 "concurrently (one case more runs, judged meanwhile); verdicts stay the same for "
                 "a seed (results are judged in case order)")
      ->default_val(8)
      ->check(CLI::Range(1, 64));
  run.add_option("--batch-size", c.maxBatchSize, "Largest batch of objects in one review")
      ->default_val(32)
      ->check(CLI::Range(1, 100000));
  declareTimeoutOption(run, f.target, TargetDefaults::Crd);
  run.add_option("--properties", f.properties,
                 "Comma-separated property ids to check (default: all; see `convcheck "
                 "properties`)");
  for (const auto& format : reportFormats())
    run.add_option("--" + format.id, c.reportPaths[format.id], format.help);
  run.add_option(
      "--report-dir", c.reportDir,
      "Write reports (junit.xml, results.json) and reproduction bundles (bundles/) here");
  declareShrinkBudgetOption(run, c.shrinkBudget, 200);
  run.add_option("--corpus", c.corpusDir,
                 "Corpus directory: samples/ are test inputs, regressions/ are replayed first and "
                 "receive this run's shrunk failures");
  run.add_option("--max-response-size", f.maxResponseSize,
                 "Largest webhook answer read, e.g. 64MiB (kube-apiserver has no cap)")
      ->default_val("16MiB");
  run.add_option("--user-agent", c.transport.userAgent, "User-Agent header")
      ->default_val("kube-apiserver-admission");
  run.add_flag("--verbose,-v", c.verbose, "Print progress per version pair");
}

std::string joinArgs(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) {
    bool plain = !a.empty() && a.find_first_of(" \t\"'$`\\|&;<>()*?!{}[]") == std::string::npos;
    std::string quoted = plain ? a : "'" + a + "'";
    if (!plain) {
      std::string escaped;
      for (char ch : a) escaped += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
      quoted = "'" + escaped + "'";
    }
    out += (out.empty() ? "" : " ") + quoted;
  }
  return out;
}

// Fills the parts of RunConfig that need checking beyond CLI11; returns an error or "".
std::string finishRunConfig(RunFlags& f, const std::vector<std::string>& args) {
  RunConfig& c = f.config;
  c.url = f.target.url;
  if (auto error = applyTargetFlags(f.target, c.transport); !error.empty()) return error;
  c.canonicalDateTimes = f.dateTimes == "canonical";
  if (!f.duration.empty()) {
    auto duration = parseDuration(f.duration);
    if (!duration || duration->count() <= 0)
      return fmt::format("--duration {}: expected a duration such as 10m or 90s", f.duration);
    c.duration = *duration;
  }
  if (auto error = readReviewVersion(f.reviewVersion, c.reviewVersion); !error.empty())
    return error;
  if (!f.properties.empty()) {
    std::size_t start = 0;
    while (start <= f.properties.size()) {
      auto end = f.properties.find(',', start);
      if (end == std::string::npos) end = f.properties.size();
      std::string id = f.properties.substr(start, end - start);
      if (!id.empty()) {
        if (!isKnownProperty(id))
          return fmt::format("--properties: unknown property id '{}' (see `convcheck properties`)",
                             id);
        c.properties.push_back(id);
      }
      start = end + 1;
    }
  }
  auto size = parseSize(f.maxResponseSize);
  if (!size || *size == 0)
    return fmt::format("--max-response-size {}: expected e.g. 64MiB", f.maxResponseSize);
  c.transport.maxResponseBytes = *size;
  if (!f.seedGiven) c.seed = std::random_device{}() * 0x100000001ull + std::random_device{}();
  std::vector<std::string> repro = {"convcheck"};
  bool seen = false;
  for (const auto& a : args) {
    repro.push_back(a);
    if (a == "--seed" || a.rfind("--seed=", 0) == 0) seen = true;
  }
  if (!seen) {
    repro.push_back("--seed");
    repro.push_back(std::to_string(c.seed));
  }
  c.commandLine = joinArgs(repro);
  if (c.configPath.empty() && std::filesystem::exists(kDefaultConfigFile))
    c.configPath = kDefaultConfigFile;
  if (!c.configPath.empty()) {
    auto loaded = loadAckConfig(c.configPath);
    if (auto* error = std::get_if<std::string>(&loaded)) return *error;
    c.acks = std::get<AckConfig>(std::move(loaded));
  }
  if (!c.reportDir.empty())
    for (const auto& format : reportFormats())
      if (c.reportPaths[format.id].empty())
        c.reportPaths[format.id] = c.reportDir + "/" + format.fileName;
  return "";
}

// Turns SIGINT/SIGTERM into a stop request for the run while it lives: the signals are blocked
// and a thread waits for them, so no handler touches shared state.
class StopSignalWatcher {
 public:
  explicit StopSignalWatcher(std::atomic<bool>& stop) : stop_(stop) {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
    thread_ = std::thread([this] {
      timespec tick{0, 100 * 1000 * 1000};
      while (!done_.load()) {
        if (sigtimedwait(&signals_, nullptr, &tick) > 0) stop_.store(true);
      }
    });
  }
  ~StopSignalWatcher() {
    done_.store(true);
    thread_.join();
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }

 private:
  std::atomic<bool>& stop_;
  std::atomic<bool> done_{false};
  sigset_t signals_{}, previous_{};
  std::thread thread_;
};

// Stores the reported (shrunk) failure of every failing (kind, from, to, property) in the corpus.
void saveRegressions(const CorpusStore& corpus, const RunReport& report, std::ostream& out,
                     std::ostream& err) {
  int added = 0;
  for (const auto& kind : report.kinds)
    for (const auto& tally : kind.tallies) {
      for (const Finding& f : tally.findings) {
        if (f.caseTo.empty() || f.caseObjects.empty()) continue;
        if (f.origin.rfind("corpus ", 0) == 0) continue;  // already stored
        RegressionCase c{kind.crdName, kind.kind, f.property, f.from,        f.to,
                         f.part,       f.caseTo,  f.seed,     f.caseObjects, f.summary};
        bool created = false;
        std::string saved = corpus.save(c, &created);
        if (saved.rfind("error: ", 0) == 0)
          err << "convcheck: corpus: " << saved.substr(7) << "\n";
        else if (created)
          ++added;
      }
    }
  if (added > 0)
    out << fmt::format("corpus: stored {} new regression case(s) in {}\n", added, corpus.dir());
}

bool useColour() { return std::getenv("NO_COLOR") == nullptr && isatty(STDOUT_FILENO) == 1; }

int runCommand(RunFlags& f, std::istream& in, std::ostream& out, std::ostream& err) {
  RunConfig& c = f.config;
  if (!c.reportDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(c.reportDir, ec);
    if (ec) {
      err << fmt::format("convcheck: cannot create --report-dir {}: {}\n", c.reportDir,
                         ec.message());
      return 2;
    }
  }
  std::ostringstream quiet;
  std::atomic<bool> stop{false};
  c.stopRequested = &stop;
  RunReport report;
  {
    StopSignalWatcher watcher(stop);
    report = runConformance(c, in, c.verbose ? err : quiet);
  }
  report.version = kVersion;
  if (!c.reportDir.empty())
    for (const auto& e : writeBundles(report, c.transport, !c.url.empty(), c.reportDir))
      err << "convcheck: " << e << "\n";
  if (!report.fatalError.empty() && report.kinds.empty())
    err << "convcheck: " << report.fatalError << "\n";
  bool startedTesting = !report.kinds.empty();
  if (startedTesting || report.exitCode != 2) {
    for (const auto& format : reportFormats()) {
      const std::string& path = c.reportPaths[format.id];
      if (path.empty()) continue;
      if (auto e = format.write(report, path); !e.empty()) err << "convcheck: " << e << "\n";
    }
  }
  if (startedTesting) printConsoleReport(report, out, useColour());
  if (startedTesting)
    for (const auto& format : reportFormats())
      if (!c.reportPaths[format.id].empty())
        out << fmt::format("{:<6} {}\n", format.label + ":", c.reportPaths[format.id]);
  if (!c.corpusDir.empty()) saveRegressions(CorpusStore(c.corpusDir), report, out, err);
  return report.exitCode;
}

struct GenerateFlags {
  std::string crd, version, format = "json", kind, dateTimes = "canonical";
  int count = 10;
  std::uint64_t seed = 1;
};

int generateCommand(const GenerateFlags& g, std::istream& in, std::ostream& out,
                    std::ostream& err) {
  LoadResult loaded = loadCrdInput(g.crd, in);
  for (const auto& e : loaded.errors) err << "convcheck: " << e.text() << "\n";
  if (!loaded.errors.empty()) return 2;
  const Crd* crd = nullptr;
  for (const auto& candidate : loaded.crds)
    if (g.kind.empty() || candidate.kind == g.kind || candidate.name == g.kind) {
      if (crd) {
        err << "convcheck: " << g.crd << " holds several CRDs; choose one with --kind\n";
        return 2;
      }
      crd = &candidate;
    }
  if (!crd) {
    err << "convcheck: " << g.crd << ": no CRD" << (g.kind.empty() ? "" : " of kind " + g.kind)
        << "\n";
    return 2;
  }
  GenerateRequest request{g.version, g.count, g.seed, *parseGenerateFormat(g.format),
                          g.dateTimes == "canonical"};
  if (auto error = runGenerate(*crd, request, out, &err)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err) {
  CLI::App app{"convcheck: conformance and fuzz testing of Kubernetes CRD conversion webhooks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", kVersion);

  RunFlags runFlags;
  CLI::App* run = app.add_subcommand(
      "run",
      "Generate objects from the CRD, send ConversionReviews to the webhook, check every property");
  declareRunOptions(*run, runFlags);

  GenerateFlags gen;
  CLI::App* generate = app.add_subcommand("generate", "Print valid objects of one CRD version");
  declareCrdOption(*generate, gen.crd);
  generate->add_option("--version", gen.version, "Version to generate, e.g. v1")->required();
  generate->add_option("-n", gen.count, "Number of objects")
      ->default_val(10)
      ->check(CLI::Range(0, 10000000));
  generate->add_option("--seed", gen.seed, "Random seed")->default_val(1);
  generate->add_option("-o,--output", gen.format, "json (one object per line) or yaml (a stream)")
      ->default_val("json")
      ->check(CLI::IsMember({"json", "yaml"}));
  declareKindOption(*generate, gen.kind);
  declareDateTimesOption(*generate, gen.dateTimes);

  CLI::App* properties = app.add_subcommand(
      "properties", "List the properties: id, what holds, when it is judged, the calls it adds");
  bool markdown = false;
  properties->add_flag("--markdown", markdown, "Print the README's table of properties");
  ReplayFlags replayFlags;
  CLI::App* replay = addReplayCommand(app, replayFlags);
  MinimizeFlags minimizeFlags;
  CLI::App* minimize = addMinimizeCommand(app, minimizeFlags);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << "convcheck " << kVersion << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    // Help for a subcommand surfaces as CallForHelp from that subcommand.
    if (e.get_exit_code() == 0) {
      for (auto* sub : {run, generate, properties, replay, minimize})
        if (sub->parsed()) {
          out << sub->help();
          return 0;
        }
      out << app.help();
      return 0;
    }
    err << "convcheck: " << e.what() << "\n";
    return 2;
  }

  if (properties->parsed()) {
    out << propertyTable(markdown);
    return 0;
  }
  if (generate->parsed()) return generateCommand(gen, in, out, err);
  if (replay->parsed()) return runReplay(replayFlags, out, err);
  if (minimize->parsed()) return runMinimize(minimizeFlags, kVersion, in, out, err);
  std::string error = finishRunConfig(runFlags, args);
  if (!error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }
  return runCommand(runFlags, in, out, err);
}

}  // namespace convcheck
