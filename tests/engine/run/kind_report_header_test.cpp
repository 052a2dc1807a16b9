// The head of a kind's report: what was tested, version roles, and the notes that frame the
// verdict (no webhook conversion declared yet, warning-only versions, acknowledged differences).
#include "engine/run/kind_report_header.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace convcheck {
namespace {

Crd widgets() {
  Crd crd;
  crd.name = "widgets.example.dev";
  crd.kind = "Widget";
  crd.group = "example.dev";
  crd.source.file = "widgets.yaml";
  crd.source.document = 2;
  crd.conversionStrategy = "Webhook";
  // name, served, storage, deprecated, schema
  crd.versions = {{"v1alpha1", false, false, false, nullptr},
                  {"v1beta1", true, true, false, nullptr},
                  {"v1", true, false, false, nullptr}};
  crd.storedVersions = {"v1beta1"};
  return crd;
}

bool hasNote(const KindReport& r, const std::string& part) {
  return std::any_of(r.notes.begin(), r.notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

TEST(KindReportHeader, SaysWhatWasTestedAndTheVersionRoles) {
  ResolvedTarget target;
  target.url = "https://127.0.0.1:9443/convert";
  target.reviewVersion = ReviewVersion::V1beta1;
  KindReport r = kindReportHeader(widgets(), target, RunConfig{});
  EXPECT_EQ(r.kind, "Widget");
  EXPECT_EQ(r.source, "widgets.yaml, document 2");
  EXPECT_EQ(r.url, "https://127.0.0.1:9443/convert");
  EXPECT_EQ(r.reviewVersion, "v1beta1");
  EXPECT_EQ(r.storageVersion, "v1beta1");
  EXPECT_EQ(r.notServed, (std::vector<std::string>{"v1alpha1"}));
  ASSERT_EQ(r.warningVersions.count("v1alpha1"), 1u);
  EXPECT_TRUE(hasNote(r, "findings on v1alpha1 are warnings: "));
  EXPECT_FALSE(hasNote(r, "does not declare webhook conversion"));
  EXPECT_EQ(r.versionRoles.at("v1beta1"),
            "served, storage, in status.storedVersions: counts as source and target");
  EXPECT_EQ(r.versionRoles.at("v1"), "served: counts as source and target");
  EXPECT_NE(r.versionRoles.at("v1alpha1").find("counts as neither"), std::string::npos);
}

TEST(KindReportHeader, AStoredButUnservedVersionIsASourceOnlyAndConversionsToItWarn) {
  Crd crd = widgets();
  crd.storedVersions = {"v1alpha1", "v1beta1"};
  KindReport r = kindReportHeader(crd, ResolvedTarget{}, RunConfig{});
  EXPECT_EQ(r.versionRoles.at("v1alpha1"),
            "in status.storedVersions, not served: counts as source only");
  EXPECT_TRUE(r.warningVersions.empty());
  EXPECT_TRUE(hasNote(r, "findings on conversions to v1alpha1 are warnings: "));
}

TEST(KindReportHeader, ACrdWithoutWebhookConversionIsNotedWithTheReviewVersionSent) {
  Crd crd = widgets();
  crd.conversionStrategy = "";
  KindReport r = kindReportHeader(crd, ResolvedTarget{}, RunConfig{});
  EXPECT_TRUE(
      hasNote(r, "does not declare webhook conversion yet (spec.conversion.strategy None)"));
  EXPECT_TRUE(hasNote(r, "sending v1 ConversionReviews"));
}

TEST(KindReportHeader, AcknowledgedDifferencesAreCountedWithTheirFile) {
  RunConfig config;
  config.acks = AckConfig{};
  config.acks->items.resize(2);
  config.acks->source = ".convcheck.yaml";
  KindReport r = kindReportHeader(widgets(), ResolvedTarget{}, config);
  EXPECT_TRUE(hasNote(r, "2 acknowledged difference(s) from .convcheck.yaml"));
}

}  // namespace
}  // namespace convcheck
