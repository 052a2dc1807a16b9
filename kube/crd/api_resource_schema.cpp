#include "kube/crd/api_resource_schema.h"

namespace convcheck {

using nlohmann::json;

bool isApiResourceSchema(const json& object) {
  return object.is_object() && object.value("kind", json()) == "APIResourceSchema" &&
         object.value("apiVersion", json()) == "apis.kcp.io/v1alpha1";
}

json crdOfApiResourceSchema(const json& object) {
  json crd = {{"apiVersion", "apiextensions.k8s.io/v1"},
              {"kind", "CustomResourceDefinition"},
              {"metadata", json::object()}};
  const json spec = object.value("spec", json());
  if (!spec.is_object()) return crd;
  json out = spec;
  out.erase("nameValidation");
  const json names = spec.value("names", json());
  if (names.is_object() && names.value("plural", json()).is_string() &&
      spec.value("group", json()).is_string())
    crd["metadata"]["name"] =
        names["plural"].get<std::string>() + "." + spec["group"].get<std::string>();
  if (out.contains("versions") && out["versions"].is_array())
    for (auto& v : out["versions"])
      if (v.is_object() && v.contains("schema")) {
        json schema = std::move(v["schema"]);
        v["schema"] = {{"openAPIV3Schema", std::move(schema)}};
      }
  crd["spec"] = std::move(out);
  return crd;
}

std::string apiResourceSchemaField(const std::string& crdField) {
  static const std::string kNested = ".schema.openAPIV3Schema";
  const auto at = crdField.find(kNested);
  if (at == std::string::npos) return crdField;
  return crdField.substr(0, at) + ".schema" + crdField.substr(at + kNested.size());
}

}  // namespace convcheck
