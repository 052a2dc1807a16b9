#include "engine/run/kind_context.h"

#include <fmt/format.h>

#include "kube/crd/version_roles.h"

namespace convcheck {

using nlohmann::json;

std::variant<KindContext, KindContext::Error> KindContext::compile(const Crd& crd,
                                                                   KindSettings settings) {
  KindContext ctx;
  ctx.crd_ = crd;
  ctx.settings_ = settings;
  const auto warnings = warningOnlyVersions(crd);
  for (const auto& v : crd.versions) {
    if (v.schema.is_null()) {
      ctx.notes_.push_back(fmt::format("version {} has no schema and is not tested", v.name));
      continue;
    }
    auto gen = ObjectGenerator::compile(crd, v.name, settings.generation);
    if (auto* error = std::get_if<std::string>(&gen)) return Error{v.name, *error};
    auto& compiled = std::get<ObjectGenerator>(gen);
    auto checker = ValidityChecker::compile(crd, v.name, compiled.schema());
    if (auto* error = std::get_if<std::string>(&checker)) return Error{v.name, *error};
    for (const auto& note : compiled.notes())
      ctx.notes_.push_back(fmt::format("version {}: {}", v.name, note));
    ctx.generators_.emplace(v.name, std::move(compiled));
    ctx.checkers_.emplace(v.name, std::move(std::get<ValidityChecker>(checker)));
    ctx.versions_.push_back(v.name);
    if (!warnings.count(v.name)) ctx.vias_.push_back(v.name);
  }
  return ctx;
}

bool KindContext::hasVersion(const std::string& version) const {
  return generators_.count(version) > 0;
}

ShrinkSchemas KindContext::schemas() const {
  ShrinkSchemas s;
  for (const auto& [version, checker] : checkers_) s.checkers[version] = &checker;
  for (const auto& [version, gen] : generators_) s.roots[version] = gen.schema().root;
  return s;
}

std::vector<std::string> KindContext::violations(const json& object,
                                                 const std::string& version) const {
  std::vector<std::string> out;
  auto it = checkers_.find(version);
  if (it == checkers_.end()) return out;
  for (const auto& v : it->second.check(object))
    out.push_back((v.path.empty() ? std::string("(root)") : v.path) + ": " + v.message);
  return out;
}

std::optional<json> KindContext::editedCopy(const json& object, const std::string& version,
                                            std::uint64_t seed) const {
  auto it = generators_.find(version);
  if (it == generators_.end()) return std::nullopt;
  return editedCopyOf(it->second, object, seed);
}

CaseSettings KindContext::caseSettings() const {
  CaseSettings s;
  s.versions = vias_;
  s.rawObjects = settings_.rawObjects;
  s.acks = settings_.acks;
  s.validate = [this](const json& object, const std::string& version) {
    return violations(object, version);
  };
  s.edit = [this](const json& object, const std::string& version, std::uint64_t seed) {
    return editedCopy(object, version, seed);
  };
  return s;
}

}  // namespace convcheck
