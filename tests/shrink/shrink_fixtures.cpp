#include "tests/shrink/shrink_fixtures.h"

#include <sstream>
#include <stdexcept>

#include "kube/crd/crd_loader.h"

namespace convcheck::testing {

using nlohmann::json;

namespace {
const KindContext& load(const std::string& file) {
  std::istringstream none;
  LoadResult loaded = loadCrdInput(std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/" + file, none);
  if (!loaded.ok() || loaded.crds.empty()) throw std::runtime_error("cannot load " + file);
  auto compiled = KindContext::compile(loaded.crds.front());
  if (auto* e = std::get_if<KindContext::Error>(&compiled)) throw std::runtime_error(e->message);
  static std::vector<std::unique_ptr<KindContext>> keep;
  keep.push_back(std::make_unique<KindContext>(std::get<KindContext>(std::move(compiled))));
  return *keep.back();
}
}  // namespace

const KindContext& cronTab() {
  static const KindContext& k = load("crontabs.stable.example.com.yaml");
  return k;
}

const KindContext& widget() {
  static const KindContext& k = load("widgets.example.convcheck.dev.yaml");
  return k;
}

rc::Shrinkable<json> generatedTree(const KindContext& kind, const std::string& version,
                                   std::uint64_t seed, int size) {
  return kind.generators().at(version).objects()(rc::Random(seed), size);
}

json generated(const KindContext& kind, const std::string& version, std::uint64_t seed) {
  return generatedTree(kind, version, seed).value();
}

CheckResult failing(const std::string& property, const std::vector<json>& batch) {
  Finding f;
  f.property = property;
  f.summary = "fails";
  f.batch = SharedObjects::own(batch);
  return {property, Outcome::Fail, f, ""};
}

CaseRunner PredicateRunner::runner() {
  return [this](const std::vector<json>& batch, const std::string&) {
    seen.push_back(batch);
    CaseResult r;
    Exchange forward;
    forward.sent.objects = SharedObjects::own(batch);
    r.forwardCall = share(std::move(forward));
    r.callCount = 1;
    if (fails(batch))
      r.forward.push_back(failing(property, batch));
    else
      r.forward.push_back({property, Outcome::Pass, std::nullopt, ""});
    return r;
  };
}

}  // namespace convcheck::testing
