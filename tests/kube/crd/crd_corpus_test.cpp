// Every real-world CRD in the shared corpus loads, and matches the facts recorded in STATS.md.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "kube/crd/crd_loader.h"
#include "tests/kube/crd/crd_fixtures.h"

#ifndef CONVCHECK_CRD_CORPUS_DIR
#error "CONVCHECK_CRD_CORPUS_DIR must point at corpora/crds"
#endif

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::describe;

const fs::path kCorpus = CONVCHECK_CRD_CORPUS_DIR;

// Corpus files relative to kCorpus ("argo-cd/applications.argoproj.io.yaml"), sorted.
std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(kCorpus))
    if (entry.is_regular_file() && entry.path().extension() == ".yaml")
      files.push_back(fs::relative(entry.path(), kCorpus).generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

Crd loadCorpusCrd(const std::string& relative) {
  std::istringstream none;
  LoadResult r = loadCrdInput((kCorpus / relative).string(), none);
  EXPECT_TRUE(r.ok()) << relative << "\n" << describe(r);
  EXPECT_EQ(r.crds.size(), 1u) << relative;
  return r.crds.empty() ? Crd{} : r.crds.front();
}

// One row of STATS.md's per-CRD table.
struct StatsRow {
  std::string apiext, kind, scope, conversion;
  std::vector<std::string> versions;  // names in order
  std::vector<std::string> markers;   // the raw tokens, e.g. "v1alpha3(ns)(dep)", "v1*"
  std::string storage;
  std::vector<std::string> served;
  std::vector<int> nodes, depth;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(' ');
  const auto b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::map<std::string, StatsRow> readStats() {
  std::map<std::string, StatsRow> rows;
  std::ifstream in(kCorpus / "STATS.md");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    for (const auto& cell : split(line.substr(1), '|')) cells.push_back(trim(cell));
    if (cells.size() != 15 || cells[0].size() < 5 ||
        cells[0].compare(cells[0].size() - 5, 5, ".yaml") != 0)
      continue;
    StatsRow row;
    row.apiext = cells[1];
    row.kind = cells[2];
    row.scope = cells[3];
    row.markers = split(cells[5], ' ');
    for (const auto& token : row.markers)
      row.versions.push_back(token.substr(0, token.find_first_of("*(")));
    row.storage = cells[6];
    row.served = split(cells[7], ',');
    row.conversion = cells[8];
    for (const auto& n : split(cells[9], '/')) row.nodes.push_back(std::stoi(n));
    for (const auto& d : split(cells[10], '/')) row.depth.push_back(std::stoi(d));
    EXPECT_EQ(std::stoul(cells[4]), row.versions.size()) << cells[0];
    rows[cells[0]] = row;
  }
  return rows;
}

// STATS.md's schema-node count and depth: JSONSchemaProps objects reached through properties,
// patternProperties, additionalProperties, items, allOf/anyOf/oneOf and not.
void schemaShape(const json& node, int level, int& nodes, int& depth) {
  if (!node.is_object()) return;
  ++nodes;
  depth = std::max(depth, level);
  for (const char* key : {"properties", "patternProperties"})
    if (auto it = node.find(key); it != node.end() && it->is_object())
      for (const auto& child : *it) schemaShape(child, level + 1, nodes, depth);
  for (const char* key : {"additionalProperties", "items", "not"})
    if (auto it = node.find(key); it != node.end()) {
      if (it->is_array()) {
        for (const auto& child : *it) schemaShape(child, level + 1, nodes, depth);
      } else {
        schemaShape(*it, level + 1, nodes, depth);
      }
    }
  for (const char* key : {"allOf", "anyOf", "oneOf"})
    if (auto it = node.find(key); it != node.end() && it->is_array())
      for (const auto& child : *it) schemaShape(child, level + 1, nodes, depth);
}

bool containsValue(const json& node, const json& wanted) {
  if (node == wanted) return true;
  if (node.is_structured())
    for (const auto& child : node)
      if (containsValue(child, wanted)) return true;
  return false;
}

TEST(CrdCorpus, EveryFileLoadsWithoutErrorsAndMeetsTheModelInvariants) {
  const auto files = corpusFiles();
  ASSERT_EQ(files.size(), 59u);
  std::istringstream none;
  const auto start = std::chrono::steady_clock::now();
  std::vector<LoadResult> results;
  for (const auto& file : files) results.push_back(loadCrdInput((kCorpus / file).string(), none));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ corpus   ] loaded " << files.size() << " CRD files in " << seconds << " s\n";
  ::testing::Test::RecordProperty("corpus_load_seconds", std::to_string(seconds));

  for (std::size_t i = 0; i < files.size(); ++i) {
    const LoadResult& r = results[i];
    SCOPED_TRACE(files[i]);
    ASSERT_TRUE(r.ok()) << describe(r);
    ASSERT_EQ(r.crds.size(), 1u);
    const Crd& crd = r.crds[0];
    // Files are stored as <project>/<metadata.name>.yaml.
    EXPECT_EQ(fs::path(files[i]).filename().string(), crd.name + ".yaml");
    EXPECT_EQ(crd.name, crd.plural + "." + crd.group);
    EXPECT_FALSE(crd.kind.empty());
    EXPECT_EQ(crd.listKind, crd.kind + "List");
    EXPECT_EQ(crd.source.document, 1);
    ASSERT_FALSE(crd.versions.empty());
    int storage = 0;
    for (const auto& v : crd.versions) {
      EXPECT_TRUE(v.schema.is_object()) << v.name;
      storage += v.storage ? 1 : 0;
    }
    EXPECT_EQ(storage, 1);
    EXPECT_TRUE(crd.conversionStrategy == "None" || crd.conversionStrategy == "Webhook");
    if (crd.conversionStrategy == "Webhook") {
      EXPECT_FALSE(crd.preserveUnknownFields);
      EXPECT_FALSE(crd.conversionReviewVersions.empty());
      EXPECT_NE(crd.clientConfig.url.empty(), !crd.clientConfig.service.has_value());
    }
  }
}

