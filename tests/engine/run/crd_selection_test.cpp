// Which CRDs a command works on: a run's several, and the one that fuzz, replay, minimize and
// generate take.
#include "engine/run/crd_selection.h"

#include <gtest/gtest.h>

#include <cctype>

namespace convcheck {
namespace {

Crd crd(const std::string& kind, const std::string& strategy, int versions = 2) {
  Crd c;
  c.kind = kind;
  c.name = kind + "s.example.com";
  for (char& ch : c.name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  c.conversionStrategy = strategy;
  for (int v = 1; v <= versions; ++v) {
    CrdVersion version;
    version.name = "v" + std::to_string(v);
    c.versions.push_back(version);
  }
  return c;
}

std::vector<std::string> kindsOf(const std::vector<const Crd*>& crds) {
  std::vector<std::string> out;
  for (const Crd* c : crds) out.push_back(c->kind);
  return out;
}

const std::vector<Crd> kMixed = {crd("Widget", "Webhook"), crd("Gadget", "None"),
                                 crd("Gizmo", "Webhook"), crd("Single", "None", 1)};

TEST(CrdSelection, ARunTestsTheWebhookCrdsUnlessSomeAreNamed) {
  EXPECT_EQ(kindsOf(selectCrds(kMixed, {}, false)), (std::vector<std::string>{"Widget", "Gizmo"}));
  EXPECT_EQ(kindsOf(selectCrds(kMixed, {"Gadget", "gizmos.example.com"}, false)),
            (std::vector<std::string>{"Gadget", "Gizmo"}));
}

TEST(CrdSelection, WithAUrlAndNoWebhookCrdEveryCrdWithTwoVersionsIsTested) {
  const std::vector<Crd> none = {crd("Gadget", "None"), crd("Single", "None", 1)};
  EXPECT_TRUE(selectCrds(none, {}, false).empty());
  EXPECT_EQ(kindsOf(selectCrds(none, {}, true)), std::vector<std::string>{"Gadget"});
  EXPECT_NE(noCrdSelected("crds.yaml", none, {}, false).find("pass the webhook's --url"),
            std::string::npos);
  EXPECT_EQ(noCrdSelected("crds.yaml", none, {"Nope"}, false),
            "crds.yaml: no CRD matches --kind Nope; the kinds there are: Gadget "
            "(gadgets.example.com), Single (singles.example.com)");
}

TEST(CrdSelection, OneCrdIsTheNamedOneOrTheOnlyOneOrTheOnlyWebhookOne) {
  EXPECT_EQ(std::get<const Crd*>(chooseCrd(kMixed, "Gadget", "f"))->kind, "Gadget");
  EXPECT_EQ(std::get<const Crd*>(chooseCrd(kMixed, "gizmos.example.com", "f"))->kind, "Gizmo");
  EXPECT_EQ(std::get<const Crd*>(chooseCrd({crd("Gadget", "None")}, "", "f"))->kind, "Gadget");
  EXPECT_EQ(
      std::get<const Crd*>(chooseCrd({crd("Gadget", "None"), crd("Widget", "Webhook")}, "", "f"))
          ->kind,
      "Widget");
}

TEST(CrdSelection, AnAmbiguousOrMissingChoiceIsAnErrorNamingTheInput) {
  EXPECT_EQ(std::get<std::string>(chooseCrd(kMixed, "", "crds.yaml")),
            "crds.yaml holds several CRDs; choose one with --kind");
  EXPECT_EQ(
      std::get<std::string>(chooseCrd(kMixed, "Nope", "crds.yaml")),
      "crds.yaml: no CRD matches --kind Nope; the kinds there are: Widget "
      "(widgets.example.com), Gadget (gadgets.example.com), Gizmo (gizmos.example.com), Single "
      "(singles.example.com)");
  EXPECT_EQ(std::get<std::string>(chooseCrd({}, "", "crds.yaml")), "crds.yaml: no CRD");
  const std::vector<Crd> sameKind = {crd("Widget", "Webhook"), crd("Widget", "Webhook")};
  EXPECT_NE(std::get<std::string>(chooseCrd(sameKind, "Widget", "crds.yaml")).find("several"),
            std::string::npos);
}

}  // namespace
}  // namespace convcheck
