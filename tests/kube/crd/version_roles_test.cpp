// Which versions only warn: those no object can be in (not served, not storage, not stored).
#include <gtest/gtest.h>

#include "kube/crd/version_roles.h"

namespace convcheck {
namespace {

Crd threeVersions(bool alphaServed, std::vector<std::string> stored) {
  Crd crd;
  crd.versions = {{"v1alpha1", alphaServed, false}, {"v1beta1", true, true}, {"v1", true, false}};
  crd.storedVersions = std::move(stored);
  return crd;
}

TEST(VersionRoles, ServedAndStorageVersionsNeverWarn) {
  EXPECT_TRUE(warningOnlyVersions(threeVersions(true, {"v1beta1"})).empty());
}

TEST(VersionRoles, UnservedVersionInStoredVersionsIsFullyTested) {
  EXPECT_TRUE(warningOnlyVersions(threeVersions(false, {"v1alpha1", "v1beta1"})).empty());
}

TEST(VersionRoles, UnservedVersionNotInStoredVersionsWarnsAndSaysWhy) {
  auto w = warningOnlyVersions(threeVersions(false, {"v1beta1"}));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w.at("v1alpha1").find("not in status.storedVersions"), std::string::npos);
}

TEST(VersionRoles, WithoutStatusTheReasonTellsHowToTestStoredObjects) {
  auto w = warningOnlyVersions(threeVersions(false, {}));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w.at("v1alpha1").find("kubectl get crd -o yaml"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
