// The options of two releases' webhooks (upgrade, diff): a webhook command given as one string is
// split as a shell splits a simple command, and each release's flags are read with their names.
#include "app/cli/release_options.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> argv;
  EXPECT_EQ(splitCommandLine(text, argv), "") << text;
  return argv;
}

TEST(SplitCommandLine, BlanksSeparateWordsAndQuotesKeepThem) {
  EXPECT_EQ(
      split("  ./hook --cert {certdir}/tls.crt\t--port {port} "),
      (std::vector<std::string>{"./hook", "--cert", "{certdir}/tls.crt", "--port", "{port}"}));
  EXPECT_EQ(split("hook --name 'a b' --q \"c \\\"d\\\"\" e\\ f ''"),
            (std::vector<std::string>{"hook", "--name", "a b", "--q", "c \"d\"", "e f", ""}));
  EXPECT_EQ(split("hook 'it\\'s"), (std::vector<std::string>{"hook", "it\\s"}));
}

TEST(SplitCommandLine, AnUnterminatedQuoteIsAnError) {
  std::vector<std::string> argv;
  EXPECT_EQ(splitCommandLine("hook 'open", argv), "unterminated ' quote in: hook 'open");
  EXPECT_NE(splitCommandLine("hook \"open", argv).find("unterminated \" quote"), std::string::npos);
}

TEST(ReadReleaseFlags, ErrorsNameTheReleasesFlag) {
  ReleaseTarget target;
  std::vector<std::string> command;
  EXPECT_EQ(
      readReleaseFlags("new", {"ftp://x", "", "", ""}, {}, target, command).rfind("--new-url", 0),
      0u);
  EXPECT_EQ(readReleaseFlags("old", {"", "", "/no/such/ca.pem", ""}, {}, target, command)
                .rfind("--old-ca-file /no/such/ca.pem: cannot read", 0),
            0u);
  ReleaseTarget throughCluster;
  throughCluster.serviceProxy = true;
  EXPECT_EQ(readReleaseFlags("old", {"", "./hook", "", ""}, {}, throughCluster, command),
            "--old-webhook-command and --service-proxy: choose one way to reach the old release's "
            "webhook");
}

TEST(ReadReleaseFlags, AStartedWebhooksUrlMayNameItsPort) {
  ReleaseTarget target;
  std::vector<std::string> command;
  EXPECT_EQ(
      readReleaseFlags("new", {"https://127.0.0.1:{port}/convert", "./hook --port {port}", "", ""},
                       {}, target, command),
      "");
  EXPECT_EQ(command, (std::vector<std::string>{"./hook", "--port", "{port}"}));
  EXPECT_EQ(target.url, "https://127.0.0.1:{port}/convert");
}

}  // namespace
}  // namespace convcheck
