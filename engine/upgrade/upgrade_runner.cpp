#include "engine/upgrade/upgrade_runner.h"
#include "harness/plan/seed_salts.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <ostream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/run/crd_source.h"
#include "engine/run/tally.h"
#include "engine/upgrade/migration_step.h"
#include "engine/upgrade/release_reads.h"
#include "engine/upgrade/upgrade_objects.h"
#include "engine/upgrade/upgrade_play.h"

namespace convcheck {
namespace {

struct InputError {
  std::string message;
};

struct KindPair {
  const Crd* oldCrd = nullptr;
  const Crd* newCrd = nullptr;
};

// What one kind's upgrade ended with besides its report.
struct KindOutcome {
  KindReport report;
  KindReleases releases;
  std::string unreachable;  // why a release's webhook could not be reached ("" when it was)
  bool interrupted = false;
};

// The CRDs of `input`; an unreadable input is an InputError naming it. StorageVersionMigrations
// beside a release's CRDs are expected there and not warned about.
std::vector<Crd> loadRelease(const std::string& input, std::istream& in,
                             const ClusterAccess& cluster, RunReport& report) {
  LoadResult loaded = loadCrdSource(input, in, cluster);
  for (const auto& w : loaded.warnings)
    if (!isSkippedStorageMigration(w)) report.warnings.push_back(w);
  std::string errors;
  for (const auto& e : loaded.errors) errors += (errors.empty() ? "" : "\n") + e.text();
  if (!errors.empty()) throw InputError{errors};
  return std::move(loaded.crds);
}

// Each kind of the old release with its CRD in the new one: those named with --kind, else every
// CRD both releases have.
std::vector<KindPair> pairKinds(const std::vector<Crd>& olds, const std::vector<Crd>& news,
                                const UpgradeConfig& config) {
  std::vector<KindPair> pairs;
  for (const auto& o : olds) {
    const bool named = namedKind(o, config.kinds);
    if (!config.kinds.empty() && !named) continue;
    auto n = std::find_if(news.begin(), news.end(), [&](const Crd& c) { return c.name == o.name; });
    if (n == news.end()) {
      if (named)
        throw InputError{
            fmt::format("{}: the new release has no CRD named {}", config.newCrd, o.name)};
      continue;
    }
    pairs.push_back({&o, &*n});
  }
  if (pairs.empty())
    throw InputError{fmt::format("{} and {}: no CRD of the old release {}in the new one",
                                 config.oldCrd, config.newCrd,
                                 config.kinds.empty() ? "" : "named with --kind ")};
  return pairs;
}

KindContext compiled(const Crd& crd, const UpgradeConfig& config) {
  auto c = KindContext::compile(
      crd, KindSettings{GeneratorOptions{FormatOptions{config.canonicalDateTimes}}, false,
                        config.acks ? &*config.acks : nullptr});
  if (auto* error = std::get_if<KindContext::Error>(&c))
    throw InputError{fmt::format("{}, document {}: version {}: {}", crd.source.file,
                                 crd.source.document, error->version, error->message)};
  return std::get<KindContext>(std::move(c));
}

ResolvedTarget resolved(const Crd& crd, const ReleaseTarget& target, const std::string& url,
                        const std::string& serviceProxy) {
  auto r =
      resolveTarget(crd, TargetChoice{url, target.transport, target.reviewVersion, serviceProxy});
  if (auto* error = std::get_if<std::string>(&r)) throw InputError{*error};
  return std::get<ResolvedTarget>(std::move(r));
}

// status.storedVersions before the upgrade, the old storage version included.
std::vector<std::string> storedBefore(const Crd& oldCrd, const UpgradeConfig& config) {
  std::vector<std::string> stored =
      !config.storedVersions.empty() ? config.storedVersions : oldCrd.storedVersions;
  const std::string storage = storageVersionOf(oldCrd);
  if (std::find(stored.begin(), stored.end(), storage) == stored.end()) stored.push_back(storage);
  return stored;
}

std::string rolesIn(const Crd& crd, const std::string& version) {
  const CrdVersion* v = crd.version(version);
  if (v == nullptr) return "absent";
  std::string roles = v->served ? "served" : "not served";
  if (v->storage) roles += ", storage";
  return roles;
}

// The kind's report header: the new CRD (bundles and replay use it) and both releases in notes.
KindReport header(const Release& oldR, const Release& newR, const std::vector<std::string>& stored,
                  const UpgradeConfig& config) {
  KindReport r;
  const Crd& crd = newR.crd();
  r.crdName = crd.name;
  r.kind = crd.kind;
  r.group = crd.group;
  r.source = fmt::format("{}, document {} (old: {}, document {})", crd.source.file,
                         crd.source.document, oldR.crd().source.file, oldR.crd().source.document);
  r.url = newR.target().url;
  r.reviewVersion = reviewVersionName(newR.target().reviewVersion);
  r.storageVersion = newR.storage();
  r.storedVersions = stored;
  if (std::find(stored.begin(), stored.end(), newR.storage()) == stored.end())
    r.storedVersions.push_back(newR.storage());
  r.crd = crd;
  for (const auto& v : crd.versions) {
    r.versions.push_back(v.name);
    if (!v.served) r.notServed.push_back(v.name);
  }
  for (const auto& v : oldR.crd().versions)
    if (!crd.version(v.name)) r.versions.push_back(v.name);
  for (const auto& v : r.versions)
    r.versionRoles[v] = fmt::format("old: {}; new: {}", rolesIn(oldR.crd(), v), rolesIn(crd, v));
  r.notes.push_back(fmt::format(
      "upgrade of {} from the old release (storage {}, status.storedVersions {}) through {} to "
      "the new one (storage {}) through {}",
      crd.name, oldR.storage(), fmt::join(stored, ", "), oldR.target().url, newR.storage(),
      newR.target().url));
  if (config.acks && !config.acks->items.empty())
    r.notes.push_back(
        fmt::format("{} acknowledged difference(s) from {}: listed as acknowledged, not failed",
                    config.acks->items.size(), config.acks->source));
  return r;
}

std::string migrationNote(const Release& oldR, const Release& newR, const UpgradePlan& plan,
                          const UpgradeConfig& config) {
  if (oldR.storage() == newR.storage())
    return fmt::format("the storage version stays {}: nothing to migrate", newR.storage());
  if (!plan.migrationStep)
    return fmt::format(
        "the storage version moves from {} to {}; no migration step found (no "
        "StorageVersionMigration of {}.{} in {}, no --migrated)",
        oldR.storage(), newR.storage(), newR.crd().plural, newR.crd().group, config.newCrd);
  return fmt::format("the storage version moves from {} to {}, migrated by {}", oldR.storage(),
                     newR.storage(),
                     config.migrated ? "the release itself (--migrated)"
                                     : "a StorageVersionMigration in " + config.newCrd);
}

std::uint64_t objectSeed(std::uint64_t seed, std::size_t index) {
  std::uint64_t z = seed + static_cast<std::uint64_t>(SeedSalt::UpgradeObjectStep) * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Plays every object on --jobs threads, each with converters of its own; the results keep the
// objects' order. Stops taking objects when a release turns out unreachable or on a stop request.
std::vector<PlayedObject> playAll(const UpgradePlay& play, Release& oldR, Release& newR,
                                  const std::vector<UpgradeObject>& objects,
                                  const UpgradeConfig& config) {
  std::vector<PlayedObject> played(objects.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> unreachable{false};
  auto worker = [&] {
    std::unique_ptr<Converter> oldCalls = oldR.open(), newCalls = newR.open();
    for (;;) {
      if (unreachable.load() || (config.stopRequested && config.stopRequested->load())) return;
      const std::size_t i = next++;
      if (i >= objects.size()) return;
      PlayedObject p = play.play(objects[i], objectSeed(config.seed, i), *oldCalls, *newCalls);
      for (const ReleaseCalls* c : {&p.oldCalls, &p.newCalls})
        if (c->calls > 0 && c->unreached == c->calls) unreachable = true;
      played[i] = std::move(p);
    }
  };
  std::vector<std::thread> threads;
  const int n = std::max(1, std::min<int>(config.jobs, static_cast<int>(objects.size())));
  for (int t = 0; t < n; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return played;
}

KindOutcome upgradeKind(const UpgradeConfig& config, const KindPair& pair,
                        const ResolvedTarget& oldTarget, const ResolvedTarget& newTarget,
                        std::ostream& log) {
  const KindContext oldKind = compiled(*pair.oldCrd, config);
  const KindContext newKind = compiled(*pair.newCrd, config);
  Release oldR("old", oldKind, oldTarget, config.oldTarget.makeTarget, config.jobs);
  Release newR("new", newKind, newTarget, config.newTarget.makeTarget, config.jobs);
  const UpgradePlan plan{config.migrated || hasStorageMigration(config.newCrd, *pair.newCrd),
                         storedBefore(*pair.oldCrd, config)};
  UpgradeInputs inputs = upgradeObjects(oldKind, plan.storedVersions,
                                        {config.objectsPerVersion, config.clusterObjects,
                                         config.cluster, config.objectFiles, config.seed});
  if (!inputs.errors.empty()) throw InputError{fmt::format("{}", fmt::join(inputs.errors, "\n"))};
  KindOutcome out{header(oldR, newR, plan.storedVersions, config),
                  {*pair.oldCrd, *pair.newCrd, oldTarget, newTarget},
                  "",
                  false};
  out.report.notes.push_back(migrationNote(oldR, newR, plan, config));
  for (auto& n : inputs.notes) out.report.notes.push_back(std::move(n));
  log << fmt::format("{}: {} object(s) through the upgrade\n", pair.newCrd->kind,
                     inputs.objects.size());
  const auto started = std::chrono::steady_clock::now();
  const UpgradePlay play(oldR, newR, plan, config.acks ? &*config.acks : nullptr);
  std::vector<PlayedObject> played = playAll(play, oldR, newR, inputs.objects, config);
  Tally tally({}, ConversionReach());
  ReleaseCalls oldCalls, newCalls;
  for (const auto& p : played) {
    for (const auto& r : p.results) tally.add(r.result, r.from, r.to);
    oldCalls.add(p.oldCalls);
    newCalls.add(p.newCalls);
  }
  tally.fill(out.report);
  out.report.requests = oldCalls.calls + newCalls.calls;
  out.report.objectsSent = out.report.requests;
  out.report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.unreachable = unreachableReason(oldR, oldCalls);
  if (out.unreachable.empty()) out.unreachable = unreachableReason(newR, newCalls);
  out.interrupted = config.stopRequested && config.stopRequested->load();
  return out;
}

}  // namespace

ReleaseRun runUpgrade(const UpgradeConfig& config, std::istream& stdinStream, std::ostream& log) {
  const auto started = std::chrono::steady_clock::now();
  ReleaseRun run{startedReport(config.seed, config.commandLine), {}};
  RunReport& report = run.report;
  report.canonicalDateTimes = config.canonicalDateTimes;
  auto finishWith = [&](int code) {
    report.exitCode = code;
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return std::move(run);
  };
  try {
    const std::vector<Crd> olds = loadRelease(config.oldCrd, stdinStream, config.cluster, report);
    const std::vector<Crd> news = loadRelease(config.newCrd, stdinStream, config.cluster, report);
    std::unique_ptr<KubectlProxy> proxy;
    if (config.oldTarget.serviceProxy) {
      auto startedProxy = startServiceProxy(config.cluster);
      if (auto* error = std::get_if<std::string>(&startedProxy)) throw InputError{*error};
      proxy = std::move(std::get<std::unique_ptr<KubectlProxy>>(startedProxy));
    }
    std::vector<std::string> unreachable;
    for (const KindPair& pair : pairKinds(olds, news, config)) {
      std::unique_ptr<KubectlPortForward> forward;
      if (config.oldTarget.portForward) {
        if (auto error = portForwardUnsupported(*pair.oldCrd); !error.empty())
          throw InputError{error};
        auto startedForward =
            startPortForward(config.cluster, *pair.oldCrd, config.portForwardWait);
        if (auto* error = std::get_if<std::string>(&startedForward)) {
          unreachable.push_back(fmt::format("{}: could not reach the old release's webhook: {}",
                                            pair.oldCrd->name, *error));
          continue;
        }
        forward = std::move(std::get<std::unique_ptr<KubectlPortForward>>(startedForward));
      }
      const ResolvedTarget oldTarget = resolved(*pair.oldCrd, config.oldTarget,
                                                forward ? forward->baseUrl() : config.oldTarget.url,
                                                proxy ? proxy->baseUrl() : "");
      const ResolvedTarget newTarget =
          resolved(*pair.newCrd, config.newTarget, config.newTarget.url, "");
      KindOutcome kind = upgradeKind(config, pair, oldTarget, newTarget, log);
      if (!kind.unreachable.empty()) unreachable.push_back(kind.unreachable);
      report.kinds.push_back(std::move(kind.report));
      run.releases.push_back(std::move(kind.releases));
      if (kind.interrupted) {
        report.interrupted = true;
        break;
      }
    }
    for (const auto& u : unreachable)
      report.fatalError += (report.fatalError.empty() ? "" : "\n") + u;
  } catch (const InputError& e) {
    report.fatalError = e.message;
    return finishWith(2);
  }
  if (report.interrupted) return finishWith(130);
  if (!report.fatalError.empty()) return finishWith(3);
  return finishWith(report.failedProperties() > 0 ? 1 : 0);
}

}  // namespace convcheck
