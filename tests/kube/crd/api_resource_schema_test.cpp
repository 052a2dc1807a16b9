// kcp's APIResourceSchema read as the CRD kcp binds from it: named <plural>.<group>, each
// version's schema as its openAPIV3Schema, and its errors naming the schema's own fields.
#include <gtest/gtest.h>

#include "kube/crd/crd_loader.h"

namespace convcheck {
namespace {

constexpr char kSchema[] = R"yaml(apiVersion: apis.kcp.io/v1alpha1
kind: APIResourceSchema
metadata:
  name: rev0002.widgets.example.io
spec:
  group: example.io
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Cluster
  conversion: {strategy: None}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      type: object
      properties:
        spec: {type: object, properties: {firstName: {type: string}}}
  - name: v2
    served: true
    storage: false
    schema: VERSION_2_SCHEMA
)yaml";

std::string withV2Schema(const std::string& schema) {
  std::string text = kSchema;
  text.replace(text.find("VERSION_2_SCHEMA"), 16, schema);
  return text;
}

TEST(ApiResourceSchema, IsReadAsTheCrdKcpBindsFromIt) {
  LoadResult r = loadCrdText(withV2Schema("{type: object, properties: {spec: {type: object}}}"),
                             "widgets.yaml");
  ASSERT_TRUE(r.ok()) << r.errors[0].text();
  ASSERT_EQ(r.crds.size(), 1u);
  const Crd& crd = r.crds[0];
  EXPECT_EQ(crd.name, "widgets.example.io");
  EXPECT_EQ(crd.kind, "Widget");
  ASSERT_NE(crd.version("v1"), nullptr);
  EXPECT_EQ(crd.version("v1")->schema["properties"]["spec"]["properties"]["firstName"]["type"],
            "string");
  EXPECT_TRUE(crd.version("v1")->storage);
  EXPECT_TRUE(r.warnings.empty());  // not "skipped: ... is not a CustomResourceDefinition"
}

TEST(ApiResourceSchema, ErrorsNameTheSchemasOwnFields) {
  std::string text = kSchema;
  text.erase(text.find("    schema: VERSION_2_SCHEMA\n"));
  LoadResult r = loadCrdText(text, "widgets.yaml");
  ASSERT_FALSE(r.ok());
  // A CRD's error would name spec.versions[1].schema.openAPIV3Schema.
  EXPECT_EQ(r.errors[0].text(),
            "widgets.yaml, document 1, spec.versions[1].schema: Required value: schemas are "
            "required");
}

}  // namespace
}  // namespace convcheck
