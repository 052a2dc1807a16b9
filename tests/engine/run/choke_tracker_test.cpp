// Inputs the webhook chokes on: a rejection repeated on a pair stops counting towards --tests,
// and a version most of whose objects were rejected the same way gets one note.
#include "engine/run/choke_tracker.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

Exchange rejected(const std::string& message) {
  Exchange ex;
  ex.verdict.stage = ModelStage::ResultStatus;
  ex.verdict.message = message;
  return ex;
}

Exchange accepted() { return Exchange{}; }

TEST(ChokeTracker, ARejectionRepeatedOnAPairStopsCountingAfterThreeTimes) {
  ChokeTracker chokes;
  const Exchange bad = rejected("panic: nil pointer");
  for (int i = 0; i < ChokeTracker::kRepeats; ++i) EXPECT_FALSE(chokes.count("v1", &bad)) << i;
  EXPECT_TRUE(chokes.count("v1", &bad));
  EXPECT_TRUE(chokes.count("v1", &bad));
  const Exchange good = accepted();
  EXPECT_FALSE(chokes.count("v1", &good));
  EXPECT_FALSE(chokes.count("v1", nullptr));
  chokes.startPair();
  EXPECT_FALSE(chokes.count("v1", &bad));
}

TEST(ChokeTracker, AVersionMostOfWhoseObjectsAreRejectedAlikeGetsOneNote) {
  ChokeTracker chokes;
  const Exchange bad = rejected("panic: nil pointer dereference in ConvertTo");
  const Exchange good = accepted();
  for (int i = 0; i < 6; ++i) chokes.count("v1alpha1", &bad);
  for (int i = 0; i < 4; ++i) chokes.count("v1alpha1", &good);
  for (int i = 0; i < 10; ++i) chokes.count("v1", i < 4 ? &bad : &good);
  auto notes = chokes.notes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("generated v1alpha1 objects the same way (6 of 10 cases"),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("panic: nil pointer dereference in ConvertTo"), std::string::npos);
}

TEST(ChokeTracker, FewerThanEightCasesAreNoGroundForANote) {
  ChokeTracker chokes;
  const Exchange bad = rejected("boom");
  for (int i = 0; i < 7; ++i) chokes.count("v1", &bad);
  EXPECT_TRUE(chokes.notes().empty());
}

}  // namespace
}  // namespace convcheck
