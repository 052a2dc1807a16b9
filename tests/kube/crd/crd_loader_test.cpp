// The forms of --crd input: files, directories, stdin, JSON, multi-document YAML, Lists,
// kubectl output, other kinds, Helm templates and broken YAML.
#include "kube/crd/crd_loader.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "kube/crd/yaml_json.h"
#include "tests/kube/crd/crd_fixtures.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::describe;
using testing::kV1beta1WebhookCrd;
using testing::kV1WebhookCrd;
using testing::warned;
using testing::with;

// A fresh directory under the system temp directory, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("convcheck-crd-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

LoadResult load(const std::string& text) { return loadCrdText(text, "crds.yaml"); }

TEST(CrdLoader, ReadsAFile) {
  TempDir dir;
  const std::string file = dir.write("widgets.yaml", kV1WebhookCrd);
  std::istringstream stdinStream;
  LoadResult r = loadCrdInput(file, stdinStream);
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 1u);
  EXPECT_EQ(r.crds[0].source.file, file);
  EXPECT_EQ(r.crds[0].source.document, 1);
}

TEST(CrdLoader, DashReadsStdin) {
  std::istringstream stdinStream(kV1WebhookCrd);
  LoadResult r = loadCrdInput("-", stdinStream);
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 1u);
  EXPECT_EQ(r.crds[0].source.file, "<stdin>");
}

TEST(CrdLoader, DirectoryReadsYamlYmlAndJsonFilesInNameOrder) {
  TempDir dir;
  const Crd v1beta1 = testing::loadOne(kV1beta1WebhookCrd);
  dir.write("b.yml", kV1beta1WebhookCrd);
  dir.write("a.yaml", kV1WebhookCrd);
  // c.json: the first CRD as JSON, renamed.
  std::string renamed = with(with(with(kV1WebhookCrd, "widgets.example.com", "things.example.com"),
                                  "plural: widgets", "plural: things"),
                             "kind: Widget", "kind: Thing");
  YamlStream s = parseYamlStream(renamed);
  dir.write("c.json", s.documents.at(0).value.dump(2));
  dir.write("notes.txt", "not a CRD");
  fs::create_directories(fs::path(dir.path()) / "sub.yaml");  // directories are not read
  std::istringstream stdinStream;
  LoadResult r = loadCrdInput(dir.path(), stdinStream);
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 3u);
  EXPECT_EQ(r.crds[0].kind, "Widget");
  EXPECT_EQ(r.crds[1].kind, "Gadget");
  EXPECT_EQ(r.crds[2].kind, "Thing");
  EXPECT_EQ(fs::path(r.crds[2].source.file).filename(), "c.json");
  EXPECT_EQ(r.crds[1].conversionReviewVersions, v1beta1.conversionReviewVersions);
}

TEST(CrdLoader, DirectoryWithoutManifestsIsAnError) {
  TempDir dir;
  dir.write("README.md", "hello");
  std::istringstream stdinStream;
  LoadResult r = loadCrdInput(dir.path(), stdinStream);
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_NE(r.errors[0].message.find("no *.yaml, *.yml or *.json file"), std::string::npos);
}

TEST(CrdLoader, MissingFileIsAnErrorNamingIt) {
  std::istringstream stdinStream;
  LoadResult r = loadCrdInput("/nonexistent/crds.yaml", stdinStream);
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_EQ(r.errors[0].text(), "/nonexistent/crds.yaml: cannot read: No such file or directory");
}

TEST(CrdLoader, ReadsJson) {
  YamlStream s = parseYamlStream(kV1WebhookCrd);
  LoadResult r = loadCrdText(s.documents.at(0).value.dump(), "crd.json");
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 1u);
  EXPECT_EQ(r.crds[0].versions.size(), 2u);
}

TEST(CrdLoader, JsonNumbersAreNormalisedLikeYamlOnes) {
  YamlStream s = parseYamlStream(kV1WebhookCrd);
  json object = s.documents.at(0).value;
  object["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["maximum"] =
      10.0;
  LoadResult r = loadCrdText(object.dump(), "crd.json");
  ASSERT_TRUE(r.ok()) << describe(r);
  const json& max = r.crds.at(0).versions[0].schema["properties"]["spec"]["maximum"];
  EXPECT_TRUE(max.is_number_integer());
}

TEST(CrdLoader, DeeplyNestedJsonIsRefused) {
  LoadResult r = load(std::string(100000, '[') + std::string(100000, ']'));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].message.find("nesting deeper than"), std::string::npos) << describe(r);
}

TEST(CrdLoader, EveryDocumentOfAMultiDocumentFileIsRead) {
  LoadResult r = load("---\n" + kV1WebhookCrd + "---\n---\n" + kV1beta1WebhookCrd);
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 2u);
  EXPECT_EQ(r.crds[0].source.document, 1);
  EXPECT_EQ(r.crds[1].source.document, 3);  // the empty document in between is counted
  EXPECT_TRUE(r.warnings.empty()) << describe(r);
}

