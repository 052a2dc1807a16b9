// Problem identity: rejection messages are masked so one crash is one problem and two crashes
// are two; text paths split into the steps normalisedPath folds.
#include <gtest/gtest.h>

#include "properties/checks/problem_identity.h"

#include "kube/go/utf8.h"

namespace convcheck {
namespace {

using nlohmann::json;

TEST(MaskMessage, NumbersQuotedRequestValuesAndGroupVersionKindsAreMasked) {
  EXPECT_EQ(maskMessage("conversion webhook for example.dev/v1beta1, Kind=Widget failed: "
                        "spec.size 12.5 is not \"large\" or 'small' (`x`), \"7\"",
                        {}, {"large", "small", "x"}),
            "conversion webhook for <gvk> failed: spec.size <v> is not \"<v>\" or \"<v>\" "
            "(\"<v>\"), \"<v>\"");
}

TEST(MaskMessage, QuotedTextTheWebhookWroteItselfStays) {
  // The property a crash read is the code's, not the request's: it tells two crashes apart.
  EXPECT_EQ(maskMessage("Cannot read properties of undefined (reading 'team')", {}, {"tcp"}),
            "Cannot read properties of undefined (reading 'team')");
  // A request value inside the quotes, between separators, is still the request's.
  EXPECT_EQ(maskMessage("unknown backend \"https://api-7f.example\"", {}, {"api-7f"}),
            "unknown backend \"<v>\"");
  EXPECT_EQ(maskMessage("unknown backend \"https://api-7f.example\"", {}, {"api"}),
            "unknown backend \"<v>\"");
  EXPECT_EQ(maskMessage("cannot read 'apiKeyVerification'", {}, {"api"}),
            "cannot read 'apiKeyVerification'");
}

TEST(MaskMessage, NamesAreMaskedAsWordsAndAsPartsOfWords) {
  EXPECT_EQ(maskMessage("widget web-1ab and web-1ab-converted in ns prod; prod-2 stays, v1 goes.",
                        {"web-1ab", "prod", "v1"}),
            "widget <v> and <v> in ns <v>; <v> stays, <v> goes.");
  // Not inside a word: "alphanumeric" is not the name "alpha", "v1beta1" not the version "v1".
  EXPECT_EQ(maskMessage("v1beta1 is not v1; x-converted, box, alphanumeric", {"v1", "x", "alpha"}),
            "v1beta1 is not <v>; <v>, box, alphanumeric");
}

TEST(MaskMessage, OneOrTwoLettersAloneAreWordsOfTheMessage) {
  // Objects named "or" and "a" (names of one or two letters are valid and generated).
  EXPECT_EQ(maskMessage("Cannot convert undefined or null to object; a-converted", {"or", "a"}),
            "Cannot convert undefined or null to object; <v>");
  // Outside prose a short name is still a name.
  EXPECT_EQ(maskMessage("object (t/x1) failed", {"t", "x1"}), "object (<v>/<v>) failed");
  // An object named "0" does not turn an address or a count into a name.
  EXPECT_EQ(maskMessage("no response from https://127.0.0.1:8443 with 0 bytes", {"0"}),
            maskMessage("no response from https://127.0.0.1:8443 with 0 bytes", {}));
}

TEST(MaskMessage, ALongNameIsMaskedBeforeTheMessageIsCut) {
  const std::string name(250, 'a');
  EXPECT_EQ(maskMessage("must have the same name: " + name + " != " + name + "-converted", {name}),
            "must have the same name: <v> != <v>");
}

TEST(MaskMessage, BothValuesOfAnIdentityChangeAreMaskedWhateverTheName) {
  // kube-apiserver prints the names unquoted; "db" standing between spaces reads like a word.
  const std::string masked = "must have the same name: <v> != <v>";
  EXPECT_EQ(maskMessage("must have the same name: db != db-converted", {"db"}), masked);
  EXPECT_EQ(maskMessage("must have the same name: a != a-converted", {"a"}), masked);
  EXPECT_EQ(maskMessage("must have the same name: web-7 != changed", {"web-7"}), masked);
  // Names that are also parts of the mask's own words or numbers.
  EXPECT_EQ(maskMessage("must have the same name: v != v-converted", {"v"}), masked);
  EXPECT_EQ(maskMessage("must have the same name: 3 != 3-converted", {"3"}), masked);
  EXPECT_EQ(maskMessage("must have the same namespace:  != ns", {}),
            "must have the same namespace: <v> != <v>");
  EXPECT_NE(maskMessage("must have the same name: db != db-x", {"db"}),
            maskMessage("must have the same uid: db != db-x", {"db"}));
}

TEST(MaskMessage, AnUnclosedQuoteStays) {
  EXPECT_EQ(maskMessage("can't parse \"x\"", {}, {"x"}), "can't parse \"<v>\"");
  EXPECT_EQ(maskMessage("can't parse \"x", {}, {"x"}), "can't parse \"x");
}

TEST(MaskMessage, ABadObjectInAListAndAloneIsOneMessage) {
  EXPECT_EQ(
      maskMessage("returned invalid converted object at index 3: must have the same name", {}),
      maskMessage("returned invalid object at index 0: must have the same name", {}));
  EXPECT_EQ(maskMessage("returned invalid metadata in object at index 2: metadata.labels: bad", {}),
            maskMessage("returned invalid metadata: metadata.labels: bad", {}));
}

TEST(MaskMessage, VersionNamesInsideWordsAreKept) {
  // Only standalone numbers are masked: "v1beta1" keeps its digits.
  EXPECT_EQ(maskMessage("cannot convert to v1beta1 at index 3", {}),
            "cannot convert to v1beta1 at index <v>");
}

TEST(MaskMessage, ALongMessageIsCutOnACharacterBoundary) {
  // The masked message is part of a cause key, which JSON reports and bundles write: a
  // multi-byte character at the cut is left out whole, wherever the cut falls.
  for (std::size_t lead = 190; lead < 200; ++lead) {
    const std::string message =
        "Error: " + std::string(lead, 'e') + " \xC3\xA9\xE2\x82\xAC" + std::string(300, '.');
    const std::string masked = maskMessage(message, {});
    EXPECT_LE(masked.size(), 200u);
    EXPECT_EQ(firstInvalidUtf8(masked), std::string::npos) << lead;
  }
}

TEST(MaskMessage, DifferentMessagesStayDifferent) {
  EXPECT_NE(maskMessage("Cannot convert undefined or null to object", {}),
            maskMessage("Cannot read properties of undefined (reading 'split')", {}));
  // Two crashes that read different properties are two defects (fixing one leaves the other).
  EXPECT_NE(maskMessage("Cannot read properties of undefined (reading 'split')", {}),
            maskMessage("Cannot read properties of undefined (reading 'name')", {}));
}

TEST(MaskMessage, LongMessagesAreCut) {
  EXPECT_EQ(maskMessage(std::string(500, 'a'), {}).size(), 200u);
}

TEST(MaskedRejection, TheSentObjectsNamesUidsAndVersionsAreMasked) {
  Exchange ex;
  ex.sent.desiredApiVersion = "example.dev/v2";
  ex.sent.objects = SharedObjects::own(
      {json{{"apiVersion", "example.dev/v1"},
            {"metadata", {{"name", "cron-9x"}, {"namespace", "team-a"}, {"uid", "5f0c-aa"}}}}});
  ex.verdict.message = "converting team-a/cron-9x (5f0c-aa) from v1 to v2: no image";
  EXPECT_EQ(maskedRejection(ex), "converting <v>/<v> (<v>) from <v> to <v>: no image");
}

TEST(MaskedRejection, QuotedValuesOfTheSentObjectsAreMaskedTheCodesWordsKept) {
  Exchange ex;
  ex.sent.desiredApiVersion = "example.dev/v2";
  ex.sent.objects = SharedObjects::own({json{{"apiVersion", "example.dev/v1"},
                                             {"metadata", {{"name", "a1"}}},
                                             {"spec", {{"protocol", "SCTP"}, {"port", 8443}}}}});
  ex.verdict.message = "unsupported protocol 'SCTP' on port '8443' (reading 'listeners')";
  EXPECT_EQ(maskedRejection(ex),
            "unsupported protocol \"<v>\" on port \"<v>\" (reading 'listeners')");
}

TEST(MaskedRejection, AListOfVersionsTheWebhookWroteStaysWhicheverOfThemWasAskedFor) {
  std::vector<std::string> masked;
  for (const char* desired : {"v1beta1", "v1", "v2"}) {
    Exchange ex;
    ex.sent.desiredApiVersion = std::string("example.dev/") + desired;
    ex.sent.objects = SharedObjects::own(
        {json{{"apiVersion", "example.dev/v1alpha1"}, {"metadata", {{"name", "a1"}}}}});
    ex.verdict.message = "cannot convert to example.dev/" + std::string(desired) +
                         ": unexpected version example.dev/v1alpha1 (converts v1beta1, v1 and v2)";
    masked.push_back(maskedRejection(ex));
  }
  EXPECT_EQ(masked[0],
            "cannot convert to example.dev/<v>: unexpected version example.dev/<v> (converts "
            "v1beta1, v1 and v2)");
  EXPECT_EQ(masked[1], masked[0]);
  EXPECT_EQ(masked[2], masked[0]);
  // A version alone, or beside words that are not versions, is the request's.
  EXPECT_EQ(maskMessage("no conversion from v1 to v2: see x/v1", {"v1", "v2"}),
            "no conversion from <v> to <v>: see x/<v>");
}

TEST(ProblemOfCauseKey, DropsTheProperty) {
  EXPECT_EQ(problemOfCauseKey("round-trip|lost|spec.a[*].b"), "lost|spec.a[*].b");
  EXPECT_EQ(problemOfCauseKey("edit-round-trip|float64"), "float64");
}

TEST(PathSteps, SplitsKeysIndicesAndQuotedKeys) {
  auto steps = pathSteps("spec.a[3][\"x.y\"][k/v].b");
  ASSERT_EQ(steps.size(), 6u);
  EXPECT_EQ(steps[0].key, "spec");
  EXPECT_EQ(steps[1].key, "a");
  EXPECT_TRUE(steps[2].isIndex);
  EXPECT_EQ(steps[2].index, 3u);
  EXPECT_EQ(steps[3].key, "x.y");
  EXPECT_EQ(steps[4].key, "k/v");
  EXPECT_EQ(steps[5].key, "b");
}

}  // namespace
}  // namespace convcheck
