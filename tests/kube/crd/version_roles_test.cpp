// Which conversions fail a run: from a version objects may be in (served, storage, stored) to one
// clients read or the API server stores in (served, storage); every other pair only warns.
#include <gtest/gtest.h>

#include "kube/crd/version_roles.h"

namespace convcheck {
namespace {

Crd threeVersions(bool alphaServed, std::vector<std::string> stored) {
  Crd crd;
  // name, served, storage, deprecated, schema
  crd.versions = {{"v1alpha1", alphaServed, false, false, nullptr},
                  {"v1beta1", true, true, false, nullptr},
                  {"v1", true, false, false, nullptr}};
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

TEST(ConversionReach, ServedAndStorageVersionsCountBothWays) {
  ConversionReach reach(threeVersions(true, {"v1beta1"}));
  for (const char* from : {"v1alpha1", "v1beta1", "v1"})
    for (const char* to : {"v1alpha1", "v1beta1", "v1"})
      EXPECT_EQ(reach.warningFor(from, to), "") << from << " -> " << to;
}

TEST(ConversionReach, AStoredButUnservedVersionCountsAsSourceOnly) {
  ConversionReach reach(threeVersions(false, {"v1alpha1", "v1beta1"}));
  EXPECT_TRUE(reach.countsAsSource("v1alpha1"));
  EXPECT_FALSE(reach.countsAsTarget("v1alpha1"));
  EXPECT_EQ(reach.warningFor("v1alpha1", "v1"), "");  // reads of objects stored in v1alpha1
  const std::string why = reach.warningFor("v1", "v1alpha1");
  EXPECT_NE(why.find("converts to v1alpha1"), std::string::npos) << why;
  EXPECT_NE(reach.warningFor("v1beta1", "v1alpha1"), "");
}

TEST(ConversionReach, AVersionNoObjectCanBeInCountsNeitherWay) {
  ConversionReach reach(threeVersions(false, {"v1beta1"}));
  EXPECT_NE(reach.warningFor("v1alpha1", "v1").find("never converts from v1alpha1"),
            std::string::npos);
  EXPECT_NE(reach.warningFor("v1", "v1alpha1"), "");
  EXPECT_EQ(reach.warningFor("v1", "v1beta1"), "");
}

TEST(ConversionReach, PropertiesWithoutAPairAlwaysCount) {
  EXPECT_EQ(ConversionReach(threeVersions(false, {})).warningFor("", ""), "");
}

TEST(ConversionReach, WithoutStatusTheReasonTellsHowToTestStoredObjects) {
  ConversionReach reach(threeVersions(false, {}));
  EXPECT_NE(reach.warningFor("v1alpha1", "v1").find("kubectl get crd -o yaml"), std::string::npos);
}

TEST(ConversionReach, RolesSayWhatEachVersionIsAndHowItCounts) {
  auto roles = ConversionReach(threeVersions(false, {"v1alpha1", "v1beta1"})).roles();
  EXPECT_EQ(roles.at("v1beta1"),
            "served, storage, in status.storedVersions: counts as source and target");
  EXPECT_EQ(roles.at("v1"), "served: counts as source and target");
  EXPECT_EQ(roles.at("v1alpha1"), "in status.storedVersions, not served: counts as source only");
  auto neither = ConversionReach(threeVersions(false, {"v1beta1"})).roles();
  EXPECT_EQ(neither.at("v1alpha1"),
            "not served: counts as neither source nor target (findings on it only warn)");
}

}  // namespace
}  // namespace convcheck