TEST(CrdLoader, OtherKindsAreSkippedWithAWarningNamingThem) {
  const std::string deployment =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: webhook\n";
  LoadResult r = load(deployment + "---\n" + kV1WebhookCrd);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.crds.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0],
            "crds.yaml, document 1: skipped: apps/v1 Deployment \"webhook\" is not a "
            "CustomResourceDefinition");
}

TEST(CrdLoader, ScalarDocumentIsSkippedWithAWarning) {
  LoadResult r = load("just some text\n---\n" + kV1WebhookCrd);
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(warned(r, "document 1: skipped: a string is not a Kubernetes object")) << describe(r);
}

TEST(CrdLoader, ListItemsAreUnpacked) {
  YamlStream a = parseYamlStream(kV1WebhookCrd);
  YamlStream b = parseYamlStream(kV1beta1WebhookCrd);
  json list = {{"apiVersion", "v1"},
               {"kind", "List"},
               {"items", {a.documents.at(0).value, b.documents.at(0).value}},
               {"metadata", {{"resourceVersion", ""}}}};
  LoadResult r = load(list.dump());
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 2u);
  EXPECT_EQ(r.crds[0].kind, "Widget");
  EXPECT_EQ(r.crds[1].kind, "Gadget");
}

TEST(CrdLoader, ErrorsInListItemsNameTheItem) {
  YamlStream a = parseYamlStream(kV1WebhookCrd);
  json broken = a.documents.at(0).value;
  broken["spec"].erase("group");
  json list = {{"apiVersion", "apiextensions.k8s.io/v1"},
               {"kind", "CustomResourceDefinitionList"},
               {"items", {a.documents.at(0).value, broken}}};
  LoadResult r = load(list.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(testing::errorAt(r, "items[1].spec.group"), nullptr) << describe(r);
  EXPECT_EQ(r.crds.size(), 1u);
}

TEST(CrdLoader, KubectlGetOutputWithStatusAndManagedFieldsLoads) {
  const std::string text = R"(apiVersion: v1
items:
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata:
    creationTimestamp: "2024-05-01T10:00:00Z"
    generation: 3
    managedFields:
    - apiVersion: apiextensions.k8s.io/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:spec:
          f:conversion:
            .: {}
            f:strategy: {}
      manager: kubectl-client-side-apply
      operation: Update
      time: "2024-05-01T10:00:00Z"
    name: widgets.example.com
    resourceVersion: "12345"
    uid: 0b6b3c6e-52a8-4a4f-9d7c-0c0d3f5a1e11
  spec:
    conversion:
      strategy: Webhook
      webhook:
        clientConfig:
          caBundle: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
          service:
            name: widget-webhook
            namespace: widgets
            path: /convert
            port: 443
        conversionReviewVersions:
        - v1
    group: example.com
    names:
      kind: Widget
      listKind: WidgetList
      plural: widgets
      singular: widget
    scope: Namespaced
    versions:
    - name: v1
      schema:
        openAPIV3Schema:
          type: object
      served: true
      storage: true
    - name: v2
      schema:
        openAPIV3Schema:
          type: object
      served: true
      storage: false
  status:
    acceptedNames:
      kind: Widget
      listKind: WidgetList
      plural: widgets
      singular: widget
    conditions:
    - lastTransitionTime: "2024-05-01T10:00:00Z"
      message: no conflicts found
      reason: NoConflicts
      status: "True"
      type: NamesAccepted
    storedVersions:
    - v1
kind: List
metadata:
  resourceVersion: ""
)";
  LoadResult r = load(text);
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 1u);
  const Crd& crd = r.crds[0];
  EXPECT_EQ(crd.storedVersions, (std::vector<std::string>{"v1"}));
  EXPECT_EQ(crd.versions.size(), 2u);
  EXPECT_EQ(crd.clientConfig.service->name, "widget-webhook");
  EXPECT_NE(crd.clientConfig.caBundlePem.find("BEGIN CERTIFICATE"), std::string::npos);
  EXPECT_TRUE(r.warnings.empty()) << describe(r);
}

TEST(CrdLoader, EmptyInputIsAnError) {
  LoadResult r = load("\n# nothing here\n---\n");
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_EQ(r.errors[0].text(), "crds.yaml: no CustomResourceDefinition found in the input");
}

