#include "shrink/kind_context.h"

#include <fmt/format.h>

namespace convcheck {

using nlohmann::json;

std::variant<KindContext, std::string> KindContext::compile(const Crd& crd,
                                                            GeneratorOptions options) {
  KindContext ctx;
  ctx.crd_ = crd;
  for (const auto& v : crd.versions) {
    if (v.schema.is_null()) continue;
    auto gen = ObjectGenerator::compile(crd, v.name, options);
    if (auto* error = std::get_if<std::string>(&gen)) return *error;
    auto checker = ValidityChecker::compile(crd, v.name);
    if (auto* error = std::get_if<std::string>(&checker))
      return fmt::format("{} version {}: {}", crd.name, v.name, *error);
    ctx.generators_.emplace(v.name, std::move(std::get<ObjectGenerator>(gen)));
    ctx.checkers_.emplace(v.name, std::move(std::get<ValidityChecker>(checker)));
    ctx.versions_.push_back(v.name);
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

void KindContext::configure(CaseExecutor& executor) const {
  executor.setVersions(versions_);
  executor.setRawObjects(raw_);
  executor.setValidator([this](const json& object, const std::string& version) {
    return violations(object, version);
  });
  executor.setEditor([this](const json& object, const std::string& version, std::uint64_t seed) {
    return editedCopy(object, version, seed);
  });
}

}  // namespace convcheck
