// A run's progress on stderr: status lines at a fixed interval when stderr is not a terminal, a
// line rewritten in place on one; --color's rule for auto, always and never.
#include "app/cli/run_progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <thread>

#include "app/cli/colour.h"

namespace convcheck {
namespace {

TEST(RunProgress, CountsCasesFailuresAndEveryKindsRequests) {
  std::ostringstream out;
  RunProgress progress(out, RunProgress::Mode::StatusLines, std::chrono::seconds(60));
  const std::string widget = "Widget", gadget = "Gadget";
  progress.caseDone(CaseDone{widget, false, 3});
  progress.caseDone(CaseDone{widget, true, 9});
  progress.caseDone(CaseDone{gadget, false, 2});
  EXPECT_EQ(progress.status(), "3 case(s) done, 1 failing, 11 request(s), 0s elapsed");
}

TEST(RunProgress, ShowsTheTimeElapsedOfTheDurationBudget) {
  std::ostringstream out;
  RunProgress progress(out, RunProgress::Mode::StatusLines, std::chrono::seconds(60),
                       std::chrono::seconds(150));
  progress.caseDone(CaseDone{"Widget", false, 4});
  EXPECT_EQ(progress.status(), "1 case(s) done, 0 failing, 4 request(s), 0s of 2m30s elapsed");
}

TEST(RunProgress, PrintsAStatusLineEveryIntervalEvenWhenNoCaseFinishes) {
  std::ostringstream out;
  {
    RunProgress progress(out, RunProgress::Mode::StatusLines, std::chrono::milliseconds(100));
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
  }
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("status: 0 case(s) done, 0 failing, 0 request(s), 0s elapsed\n", 0), 0u)
      << text;
  EXPECT_GE(std::count(text.begin(), text.end(), '\n'), 2) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

TEST(RunProgress, OnATerminalRewritesOneLineAndClearsItAtTheEnd) {
  std::ostringstream out;
  {
    RunProgress progress(out, RunProgress::Mode::Terminal, std::chrono::seconds(60));
    const std::string widget = "Widget";
    progress.caseDone(CaseDone{widget, true, 4});
  }
  EXPECT_EQ(out.str(), "\r\033[K1 case(s) done, 1 failing, 4 request(s), 0s elapsed\r\033[K");
}

TEST(Colour, AutoNeedsATerminalNoNoColorAndATermThatIsNotDumb) {
  EXPECT_TRUE(useColour("auto", true, nullptr, "xterm-256color"));
  EXPECT_TRUE(useColour("auto", true, nullptr, nullptr));
  EXPECT_TRUE(useColour("auto", true, "", "xterm"));  // NO_COLOR counts only when not empty
  EXPECT_FALSE(useColour("auto", false, nullptr, "xterm"));
  EXPECT_FALSE(useColour("auto", true, "1", "xterm"));
  EXPECT_FALSE(useColour("auto", true, nullptr, "dumb"));
}

TEST(Colour, AlwaysBeatsNoColorAndNeverBeatsATerminal) {
  EXPECT_TRUE(useColour("always", false, "1", "dumb"));
  EXPECT_FALSE(useColour("never", true, nullptr, "xterm"));
}

}  // namespace
}  // namespace convcheck
