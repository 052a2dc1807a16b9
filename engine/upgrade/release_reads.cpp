#include "engine/upgrade/release_reads.h"

#include "kube/apiserver/group_version.h"
#include "kube/apiserver/structural_defaults.h"
#include "properties/checks/stored_form.h"

namespace convcheck {

using nlohmann::json;

json decodedAs(const Crd& crd, const json& object) {
  const CrdVersion* v = crd.version(objectVersion(object));
  if (v == nullptr) return object;
  json decoded = storedForm(object, v->schema);
  applyStructuralDefaults(decoded, v->schema);
  return decoded;
}

std::string storageVersionOf(const Crd& crd) {
  for (const auto& v : crd.versions)
    if (v.storage) return v.name;
  return "";
}

ReleaseRead readAt(const Crd& crd, Converter& converter, const json& stored,
                   const std::string& version, std::mt19937_64& uids) {
  json decoded = decodedAs(crd, stored);
  if (objectVersion(decoded) == version) return {std::move(decoded), nullptr};
  ExchangeRef call = share(converter.convert(std::vector<json>{std::move(decoded)}, version, uids));
  if (!call->verdict.accepted() || call->verdict.visible.empty()) return {nullptr, call};
  return {call->verdict.visible.front(), call};
}

}  // namespace convcheck
