#include "app/cli/cli.h"

#include <istream>
#include <ostream>

#include <CLI/CLI.hpp>

#include "app/cli/command_table.h"
#include "app/cli/version.h"

namespace convcheck {
namespace {

constexpr const char* kVersion = kConvcheckVersion;

}  // namespace

int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err) {
  CLI::App app{"convcheck: conformance and fuzz testing of Kubernetes CRD conversion webhooks",
               "convcheck"};
  app.require_subcommand(1);
  app.set_version_flag("--version", kVersion);

  // Every subcommand exists before any declares its options, so that help and completion can
  // name them all.
  std::vector<Command> table = commandTable();
  std::vector<CLI::App*> subs;
  for (const Command& command : table)
    subs.push_back(app.add_subcommand(command.name, command.help));
  app.footer("Run `convcheck help SUBCOMMAND` for a subcommand's options.\n");  // not inherited
  std::vector<Execute> actions;
  for (std::size_t i = 0; i < table.size(); ++i) actions.push_back(table[i].declare(*subs[i]));

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the subcommand's, when one was given
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << "convcheck " << kVersion << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    err << "convcheck: " << e.what() << "\n";
    if (args.empty()) err << "Run `convcheck help` for the subcommands.\n";
    return e.get_exit_code() == 0 ? 0 : 2;
  }

  const std::string version = kVersion;
  const CommandContext context{in, out, err, args, version, app};
  for (std::size_t i = 0; i < table.size(); ++i)
    if (subs[i]->parsed()) return actions[i](context);
  return 2;
}

}  // namespace convcheck
