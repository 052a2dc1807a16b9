#include "engine/upgrade/release_replay.h"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "engine/run/target_kinds.h"
#include "engine/run/target_resolution.h"
#include "engine/upgrade/release_bundles.h"
#include "harness/transport/converter.h"
#include "kube/apiserver/group_version.h"
#include "kube/apiserver/structural_defaults.h"
#include "kube/apiserver/update_validation.h"
#include "kube/crd/crd_loader.h"
#include "properties/checks/json_diff.h"
#include "properties/checks/release_properties.h"

namespace convcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Side {
  std::string release;  // "old" or "new"
  Crd crd;
  ResolvedTarget target;
};

// The release the bundle is replayed against; an error (exit 2) names the file and field.
std::variant<Side, std::string> sideOf(const Bundle& b, const json& file,
                                       const ReleaseReplayChoice& choice) {
  const std::string where = (fs::path(b.dir) / kReleaseBundleFile).string();
  Side side;
  side.release = choice.release.empty() ? file.value("release", std::string()) : choice.release;
  if (side.release != "old" && side.release != "new")
    return fmt::format("{}: release: expected old or new, got \"{}\"", where, side.release);
  const json r = file.value("releases", json::object()).value(side.release, json::object());
  std::istringstream none;
  const std::string crdFile = (fs::path(b.dir) / r.value("crdFile", std::string())).string();
  LoadResult loaded = loadCrdInput(crdFile, none);
  for (auto& crd : loaded.crds)
    if (crd.name == b.crdName) side.crd = std::move(crd);
  if (side.crd.name.empty())
    return fmt::format("{}: releases.{}.crdFile {}: no CRD named {}", where, side.release, crdFile,
                       b.crdName);
  TransportOptions transport;
  if (side.release == file.value("release", std::string()))
    transport = b.target.transport;
  else {
    const std::string ca = r.value("caFile", std::string());
    if (!ca.empty()) transport.tls.caFile = (fs::path(b.dir) / ca).string();
    transport.tls.serverName = r.value("tlsServerName", std::string());
  }
  if (!choice.caFile.empty()) transport.tls.caFile = choice.caFile;
  if (!choice.tlsServerName.empty()) transport.tls.serverName = choice.tlsServerName;
  auto resolved = resolveTarget(
      side.crd,
      TargetChoice{
          choice.url.empty() ? r.value("url", std::string()) : choice.url, transport,
          r.value("reviewVersion", "v1") == "v1beta1" ? ReviewVersion::V1beta1 : ReviewVersion::V1,
          ""});
  if (auto* error = std::get_if<std::string>(&resolved)) return *error;
  side.target = std::get<ResolvedTarget>(std::move(resolved));
  return side;
}

// How the answer compares with the bundle's failure: 0 it passes now, 1 it still fails.
int judge(const Bundle& b, const json& file, const Side& side, const Exchange& ex,
          std::ostream& out) {
  if (!ex.verdict.accepted()) {
    out << "still fails: kube-apiserver rejects the answer: " << ex.verdict.message << "\n";
    return 1;
  }
  const std::size_t index = file.value("objectIndex", std::size_t{0});
  const json got = index < ex.verdict.visible.size() ? ex.verdict.visible[index] : json();
  if (b.property == crdChangeProperty().id) {
    const CrdVersion* v = side.crd.version(b.caseTo);
    const auto errors = v ? updateValidationErrors(got, v->schema) : std::vector<FieldError>{};
    if (errors.empty()) {
      out << fmt::format("passes now: the {} release's schema of {} accepts the object\n",
                         side.release, b.caseTo);
      return 0;
    }
    out << "still fails: kube-apiserver rejects its next update:\n";
    for (const auto& e : errors) out << "  " << e.text << "\n";
    return 1;
  }
  const json expected = file.value("expected", json());
  if (expected.is_null() || expected == got) {
    out << fmt::format("passes now: {} holds for this case\n", b.property);
    return 0;
  }
  out << "still fails: the answer differs from what a client read before\n"
      << renderDiff(jsonDiff(expected, got)) << "\n";
  return 1;
}

}  // namespace

bool isReleaseBundle(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / kReleaseBundleFile, ec);
}

int replayReleaseBundle(const Bundle& b, const ReleaseReplayChoice& choice, std::ostream& out,
                        std::ostream& err) {
  std::ifstream in(fs::path(b.dir) / kReleaseBundleFile);
  json file = json::parse(in, nullptr, false);
  if (!file.is_object()) {
    err << fmt::format("convcheck: {}/{}: not a JSON object\n", b.dir, kReleaseBundleFile);
    return 2;
  }
  auto chosen = sideOf(b, file, choice);
  if (auto* error = std::get_if<std::string>(&chosen)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  const Side& side = std::get<Side>(chosen);
  out << fmt::format("replaying {}: {} {} -> {}, {} object(s), against the {} release at {}\n",
                     b.dir, b.property, b.from, b.to, b.objects.size(), side.release,
                     side.target.url);
  Converter converter(side.crd, openTarget(side.target), side.target.reviewVersion);
  std::mt19937_64 uids(b.seed);
  std::vector<json> objects = b.objects;  // as kube-apiserver sends them: with their defaults
  if (!b.rawObjects)
    for (auto& object : objects)
      if (const CrdVersion* v = side.crd.version(objectVersion(object)))
        applyStructuralDefaults(object, v->schema);
  const Exchange ex = converter.convert(std::move(objects), b.caseTo, uids);
  if (!ex.http.ok() && (ex.http.transportErrorKind == TransportErrorKind::Connect ||
                        ex.http.transportErrorKind == TransportErrorKind::Tls)) {
    err << fmt::format("convcheck: could not reach the {} release's webhook: {}\n", side.release,
                       explainUnreachable(side.target, ex.http.transportError));
    return 3;
  }
  return judge(b, file, side, ex, out);
}

}  // namespace convcheck