TEST(CrdLoader, InputWithoutCrdsIsAnError) {
  LoadResult r = load("apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n");
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_NE(r.errors[0].message.find("no CustomResourceDefinition found"), std::string::npos);
  EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(CrdLoader, ErrorTextNamesFileDocumentAndField) {
  LoadResult r = load(kV1beta1WebhookCrd + "---\n" +
                      with(kV1WebhookCrd, "  - name: v1alpha1\n", "  - name: v1\n"));
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_EQ(r.errors[0].text(),
            "crds.yaml, document 2, spec.versions[1].name: Duplicate value: \"v1\": "
            "spec.versions must contain unique version names");
  EXPECT_EQ(r.crds.size(), 1u);  // the valid first document is still returned
}

TEST(CrdLoader, YamlSyntaxErrorGivesLineAndColumn) {
  LoadResult r = load(with(kV1WebhookCrd, "    kind: Widget\n", "    kind: [Widget\n"));
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_GT(r.errors[0].line, 0);
  EXPECT_GT(r.errors[0].column, 0);
  EXPECT_NE(r.errors[0].text().find("crds.yaml, document 1, line "), std::string::npos)
      << r.errors[0].text();
  EXPECT_NE(r.errors[0].message.find("YAML syntax error"), std::string::npos);
}

TEST(CrdLoader, YamlConversionErrorNamesThePath) {
  LoadResult r = load(with(kV1WebhookCrd, "              size: {type: integer}\n",
                           "              size: {type: integer, maximum: .inf}\n"));
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_EQ(r.errors[0].field,
            "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.maximum");
  EXPECT_EQ(r.errors[0].line, 22);
}

TEST(CrdLoader, HelmControlLinesGiveAnErrorSayingToRunHelmTemplate) {
  LoadResult r = load("{{- if .Values.crds.enabled }}\n" + kV1WebhookCrd + "{{- end }}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].message.find("render the chart with `helm template` first"),
            std::string::npos)
      << describe(r);
  EXPECT_TRUE(r.crds.empty());
}

TEST(CrdLoader, HelmValueExpressionGivesAnErrorSayingToRunHelmTemplate) {
  LoadResult r = load(with(kV1WebhookCrd, "  name: widgets.example.com\n",
                           "  name: widgets.example.com\n  labels:\n"
                           "    chart: {{ .Chart.Name }}\n"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].message.find("helm template"), std::string::npos) << describe(r);
  EXPECT_EQ(r.errors[0].field, "metadata.labels.chart");
}

TEST(CrdLoader, HelmIncludeInAnIndentedBlockGivesTheHelmError) {
  LoadResult r = load(with(kV1WebhookCrd, "  name: widgets.example.com\n",
                           "  name: widgets.example.com\n  labels:\n"
                           "    {{- include \"chart.labels\" . | nindent 4 }}\n"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].message.find("helm template"), std::string::npos) << describe(r);
}

TEST(CrdLoader, QuotedHelmStringsInMetadataOnlyWarn) {
  LoadResult r = load(with(kV1WebhookCrd, "  name: widgets.example.com\n",
                           "  name: widgets.example.com\n  labels:\n"
                           "    chart: '{{ .Chart.Name }}'\n"));
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(warned(r, "metadata.labels[chart]: unrendered Helm template expression"))
      << describe(r);
}

TEST(CrdLoader, TemplateLikeTextInDescriptionsIsFine) {
  LoadResult r = load(with(kV1WebhookCrd, "              size: {type: integer}\n",
                           "              size:\n                type: integer\n"
                           "                description: defaults to `{{ .cluster.name }}-x`\n"));
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(r.warnings.empty()) << describe(r);
}

TEST(CrdLoader, SameCrdTwiceWarns) {
  LoadResult r = load(kV1WebhookCrd + "---\n" + kV1WebhookCrd);
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.crds.size(), 2u);
  EXPECT_TRUE(warned(r, "was already read from crds.yaml, document 1")) << describe(r);
}

TEST(CrdLoader, DuplicateYamlKeysWarnWithTheirLine) {
  LoadResult r =
      load(with(kV1WebhookCrd, "  scope: Namespaced\n", "  scope: Cluster\n  scope: Namespaced\n"));
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(r.crds.at(0).namespaced);
  EXPECT_TRUE(warned(r, "line 11, column 3, spec.scope: duplicate key \"scope\"")) << describe(r);
}

// Random damage to a real-looking manifest must never crash, hang or throw: every outcome is a
// LoadResult. Deterministic (fixed seed) so that a failure reproduces.
TEST(CrdLoader, DamagedInputNeverCrashesOrThrows) {
  const std::string base = kV1WebhookCrd + "---\n" + kV1beta1WebhookCrd +
                           "---\nx: &a {k: [1, 2, *a]}\ny: &b {<<: {q: 1}}\n";
  const std::string alphabet = "[]{}:-&*!|>'\"#,?<=~\n \t%@`\\\x80\xff";
  std::mt19937 rng(12345);
  int loaded = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t pos = rng() % text.size();
      switch (rng() % 5) {
        case 0:
          text[pos] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        case 2:
          text.erase(pos, 1 + rng() % 8);
          break;
        case 3:
          text.resize(pos);
          break;
        default:
          text.insert(pos, text.substr(rng() % text.size(), 1 + rng() % 40));
          break;
      }
    }
    LoadResult r;
    EXPECT_NO_THROW(r = loadCrdText(text, "damaged.yaml")) << text;
    loaded += static_cast<int>(r.crds.size());
    for (const auto& e : r.errors) EXPECT_FALSE(e.message.empty());
  }
  EXPECT_GT(loaded, 0);  // some damage leaves CRDs intact: the loop did exercise loading
}

}  // namespace
}  // namespace convcheck
