// A release's migration step: a StorageVersionMigration of the CRD's resource among the files its
// CRDs are read from.
#include "engine/upgrade/migration_step.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace convcheck {
namespace {

namespace fs = std::filesystem;

Crd widgets() {
  Crd crd;
  crd.group = "example.convcheck.dev";
  crd.plural = "widgets";
  return crd;
}

class Manifests : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("convcheck-svm-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

const char* kMigration = R"(apiVersion: storagemigration.k8s.io/v1alpha1
kind: StorageVersionMigration
metadata: {name: m}
spec:
  resource: {group: example.convcheck.dev, version: v1, resource: widgets}
)";

TEST_F(Manifests, AStorageVersionMigrationOfTheResourceIsTheMigrationStep) {
  const std::string file = write("crd.yaml", std::string("kind: Other\n---\n") + kMigration);
  EXPECT_TRUE(hasStorageMigration(file, widgets()));
  EXPECT_TRUE(hasStorageMigration(dir.string(), widgets()));  // a directory, as the loader reads it
}

TEST_F(Manifests, AMigrationOfAnotherResourceOrNoneIsNoMigrationStep) {
  std::string other = kMigration;
  other.replace(other.find("widgets"), 7, "gadgets");
  EXPECT_FALSE(hasStorageMigration(write("other.yaml", other), widgets()));
  EXPECT_FALSE(
      hasStorageMigration(write("none.yaml", "kind: CustomResourceDefinition\n"), widgets()));
  EXPECT_FALSE(hasStorageMigration("kube://widgets.example.convcheck.dev", widgets()));
  EXPECT_FALSE(hasStorageMigration("-", widgets()));
}

TEST(SkippedStorageMigration, TheLoadersWarningAboutItIsRecognised) {
  EXPECT_TRUE(isSkippedStorageMigration(
      "crd.yaml, document 2: skipped: storagemigration.k8s.io/v1alpha1 StorageVersionMigration "
      "\"m\" is not a CustomResourceDefinition"));
  EXPECT_FALSE(isSkippedStorageMigration(
      "crd.yaml, document 2: skipped: v1 ConfigMap \"m\" is not a CustomResourceDefinition"));
}

}  // namespace
}  // namespace convcheck
