#include "engine/run/crd_selection.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kube/crd/crd_kinds.h"

namespace convcheck {

namespace {

bool isNamed(const Crd& crd, const std::string& name) {
  return crd.kind == name || crd.name == name;
}

bool convertsByWebhook(const Crd* crd) { return crd->conversionStrategy == "Webhook"; }

}  // namespace

std::vector<const Crd*> selectCrds(const std::vector<Crd>& crds,
                                   const std::vector<std::string>& named, bool urlGiven) {
  std::vector<const Crd*> out;
  for (const auto& crd : crds) {
    const bool isOneNamed = std::any_of(named.begin(), named.end(),
                                        [&](const std::string& n) { return isNamed(crd, n); });
    if (named.empty() ? convertsByWebhook(&crd) : isOneNamed) out.push_back(&crd);
  }
  if (out.empty() && named.empty() && urlGiven)
    for (const auto& crd : crds)
      if (crd.versions.size() >= 2) out.push_back(&crd);
  return out;
}

std::string noCrdSelected(const std::string& input, const std::vector<Crd>& crds,
                          const std::vector<std::string>& named, bool urlGiven) {
  if (!named.empty())
    return fmt::format("{}: no CRD matches --kind {}; the kinds there are: {}", input,
                       fmt::join(named, ","), describeKinds(crds));
  if (!urlGiven)
    return fmt::format(
        "{}: no CRD with spec.conversion.strategy Webhook; pass the webhook's --url to test a CRD "
        "that does not declare webhook conversion yet, or name CRDs with --kind",
        input);
  return fmt::format("{}: no CRD with two or more versions: there is nothing to convert", input);
}

std::variant<const Crd*, std::string> chooseCrd(const std::vector<Crd>& crds,
                                                const std::string& named,
                                                const std::string& input) {
  std::vector<const Crd*> matching;
  for (const auto& crd : crds)
    if (named.empty() || isNamed(crd, named)) matching.push_back(&crd);
  if (matching.empty())
    return named.empty() ? fmt::format("{}: no CRD", input)
                         : fmt::format("{}: no CRD matches --kind {}; the kinds there are: {}",
                                       input, named, describeKinds(crds));
  if (matching.size() > 1 && named.empty()) {
    std::erase_if(matching, [](const Crd* crd) { return !convertsByWebhook(crd); });
    if (matching.size() != 1)
      return fmt::format("{} holds several CRDs; choose one with --kind", input);
  }
  if (matching.size() > 1)
    return fmt::format("{} holds several CRDs of kind {}; choose one with --kind and its CRD name",
                       input, named);
  return matching.front();
}

}  // namespace convcheck
