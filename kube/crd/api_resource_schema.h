// kcp's APIResourceSchema (apis.kcp.io/v1alpha1), the CRD of an API kcp exports, read as the
// CustomResourceDefinition kcp binds from it: the same group, names, scope and versions, each
// version's `schema` as its openAPIV3Schema. Used by crd_loader, so that --crd takes either.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace convcheck {

bool isApiResourceSchema(const nlohmann::json& object);

// The apiextensions.k8s.io/v1 CustomResourceDefinition `object` (an APIResourceSchema) stands
// for, named <plural>.<group> as a CRD must be; fields it does not hold are left out, so the CRD
// checks report them as missing.
nlohmann::json crdOfApiResourceSchema(const nlohmann::json& object);

// A CRD field path ("spec.versions[1].schema.openAPIV3Schema.type") as the APIResourceSchema
// writes it ("spec.versions[1].schema.type").
std::string apiResourceSchemaField(const std::string& crdField);

}  // namespace convcheck