TEST(CrdCorpus, EveryFileMatchesItsRowInStatsMd) {
  const auto stats = readStats();
  ASSERT_EQ(stats.size(), 59u);
  for (const auto& [file, row] : stats) {
    SCOPED_TRACE(file);
    const Crd crd = loadCorpusCrd(file);
    EXPECT_EQ(crd.kind, row.kind);
    EXPECT_EQ(crd.namespaced, row.scope == "Namespaced");
    EXPECT_EQ(crd.conversionStrategy, row.conversion == "Webhook" ? "Webhook" : "None");
    ASSERT_EQ(crd.versions.size(), row.versions.size());
    std::vector<std::string> served;
    for (std::size_t i = 0; i < crd.versions.size(); ++i) {
      const CrdVersion& v = crd.versions[i];
      EXPECT_EQ(v.name, row.versions[i]);
      EXPECT_EQ(v.storage, v.name == row.storage) << v.name;
      EXPECT_EQ(v.deprecated, row.markers[i].find("(dep)") != std::string::npos) << v.name;
      if (v.served) served.push_back(v.name);
      int nodes = 0, depth = 0;
      schemaShape(v.schema, 1, nodes, depth);
      EXPECT_EQ(nodes, row.nodes.at(i)) << v.name;
      EXPECT_EQ(depth, row.depth.at(i)) << v.name;
    }
    EXPECT_EQ(served, row.served);
  }
}

TEST(CrdCorpus, V1beta1CertManagerCertificateIsNormalised) {
  const Crd crd =
      loadCorpusCrd("cert-manager-v1.0.0-apiextensions-v1beta1/certificates.cert-manager.io.yaml");
  EXPECT_EQ(crd.kind, "Certificate");
  ASSERT_EQ(crd.versions.size(), 4u);
  const std::vector<std::string> names = {"v1alpha2", "v1alpha3", "v1beta1", "v1"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(crd.versions[i].name, names[i]);
    EXPECT_TRUE(crd.versions[i].served);
    EXPECT_EQ(crd.versions[i].storage, i == 3);
    EXPECT_TRUE(crd.versions[i].hasStatusSubresource);  // top-level subresources
    EXPECT_EQ(crd.versions[i].schema["type"], json("object"));
  }
  EXPECT_EQ(crd.conversionStrategy, "Webhook");
  EXPECT_EQ(crd.conversionReviewVersions, (std::vector<std::string>{"v1beta1"}));  // defaulted
  EXPECT_FALSE(crd.preserveUnknownFields);  // written explicitly: false
  ASSERT_TRUE(crd.clientConfig.service);
  EXPECT_EQ(crd.clientConfig.service->path, "/convert");
  EXPECT_EQ(crd.clientConfig.service->port, 443);
  EXPECT_TRUE(crd.storedVersions.empty());  // status.storedVersions: []
}

TEST(CrdCorpus, V1beta1CertManagerWarnsAboutItsHelmLeftoversAndSpecVersion) {
  std::istringstream none;
  LoadResult r = loadCrdInput(
      (kCorpus / "cert-manager-v1.0.0-apiextensions-v1beta1/certificates.cert-manager.io.yaml")
          .string(),
      none);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(testing::warned(r, "spec.version: Invalid value: \"v1\"")) << describe(r);
  EXPECT_TRUE(testing::warned(r,
                              "webhookClientConfig.service: the service reference is an "
                              "unrendered Helm template"))
      << describe(r);
}

TEST(CrdCorpus, KnativeMergeKeysGiveEveryVersionTheSharedSettings) {
  const Crd crd = loadCorpusCrd("knative-serving-release-0.18/services.serving.knative.dev.yaml");
  ASSERT_EQ(crd.versions.size(), 3u);
  for (const auto& v : crd.versions) {
    EXPECT_TRUE(v.served) << v.name;
    EXPECT_TRUE(v.hasStatusSubresource) << v.name;
    EXPECT_EQ(v.schema, json({{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}))
        << v.name;
  }
  EXPECT_FALSE(crd.versions[0].storage);
  EXPECT_FALSE(crd.versions[1].storage);  // merged from the v1alpha1 anchor
  EXPECT_TRUE(crd.versions[2].storage);   // explicit key wins over the merged one
  EXPECT_EQ(crd.conversionReviewVersions, (std::vector<std::string>{"v1", "v1beta1"}));
  ASSERT_TRUE(crd.clientConfig.service);
  EXPECT_EQ(crd.clientConfig.service->name, "webhook");
  EXPECT_EQ(crd.clientConfig.service->ns, "knative-serving");
}

TEST(CrdCorpus, KubebuilderTutorialHasAV1OnlyWebhook) {
  const Crd crd = loadCorpusCrd(
      "kubebuilder-multiversion-tutorial/cronjobs.batch.tutorial.kubebuilder.io.yaml");
  EXPECT_EQ(crd.kind, "CronJob");
  ASSERT_EQ(crd.versions.size(), 2u);
  EXPECT_TRUE(crd.versions[0].storage);
  EXPECT_EQ(crd.versions[1].name, "v2");
  EXPECT_EQ(crd.conversionReviewVersions, (std::vector<std::string>{"v1"}));
  EXPECT_EQ(crd.clientConfig.service->path, "/convert");
}

TEST(CrdCorpus, ClusterApiReleaseKeepsUnservedDeprecatedVersions) {
  const Crd crd = loadCorpusCrd("cluster-api-release-1.10/clusters.cluster.x-k8s.io.yaml");
  ASSERT_EQ(crd.versions.size(), 3u);
  EXPECT_FALSE(crd.versions[0].served);
  EXPECT_TRUE(crd.versions[0].deprecated);
  EXPECT_FALSE(crd.versions[1].served);
  EXPECT_TRUE(crd.versions[2].storage);
  EXPECT_EQ(crd.versions[2].name, "v1beta1");
}

TEST(CrdCorpus, PrometheusPlainEqualsSignIsAString) {
  const Crd crd =
      loadCorpusCrd("prometheus-operator/alertmanagerconfigs.monitoring.coreos.com.yaml");
  EXPECT_TRUE(containsValue(crd.versions[0].schema, json::array({"!=", "=", "=~", "!~"})));
}

TEST(CrdCorpus, TektonReviewVersionsKeepTheirOrder) {
  const Crd crd = loadCorpusCrd("tekton-pipeline/tasks.tekton.dev.yaml");
  EXPECT_EQ(crd.conversionReviewVersions, (std::vector<std::string>{"v1beta1", "v1"}));
  EXPECT_EQ(crd.versions[0].name, "v1beta1");
  EXPECT_TRUE(crd.versions[1].storage);
}

TEST(CrdCorpus, ProjectDirectoryLoadsAsOneInput) {
  std::istringstream none;
  LoadResult r = loadCrdInput((kCorpus / "cluster-api").string(), none);
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_EQ(r.crds.size(), 9u);
  EXPECT_EQ(r.crds[0].name, "clusterclasses.cluster.x-k8s.io");  // sorted by file name
}

}  // namespace
}  // namespace convcheck
